'use strict'
// The addon as a shop uses it: against a running sandbox, with `fetch` doing the I/O; every
// vector of the conformance kit through the example adapter; the benchmark's two sides
// doing the same work; and no secret in any inspected value, string or error.
//
// `cargo test -p paytoken-node` runs it with the addon cargo built, against a sandbox it
// started (PAYTOKEN_BASE_URL, PAYTOKEN_MEMBER_ID, PAYTOKEN_SECURE_KEY, PAYTOKEN_PARTNER_ID,
// PAYTOKEN_USERNAME). `cargo xtask node` runs it on the package `napi build` made; without
// PAYTOKEN_BASE_URL it starts `paytoken sandbox` itself (the command PAYTOKEN_COMMAND
// names) and reads the sandbox's first line. `require('paytoken')` finds the package by
// NODE_PATH.

const assert = require('node:assert/strict')
const { spawn } = require('node:child_process')
const { randomUUID } = require('node:crypto')
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const readline = require('node:readline')
const { after, before, describe, it } = require('node:test')
const { inspect } = require('node:util')

const paytoken = require('paytoken')

const ROOT = path.resolve(__dirname, '../../../..')
const adapter = require(path.join(ROOT, 'crates/paytoken-node/examples/conform_adapter.js'))
const { Rounds } = require(path.join(ROOT, 'crates/paytoken-node/benches/payment_round_trip.js'))

const APPROVED_CARD = '4000000000000051'
const DECLINED_CARD = '4000000000000069'
const THREE_D_SECURE_CARD = '4000000000000002'
const INSTALLMENTS_CARD = '4444333322221111'

// The sandbox the suite runs against: from the environment, or started here.
const sandbox = {}
let sandboxProcess

