'use strict'
// A shop's checkout with paytoken for Node, the recipe the README shows: pay, and when the
// answer is lost after the request may have left (a timeout, a dropped connection, a body
// cut short, a proxy's error page), settle by an inquiry for the shop's own order id, never
// by paying again. Input errors and refusals are thrown: nothing was made.
//
//   node checkout.js ORDER_ID
//
// reads the gateway from PAYTOKEN_BASE_URL, PAYTOKEN_MEMBER_ID, PAYTOKEN_PARTNER_ID,
// PAYTOKEN_USERNAME and PAYTOKEN_SECURE_KEY, pays 50.00 EUR with a test card and prints the
// outcome as JSON. The suite runs it against a sandbox that drops the payment's answer after
// taking it, and checks the outcome against the sandbox's books.

const paytoken = require('paytoken')

// Any HTTP client does: here `fetch`, with a timeout. A status other than 200 is handed to
// `parse` too, which says what it means.
async function call(gateway, operation, context) {
  const request = operation.request(context)
  const response = await fetch(request.url(gateway.baseUrl), {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(30_000),
  })
  return operation.parse(response.status, new Uint8Array(await response.arrayBuffer()))
}

// Pays 50.00 EUR for `orderId`: the payment's transaction, or the one an inquiry found
// after a lost answer, or null when the gateway has no record of it (it was not made).
async function checkout(gateway, orderId, card) {
  const key = new paytoken.SecureKey(gateway.secureKey)
  const credentials = paytoken.Credentials.merchant(gateway.memberId, key)
  const fetchToken = paytoken.fetchAuthToken(gateway.partnerId, gateway.username)
  const grant = await call(gateway, fetchToken, new paytoken.Context(credentials))
  const context = new paytoken.Context(credentials, { authToken: grant.token })
  try {
    return await call(gateway, paytoken.payment(orderId, '50.00', 'EUR', card, { storeCard: true }), context)
  } catch (error) {
    // A value refused before sending, or a refusal: nothing was made.
    // (error.tokenRefused: fetch a new auth token, send once more.)
    if (paytoken.isPaytokenError(error) && !error.mayHaveBeenProcessed) throw error
    // Anything else may have been processed: fetch's TypeError (a dropped connection), the
    // timeout's error, an answer unreadable or cut short. Inquire, never send it again.
    try {
      return await call(gateway, paytoken.inquiry({ merchantTransactionId: orderId }), context)
    } catch (inquiryError) {
      // Refused for another reason than its auth token: no such payment, it was not made.
      if (inquiryError.code === 'PAYTOKEN_REFUSED' && !inquiryError.tokenRefused) return null
      throw inquiryError
    }
  }
}

async function main() {
  const env = (name) => process.env[`PAYTOKEN_${name}`]
  const gateway = {
    baseUrl: env('BASE_URL'),
    memberId: env('MEMBER_ID'),
    partnerId: env('PARTNER_ID'),
    username: env('USERNAME'),
    secureKey: env('SECURE_KEY'),
  }
  const orderId = process.argv[2]
  const card = new paytoken.Card('4000000000000051', '12', '2030', '745')
  const paid = await checkout(gateway, orderId, card)
  if (paid?.isApproved) ship(paid.paymentId)
  console.log(JSON.stringify({ orderId, approved: Boolean(paid?.isApproved), paymentId: paid?.paymentId ?? null }))
}

function ship(paymentId) {
  // Your fulfilment goes here.
}

module.exports = { checkout }
if (require.main === module) main().catch((error) => {
  console.error(String(error))
  process.exitCode = 1
})
