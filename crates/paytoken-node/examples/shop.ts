// A shop's checkout with paytoken for Node, typed: pay with `fetch`, decide by the answer,
// settle a lost answer by an inquiry, never by paying again. `cargo xtask node` checks it
// against the package's TypeScript definitions, then runs what `tsc` made of it against a
// sandbox that drops the payment's answer after taking it.

import * as paytoken from 'paytoken'

// Where the gateway is, and who the shop is to it.
export interface Gateway {
  baseUrl: string
  memberId: string
  partnerId: string
  username: string
  secureKey: string
}

// What the checkout settled: whether the payment was approved, and its id if it was made.
export interface Settled {
  approved: boolean
  paymentId: string | null
}

// Sends an operation's request with `fetch`, with a timeout, and reads its answer.
async function call(gateway: Gateway, operation: paytoken.Operation, context: paytoken.Context) {
  const request = operation.request(context)
  const response = await fetch(request.url(gateway.baseUrl), {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(30_000),
  })
  return operation.parse(response.status, new Uint8Array(await response.arrayBuffer()))
}

function settled(answer: paytoken.Answer | null): Settled {
  if (answer === null || answer.kind !== 'transaction') return { approved: false, paymentId: null }
  return { approved: answer.isApproved, paymentId: answer.paymentId }
}

export async function checkout(gateway: Gateway, orderId: string, card: paytoken.Card): Promise<Settled> {
  const credentials = paytoken.Credentials.merchant(gateway.memberId, new paytoken.SecureKey(gateway.secureKey))
  const fetchToken = paytoken.fetchAuthToken(gateway.partnerId, gateway.username)
  const grant = await call(gateway, fetchToken, new paytoken.Context(credentials))
  if (grant.kind !== 'authTokenGrant') throw new Error(`an answer of kind ${grant.kind}`)
  const context = new paytoken.Context(credentials, { authToken: grant.token })
  try {
    return settled(await call(gateway, paytoken.payment(orderId, '50.00', 'EUR', card, { storeCard: true }), context))
  } catch (error) {
    // A value refused before sending, or a refusal: nothing was made.
    if (paytoken.isPaytokenError(error) && !error.mayHaveBeenProcessed) throw error
    // Anything else may have been processed (fetch's TypeError for a dropped connection,
    // the timeout's error, an answer unreadable or cut short): ask, by the shop's own
    // order id, and never pay again.
    try {
      return settled(await call(gateway, paytoken.inquiry({ merchantTransactionId: orderId }), context))
    } catch (inquiryError) {
      // Refused for another reason than its auth token: the gateway has no such payment,
      // so it was not made. (`tokenRefused` is set on refusals only.)
      if (paytoken.isPaytokenError(inquiryError) && inquiryError.tokenRefused === false) return settled(null)
      throw inquiryError
    }
  }
}