before(async () => {
  if (process.env.PAYTOKEN_BASE_URL) {
    for (const name of ['BASE_URL', 'MEMBER_ID', 'SECURE_KEY', 'PARTNER_ID', 'USERNAME']) {
      sandbox[name] = process.env[`PAYTOKEN_${name}`]
    }
    return
  }
  const command = process.env.PAYTOKEN_COMMAND ?? 'paytoken'
  sandboxProcess = spawn(command, ['sandbox', '--addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const lines = readline.createInterface({ input: sandboxProcess.stdout })
  const [first] = await lines[Symbol.asyncIterator]().next().then(({ value }) => [JSON.parse(value)])
  Object.assign(sandbox, {
    BASE_URL: first.baseUrl,
    MEMBER_ID: first.memberId,
    SECURE_KEY: first.secureKey,
    PARTNER_ID: first.partnerId,
    USERNAME: first.username,
  })
})

after(() => sandboxProcess?.kill())

// Sends a paytoken request with `fetch`; the operation reads the answer.
async function call(operation, context) {
  const request = operation.request(context)
  const response = await fetch(request.url(sandbox.BASE_URL), {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(10_000),
  })
  return operation.parse(response.status, new Uint8Array(await response.arrayBuffer()))
}

function orderId() {
  return `js-${randomUUID().replaceAll('-', '').slice(0, 20)}`
}

function card(number = APPROVED_CARD) {
  return new paytoken.Card(number, '12', '2030', '745')
}

// What `run` throws (or rejects with), or a failure when it throws nothing.
async function thrown(run) {
  try {
    await run()
  } catch (error) {
    return error
  }
  assert.fail('expected an error')
}

describe('a shop', () => {
  let key
  let credentials
  let context
  const fetchToken = () => paytoken.fetchAuthToken(sandbox.PARTNER_ID, sandbox.USERNAME)

  before(async () => {
    key = new paytoken.SecureKey(sandbox.SECURE_KEY)
    credentials = paytoken.Credentials.merchant(sandbox.MEMBER_ID, key)
    const grant = await call(fetchToken(), new paytoken.Context(credentials))
    context = new paytoken.Context(credentials, { authToken: grant.token })
  })

  it('pays storing the card, charges the token, refunds and decides the inquiry', async () => {
    const order = orderId()
    const paid = await call(paytoken.payment(order, '50.00', 'EUR', card(), { storeCard: true }), context)
    assert.equal(paid.kind, 'transaction')
    assert.ok(paid.isApproved)
    assert.equal(paid.merchantTransactionId, order)
    assert.ok(paid.registrationId)

    const chargeOrder = orderId()
    const charge = paytoken.tokenPayment(paid.registrationId, '9.99', 'EUR', {
      merchantTransactionId: chargeOrder,
      recurring: 'INITIAL',
    })
    const charged = await call(charge, context)
    assert.ok(charged.isApproved)
    assert.equal(charged.merchantTransactionId, chargeOrder)

    let found = await call(paytoken.inquiry({ merchantTransactionId: order }), context)
    assert.ok(found.isApproved, 'ship: the payment stands approved')
    const page = await call(paytoken.invoiceList(1, 100), context)
    assert.ok(page.invoices.some((invoice) => invoice.orderId === order))

    const refunded = await call(paytoken.refund(paid.paymentId, '50.00', 'EUR'), context)
    assert.equal(refunded.resultCode[0], '0')
    found = await call(paytoken.inquiry({ paymentId: paid.paymentId }), context)
    assert.ok(!found.isApproved, 'do not ship: the payment was refunded')
    assert.equal(found.status, 'refunded')
  })

  it('signs up, stores a card, reads its plans, repeats a series and deletes the token', async () => {
    const signedUp = await call(paytoken.customerSignup('Ada', 'Lovelace', 'ada@example.com'), context)
    assert.ok(signedUp.customerId)
    const owner = { customerId: signedUp.customerId }
    const stored = await call(paytoken.registerCard(card(INSTALLMENTS_CARD), owner), context)
    const plans = await call(paytoken.installments(stored.registrationId), context)
    assert.ok(plans.counts.length > 0 && plans.counts.every(Number.isInteger), inspect(plans))
    const listed = await call(paytoken.cardsAndAccounts(owner), context)
    assert.deepEqual(
      listed.cards.map((stored) => stored.registrationId),
      [stored.registrationId],
    )
    assert.equal(listed.cards[0].lastFour, INSTALLMENTS_CARD.slice(-4))

    const first = await call(
      paytoken.payment(orderId(), '20.00', 'EUR', card(), { storeCard: true, recurring: 'INITIAL' }),
      context,
    )
    const repeat = paytoken.repeatPayment(first.paymentId, '20.00', 'EUR', { merchantTransactionId: orderId() })
    assert.ok((await call(repeat, context)).isApproved)

    const deleted = await call(paytoken.deleteToken(stored.registrationId), context)
    assert.equal(deleted.resultCode, '00003')
    const charge = paytoken.tokenPayment(stored.registrationId, '1.00', 'EUR', { merchantTransactionId: orderId() })
    const refused = await thrown(() => call(charge, context))
    assert.equal(refused.code, 'PAYTOKEN_REFUSED')
    assert.equal(refused.mayHaveBeenProcessed, false)
  })

  it('stores a bank account and regenerates an auth token', async () => {
    const account = paytoken.registerBankAccount('DE89370400440532013000', 'COBADEFFXXX', { holder: 'Ada Lovelace' })
    assert.ok((await call(account, context)).registrationId)
    const old = (await call(fetchToken(), new paytoken.Context(credentials))).token
    const fresh = await call(paytoken.regenerateAuthToken(sandbox.PARTNER_ID, old), new paytoken.Context(credentials))
    assert.notEqual(fresh.token, old)
    assert.ok(!inspect(fresh).includes(fresh.token))
    const stale = new paytoken.Context(credentials, { authToken: old })
    const refused = await thrown(() => call(paytoken.inquiry({ merchantTransactionId: 'never-made' }), stale))
    assert.equal(refused.code, 'PAYTOKEN_REFUSED')
    assert.equal(refused.tokenRefused, true, 'a token that was regenerated: fetch a new one')
  })

  it('reads a declined card as a transaction and an unknown token as a refusal', async () => {
    const declined = await call(paytoken.payment(orderId(), '5.00', 'EUR', card(DECLINED_CARD)), context)
    assert.ok(!declined.isApproved)
    assert.equal(declined.status, 'declined')
    const refused = await thrown(() => call(paytoken.tokenPayment('0'.repeat(32), '1.00', 'EUR'), context))
    assert.equal(refused.code, 'PAYTOKEN_REFUSED')
    assert.equal(refused.tokenRefused, false, 'an unknown card token, not the auth token')
  })

  it('approves a 3-D Secure payment by its verified notification', async () => {
    let notified
    const arrived = new Promise((resolve) => {
      notified = resolve
    })
    const listener = http.createServer((request, response) => {
      const chunks = []
      request.on('data', (chunk) => chunks.push(chunk))
      request.on('end', () => {
        notified({ contentType: request.headers['content-type'], body: Buffer.concat(chunks) })
        response.end()
      })
    })
    await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve))
    try {
      const notificationUrl = `http://127.0.0.1:${listener.address().port}/`
      const payment = paytoken.payment(orderId(), '50.00', 'EUR', card(THREE_D_SECURE_CARD), { notificationUrl })
      const waiting = await call(payment, context)
      assert.equal(waiting.status, 'three_d_secure')
      const { redirect } = waiting
      assert.equal(redirect.method, 'POST')
      assert.ok(redirect.parameters.some(([name, value]) => name === 'MD' && value === waiting.paymentId))
      // The cardholder's browser posts the parameters; the sandbox's page adds the choice.
      const form = new URLSearchParams([...redirect.parameters, ['decision', 'approve']])
      const page = await fetch(redirect.url, { method: redirect.method, body: form })
      await page.arrayBuffer()
      const { contentType, body } = await arrived
      const verified = paytoken.verifyNotification(body, key, contentType)
      assert.equal(verified.paymentId, waiting.paymentId)
      assert.ok(verified.isApproved)
      const rejected = await thrown(() => paytoken.verifyNotification(body, new paytoken.SecureKey('another-key'), contentType))
      assert.equal(rejected.code, 'PAYTOKEN_NOTIFICATION_REJECTED')
      assert.ok(rejected.reason)
    } finally {
      listener.close()
    }
  })
})

