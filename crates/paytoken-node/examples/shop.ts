// A shop's checkout with paytoken for Node, typed: pay with `fetch`, decide by the answer,
// settle a lost answer by an inquiry, never by paying again. `cargo xtask node` checks it
// against the package's TypeScript definitions.

import * as paytoken from 'paytoken'

const baseUrl = 'https://gateway.example'
const credentials = paytoken.Credentials.merchant('11344', new paytoken.SecureKey('key'))

// Sends an operation's request with `fetch` and reads its answer.
async function call(operation: paytoken.Operation, context: paytoken.Context) {
  const request = operation.request(context)
  const response = await fetch(request.url(baseUrl), {
    method: request.method,
    headers: request.headers,
    body: request.body,
  })
  return operation.parse(response.status, new Uint8Array(await response.arrayBuffer()))
}

export async function checkout(orderId: string, card: paytoken.Card): Promise<boolean> {
  const grant = await call(paytoken.fetchAuthToken('11340', 'shop.admin'), new paytoken.Context(credentials))
  if (grant.kind !== 'authTokenGrant') throw new Error(`an answer of kind ${grant.kind}`)
  const context = new paytoken.Context(credentials, { authToken: grant.token })
  try {
    const paid = await call(paytoken.payment(orderId, '50.00', 'EUR', card, { storeCard: true }), context)
    return paid.kind === 'transaction' && paid.isApproved
  } catch (error) {
    if (!paytoken.isPaytokenError(error) || !error.mayHaveBeenProcessed) throw error
    // The payment may have been made: ask, by the shop's own order id.
    const found = await call(paytoken.inquiry({ merchantTransactionId: orderId }), context)
    return found.kind === 'transaction' && found.isApproved
  }
}
