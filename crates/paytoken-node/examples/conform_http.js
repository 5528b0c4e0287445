#!/usr/bin/env node
'use strict'
// paytoken for Node under `paytoken conform --http`: each step of the kit's scenarios built
// and read by the addon, sent with `fetch`.
//
//     paytoken conform --http --client "node crates/paytoken-node/examples/conform_http.js"
//
// What the addon leaves to the caller is all here: the I/O, a new auth token when the
// gateway refuses the one sent (`tokenRefused`), an answer lost (no answer in time, a
// connection dropped, a body cut short, a proxy's error page) settled by an inquiry for
// the order, never by sending it again, and a listener where notifications arrive.

const http = require('node:http')
const readline = require('node:readline')
const { setTimeout: sleep } = require('node:timers/promises')

const paytoken = require('paytoken')

const { decided } = require('./conform_adapter.js')

// Operations whose lost answer an inquiry for the order settles; for a capture, refund or
// cancel the status alone cannot tell, so the payment's id is reported to inquire about.
const BY_ORDER = new Set(['pay', 'pay_with_token', 'repeat_payment'])

// No whole answer arrived: the request may have been processed.
class Lost extends Error {}

// The handshake's merchant: its context with a current auth token, and the listener its
// notifications arrive at.
class Shop {
  constructor(hello, listener) {
    const { merchant } = hello
    this.baseUrl = hello.baseUrl
    this.timeoutMs = hello.requestTimeoutMs
    this.key = new paytoken.SecureKey(merchant.secureKey)
    this.credentials = paytoken.Credentials.merchant(merchant.id, this.key)
    this.ids = { accountId: merchant.accountId ?? undefined, terminalId: merchant.terminalId ?? undefined }
    this.fetchToken = paytoken.fetchAuthToken(merchant.partnerId, merchant.username)
    this.listener = listener
  }

  async signIn() {
    const grant = await this.send(this.fetchToken, new paytoken.Context(this.credentials))
    this.context = new paytoken.Context(this.credentials, { authToken: grant.token, ...this.ids })
  }

  // The operation's answer, read; `Lost` when none arrived whole.
  async send(operation, context) {
    const request = operation.request(context)
    let status
    let body
    try {
      const response = await fetch(request.url(this.baseUrl), {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(this.timeoutMs),
      })
      status = response.status
      body = new Uint8Array(await response.arrayBuffer())
    } catch (error) {
      throw new Lost(error.message)
    }
    return operation.parse(status, body)
  }

  // The answer, with one new auth token when the gateway refused the one sent.
  async call(operation) {
    try {
      return await this.send(operation, this.context)
    } catch (error) {
      if (!error.tokenRefused) throw error
    }
    await this.signIn()
    return this.send(operation, this.context)
  }

  async perform(step) {
    const { operation: name, fields, pathValues } = step
    const given = Object.fromEntries(fields)
    if (name === 'notification') return this.listener.verdict(given.paymentId, this.key)
    if (name === 'invoices') return this.everyInvoice(Number(given['pagination.records']))
    try {
      const [pathId] = Object.values(pathValues)
      return verdict(await this.call(paytoken.asked(name, fields, pathId)))
    } catch (error) {
      if (error instanceof Lost || error.mayHaveBeenProcessed) return this.settled(name, given, pathValues)
      if (paytoken.isPaytokenError(error)) return failure(error)
      throw error
    }
  }

  // A lost answer: the order's inquiry when it tells, else the id to inquire about.
  async settled(name, given, pathValues) {
    const order = given.merchantTransactionId
    if (BY_ORDER.has(name) && order) {
      try {
        return verdict(await this.call(paytoken.inquiry({ merchantTransactionId: order })))
      } catch (error) {
        if (!(error instanceof Lost || paytoken.isPaytokenError(error))) throw error
      }
    }
    const inquire = order ? { merchantTransactionId: order } : pathValues
    return { outcome: 'error', error: 'lost', mayHaveBeenProcessed: true, inquire }
  }

  // Every page of invoices, from the first until a short one, counted.
  async everyInvoice(records) {
    let total = 0
    for (let page = 1; ; page += 1) {
      let listed
      try {
        listed = await this.call(paytoken.invoiceList(page, records))
      } catch (error) {
        if (error instanceof Lost || paytoken.isPaytokenError(error)) return failure(error)
        throw error
      }
      total += listed.invoices.length
      if (listed.invoices.length < records) return { outcome: 'ok', invoices: total }
    }
  }
}

// A read answer in the kit's words (the vectors' adapter's), with the token a payment
// stored.
function verdict(answer) {
  const read = { ...decided(answer), outcome: 'ok' }
  if (answer.kind === 'transaction' && answer.registrationId !== undefined) {
    read.registrationId = answer.registrationId
  }
  return read
}

// An error in the kit's words.
function failure(error) {
  if (error.code === 'PAYTOKEN_REFUSED') {
    return { outcome: 'refused', resultCode: error.resultCode, mayHaveBeenProcessed: false }
  }
  return { outcome: 'error', error: error.message || 'lost', mayHaveBeenProcessed: error instanceof Lost }
}

// Where the sandbox's notifications arrive: a loopback port, each kept with its media
// type (bodies of at most 64 KiB).
class Listener {
  static async start() {
    const received = []
    const server = http.createServer((request, response) => {
      const chunks = []
      let length = 0
      request.on('data', (chunk) => {
        length += chunk.length
        if (length <= 64 * 1024) chunks.push(chunk)
      })
      request.on('end', () => {
        received.push({ contentType: request.headers['content-type'], body: Buffer.concat(chunks) })
        response.end()
      })
    })
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    server.unref()
    return new Listener(server, received)
  }

  constructor(server, received) {
    this.received = received
    this.url = `http://127.0.0.1:${server.address().port}/notifications`
  }

  // The notification of `paymentId`, waited for a few seconds, verified (one that does not
  // verify cannot be told whose it is: its reason is the verdict if no other arrives).
  async verdict(paymentId, key) {
    const deadline = Date.now() + 5000
    let reason = 'not_received'
    while (Date.now() < deadline) {
      for (const { contentType, body } of this.received) {
        let notified
        try {
          notified = paytoken.verifyNotification(body, key, contentType)
        } catch (error) {
          if (error.code !== 'PAYTOKEN_NOTIFICATION_REJECTED') throw error
          reason = error.reason
          continue
        }
        if (notified.paymentId === paymentId) {
          const { status: paymentStatus, transactionStatus } = notified
          return { verifies: true, paymentId, paymentStatus, transactionStatus }
        }
      }
      await sleep(20)
    }
    return { verifies: false, reason }
  }
}

async function main() {
  let shop
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const message = JSON.parse(line)
    let reply
    if (message.type === 'hello') {
      shop = new Shop(message, await Listener.start())
      await shop.signIn()
      reply = { type: 'hello', protocol: 1, name: 'paytoken for Node', listener: shop.listener.url }
    } else if (message.type === 'step') {
      reply = { id: message.id, outcome: await shop.perform(message.step) }
    } else {
      reply = { id: message.id, unsupported: true }
    }
    process.stdout.write(`${JSON.stringify(reply)}\n`)
  }
}

main()