// A request to the sandbox's console, as a local tool sends it: its JSON answer.
async function console_(method, path, body) {
  const response = await fetch(`${sandbox.BASE_URL}/sandbox/console/${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  })
  assert.equal(response.status, 200, path)
  return response.json()
}

// Every payment in the sandbox's books, page by page.
async function everyPayment() {
  const payments = []
  for (let after = 0; ; ) {
    const page = await console_('GET', `books?after=${after}&limit=100`)
    payments.push(...page.payments)
    if (!page.more) return payments
    after = page.last
  }
}

// The recipes the README and the typed example show, each against a sandbox that takes
// the payment and drops its answer: the settled outcome is the books'. Under `cargo xtask
// node`, what `tsc` made of `examples/shop.ts` runs too (PAYTOKEN_SHOP_JS).
describe('the recipes', () => {
  const gateway = () => ({
    baseUrl: sandbox.BASE_URL,
    memberId: sandbox.MEMBER_ID,
    partnerId: sandbox.PARTNER_ID,
    username: sandbox.USERNAME,
    secureKey: sandbox.SECURE_KEY,
  })

  it('the README shows the recipe the suite runs', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'crates/paytoken-node/README.md'), 'utf8')
    const recipe = fs.readFileSync(path.join(ROOT, 'crates/paytoken-node/examples/checkout.js'), 'utf8')
    const blocks = readme.split('```js\n').slice(1).map((block) => block.split('```')[0])
    const shown = blocks.filter((block) => block.includes('function '))
    assert.ok(shown.length >= 2, blocks.join('\n---\n'))
    for (const block of shown) assert.ok(recipe.includes(block), block)
  })

  const recipes = [['examples/checkout.js', path.join(ROOT, 'crates/paytoken-node/examples/checkout.js')]]
  if (process.env.PAYTOKEN_SHOP_JS) recipes.push(['examples/shop.ts', process.env.PAYTOKEN_SHOP_JS])
  else if (process.env.PAYTOKEN_RECIPES_REQUIRED) assert.fail('PAYTOKEN_SHOP_JS: the typed example, as tsc made it')

  for (const [name, file] of recipes) {
    it(`${name} settles a lost answer by inquiry, as the books say`, async () => {
      const { checkout } = require(file)
      await console_('POST', 'faults', { directives: 'drop=after', target: 'pay' })
      // Letters only: no run of digits the books would show masked.
      const order = `recipe-${randomUUID().replace(/[0-9-]/g, (c) => 'ghijklmnopq'['0123456789-'.indexOf(c)])}`
      const paid = await checkout(gateway(), order, card())
      const made = (await everyPayment()).filter((payment) => payment.merchantTransactionId === order)
      const said = JSON.stringify({ paid, made })
      assert.equal(made.length, 1, `the payment was made once: ${said}`)
      assert.equal(paid?.paymentId, made[0].paymentId, said)
      assert.equal(paid.isApproved ?? paid.approved, true, said)
      assert.deepEqual((await console_('GET', 'faults')).next, [], 'the fault was spent')
    })
  }
})

describe('the checksum rules', () => {
  it('sign the parts as the request does', () => {
    const credentials = paytoken.Credentials.merchant('11344', new paytoken.SecureKey('key'))
    const request = paytoken.payment('order-7', '50.00', 'EUR', card()).request(new paytoken.Context(credentials))
    const sent = new URLSearchParams(request.body)
    const values = { merchantTransactionId: 'order-7', amount: '50.00' }
    assert.equal(paytoken.sign('payment', credentials, values), sent.get('authentication.checksum'))
    // The documentation's notification: MD5 of `21565|testTransaction|50.00|Y|key`.
    const notified = { paymentId: '21565', merchantTransactionId: 'testTransaction', amount: '50.00' }
    notified.transactionStatus = 'Y'
    assert.equal(paytoken.sign('notification', credentials, notified), 'a85a0d08535985bb1e0a37ff61394f46')
    for (const bad of [() => paytoken.sign('payment', credentials, { amount: '50.00' }), () => paytoken.sign('no_such_rule', credentials, {})]) {
      assert.throws(bad, { code: 'PAYTOKEN_INVALID_INPUT' })
    }
  })
})

