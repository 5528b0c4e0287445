#!/usr/bin/env node
'use strict'
// paytoken for Node under `paytoken conform`: the addon answering the harness's messages
// (protocol 1 of the conformance kit), one JSON object a line.
//
//     paytoken conform --client "node crates/paytoken-node/examples/conform_adapter.js"
//
// Every kind of message is answered through the addon: it signs, builds requests, decides
// answers, verifies notifications, and refuses the requests paytoken would never send.

const readline = require('node:readline')

const paytoken = require('paytoken')

function credentials(caller) {
  const key = new paytoken.SecureKey(caller.secureKey)
  return caller.kind === 'partner'
    ? paytoken.Credentials.partner(caller.id, key)
    : paytoken.Credentials.merchant(caller.id, key)
}

function context(caller) {
  return new paytoken.Context(credentials(caller), {
    authToken: caller.authToken ?? undefined,
    accountId: caller.accountId ?? undefined,
    terminalId: caller.terminalId ?? undefined,
  })
}

// The request paytoken sends for the vector's operation and form.
function build(message) {
  const [pathId] = Object.values(message.pathValues)
  const operation = paytoken.asked(message.operation, message.fields, pathId)
  const request = operation.request(context(message.caller))
  const form = new URLSearchParams(request.body)
  if (message.rule === null) {
    // The invoice request as the specification shows it, unsigned; paytoken signs it.
    form.delete('authentication.checksum')
  }
  return {
    method: request.method,
    path: request.path,
    headers: request.headers,
    body: form.toString(),
  }
}

// A form's fields, or null for a body that is not one (a field without `=`).
function strictForm(body) {
  const pairs = []
  for (const piece of body.split('&')) {
    if (!piece.includes('=')) return null
    const [[name, value]] = new URLSearchParams(piece)
    pairs.push([name, value])
  }
  return pairs
}

// Why paytoken would never send the request of a `check` message, or null.
function refusal(message) {
  if (message.query) return 'a query string: the fields go in the body'
  const mediaType = message.contentType.split(';')[0].trim().toLowerCase()
  if (mediaType !== 'application/x-www-form-urlencoded') return `a body of ${mediaType}, not a form`
  const pairs = strictForm(message.body)
  if (pairs === null) return 'a body that is not a form'
  const names = pairs.map(([name]) => name)
  const repeated = names.find((name, index) => names.indexOf(name) !== index)
  if (repeated !== undefined) return `${repeated} sent twice`
  const fields = Object.fromEntries(pairs)
  let checksum
  try {
    checksum = paytoken.sign(message.rule, credentials(message.caller), fields)
  } catch (error) {
    if (error.code === 'PAYTOKEN_INVALID_INPUT') return error.message
    throw error
  }
  if (fields['authentication.checksum'] !== checksum) return "a checksum that is not the rule's"
  return null
}

// A read answer in the kit's words (answer-vectors.json).
function decided(answer) {
  switch (answer.kind) {
    case 'transaction':
      return {
        paymentId: answer.paymentId,
        paymentStatus: answer.status,
        resultCode: answer.resultCode,
        transactionStatus: answer.transactionStatus ?? null,
      }
    case 'authTokenGrant':
      return { authToken: answer.token, resultCode: answer.resultCode }
    case 'registered':
      return { registrationId: answer.registrationId, resultCode: answer.resultCode }
    case 'signedUp':
      return { customerId: answer.customerId, resultCode: answer.resultCode }
    case 'deleted':
      return { resultCode: answer.resultCode }
    case 'storedRegistrations':
      return { resultCode: answer.resultCode, cards: answer.cards.length, bankAccounts: answer.bankAccounts.length }
    case 'invoicePage':
      return { resultCode: answer.resultCode ?? null, invoices: answer.invoices.length }
    case 'installments':
      return { installmentCounts: answer.counts }
    default:
      throw new Error(`an answer of kind ${answer.kind}`)
  }
}

function decide(message) {
  const { asked } = message
  let answer
  try {
    answer = paytoken.readAnswer(asked.operation, asked.sent, message.status, message.body)
  } catch (error) {
    if (error.code === 'PAYTOKEN_REFUSED') {
      return { outcome: 'refused', resultCode: error.resultCode, mayHaveBeenProcessed: false }
    }
    if (error.mayHaveBeenProcessed) {
      let kind = error.code === 'PAYTOKEN_CONTRADICTION' ? 'contradiction' : null
      kind ??= message.status !== 200 ? 'unexpected_status' : 'undecodable'
      return { outcome: 'error', error: kind, mayHaveBeenProcessed: true }
    }
    throw error
  }
  return { outcome: 'ok', ...decided(answer) }
}

function verify(message) {
  const contentType = message.format === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'
  const key = new paytoken.SecureKey(message.secureKey)
  let notified
  try {
    notified = paytoken.verifyNotification(message.body, key, contentType)
  } catch (error) {
    if (error.code === 'PAYTOKEN_NOTIFICATION_REJECTED') return { verifies: false, reason: error.reason }
    throw error
  }
  return {
    verifies: true,
    paymentId: notified.paymentId,
    paymentStatus: notified.status,
    transactionStatus: notified.transactionStatus,
  }
}

function answer(message) {
  switch (message.type) {
    case 'sign':
      return { checksum: paytoken.sign(message.rule, credentials(message.caller), message.values) }
    case 'build':
      return build(message)
    case 'decide':
      return { verdict: decide(message) }
    case 'verify':
      return { verdict: verify(message) }
    case 'check': {
      const reason = refusal(message)
      return reason ? { refused: true, reason } : { refused: false }
    }
    default:
      return { unsupported: true }
  }
}

async function main() {
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const message = JSON.parse(line)
    const reply =
      message.type === 'hello'
        ? { type: 'hello', protocol: 1, name: 'paytoken for Node' }
        : { ...answer(message), id: message.id }
    process.stdout.write(`${JSON.stringify(reply)}\n`)
  }
}

module.exports = { answer, decided }

if (require.main === module) main()