describe('the conformance kit', () => {
  const kit = path.join(ROOT, 'fixtures/conformance')
  const vectors = (group) => JSON.parse(fs.readFileSync(path.join(kit, `${group}-vectors.json`), 'utf8')).vectors

  it('signs every checksum vector as the kit says', () => {
    for (const vector of vectors('checksum')) {
      const caller = { kind: vector.credentials, id: vector.callerId, secureKey: vector.secureKey }
      const message = { type: 'sign', rule: vector.rule, caller, values: vector.values }
      assert.deepEqual(adapter.answer(message), { checksum: vector.checksum }, vector.id)
    }
  })

  it('builds every request vector as the kit says', () => {
    for (const vector of vectors('request')) {
      const fields = vector.form.filter(([name]) => name !== 'authentication.checksum')
      const rule = vector.checksum && vector.checksum.rule
      const message = { type: 'build', operation: vector.operation, rule, caller: vector.caller, fields }
      Object.assign(message, { pathTemplate: vector.pathTemplate, pathValues: vector.pathValues })
      const built = adapter.answer(message)
      assert.deepEqual([built.method, built.path], [vector.method, vector.path], vector.id)
      const sorted = (pairs) => [...pairs].map(([name, value]) => `${name}=${value}`).sort()
      assert.deepEqual(sorted(new URLSearchParams(built.body)), sorted(vector.form), vector.id)
      for (const header of vector.headers) {
        assert.ok(built.headers.some(([name, value]) => name === header[0] && value === header[1]), vector.id)
      }
    }
  })

  it('decides every answer vector as the kit says', () => {
    for (const vector of vectors('answer')) {
      const message = { type: 'decide', asked: vector.asked, status: vector.status, body: vector.body }
      assert.deepEqual(adapter.answer(message), { verdict: vector.verdict }, vector.id)
    }
  })

  it('verifies every notification vector as the kit says', () => {
    for (const vector of vectors('notification')) {
      const message = { type: 'verify', format: vector.format, secureKey: vector.secureKey, body: vector.body }
      assert.deepEqual(adapter.answer(message), { verdict: vector.verdict }, vector.id)
    }
  })

  it('refuses every negative vector and no positive control', () => {
    for (const vector of vectors('negative')) {
      const message = { type: 'check', rule: vector.rule, caller: vector.caller, method: vector.method, path: vector.path }
      Object.assign(message, { query: vector.query, contentType: vector.contentType, body: vector.body })
      assert.strictEqual(adapter.answer(message).refused, vector.refusal !== null, vector.id)
    }
  })
})

describe('the benchmark', () => {
  it('does the same work through the binding and in plain JavaScript', () => {
    new Rounds().check()
  })
})

describe('secrets', () => {
  it('appear in no inspected value, string, JSON or error', () => {
    const [secretKey, token, number, cvv] = ['s3cr3t-key-value', 'eyJ0.c2VjcmV0.c2ln', APPROVED_CARD, '987']
    const key = new paytoken.SecureKey(secretKey)
    const credentials = paytoken.Credentials.merchant('11344', key)
    const context = new paytoken.Context(credentials, { authToken: token })
    const holding = new paytoken.Card(number, '12', '2030', cvv)
    const request = paytoken.payment('order-1', '50.00', 'EUR', holding).request(context)
    const grant = paytoken.fetchAuthToken('11340', 'merchant').parse(200, JSON.stringify({ authToken: token, result: { code: '200', description: 'ok' } }))
    assert.equal(grant.token, token)
    assert.equal(inspect(holding), 'Card(400000******0051, 12/2030, cvv=***)')
    const shown = [key, credentials, context, holding, request, grant]
    const texts = shown.flatMap((value) => [inspect(value), String(value), `${value}`, JSON.stringify({ value })])
    const bad = [
      () => new paytoken.Card('4000000000000052', '12', '2030', cvv),
      () => new paytoken.Card(number, '12', '2030', '98x7'),
      () => new paytoken.SecureKey('a|b'),
      () => new paytoken.Context(credentials, { authToken: 'a b' }),
    ]
    for (const make of bad) {
      let error
      assert.throws(make, (caught) => {
        error = caught
        return true
      })
      assert.equal(error.code, 'PAYTOKEN_INVALID_INPUT')
      assert.ok(error.field, 'an input error names its field')
      assert.equal(error.mayHaveBeenProcessed, false)
      texts.push(inspect(error), String(error), error.stack)
    }
    for (const text of texts) {
      for (const secret of [secretKey, token, number, cvv, '4000000000000052', '98x7']) {
        assert.ok(!text.includes(secret), `${secret} in ${text}`)
      }
    }
  })
})
