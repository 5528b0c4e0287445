'use strict'
// Every door of the package, tried as a hostile caller would: each parameter of each export
// given a value of the wrong type holding a planted secret (the exports read from the
// package's own `index.d.ts`, so an export added later is tried without editing this
// file), and the gateway's text echoing the caller's secrets in every error and answer.

const assert = require('node:assert/strict')
const fs = require('node:fs')
const { describe, it } = require('node:test')
const { inspect } = require('node:util')

const paytoken = require('paytoken')

// Secrets no caller should ever see again in a message. The key is long and holds digits,
// as a deployment's keys do, so that a body carrying it is masked with no context known.
const PAN = '4000000000000051'
const KEY = 'plantedKey7f3a9c2e1b4d6a8c0e2f'
const TOKEN = 'eyJwbGFudGVk.dG9rZW4.c2lnbmF0dXJlMTIzNDU2'
const PLANTED = [PAN, KEY, TOKEN]

// What each wrong value is, and which declared types take it as it is.
const WRONG = [
  { name: 'a number', value: Number(PAN), takenBy: (type) => type.includes('number') },
  { name: 'an object', value: { number: PAN, key: KEY, token: TOKEN }, takenBy: (type) => type.startsWith('Record<') },
  { name: 'a Buffer', value: Buffer.from(KEY), takenBy: (type) => type.includes('Uint8Array') },
  { name: 'an array', value: [PAN, KEY, TOKEN], takenBy: () => false },
  { name: 'undefined', value: undefined, takenBy: (type, optional) => optional || type.includes('undefined') },
]

// A value each parameter takes, by its name (strings) or its type; any other string is 'x'.
const STRINGS = {
  number: PAN, expiryMonth: '12', expiryYear: '2030', cvv: '745', holder: 'Jo Doe', key: KEY,
  memberId: '11344', partnerId: '11340', username: 'merchant', token: TOKEN,
  merchantTransactionId: 'order-7', amount: '10.00', currency: 'EUR', paymentId: '54279',
  firstPaymentId: '54279', registrationId: '8a82944a4cc25ebf014cc2c782423202',
  iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', givenName: 'Jo', surname: 'Doe',
  email: 'jo@example.com', rule: 'payment', operation: 'pay', pathId: '54279',
  contentType: 'application/json', baseUrl: 'https://gateway.example',
}
const NUMBERS = { status: 200, page: 1, records: 10 }
const key = () => new paytoken.SecureKey(KEY)
const credentials = () => paytoken.Credentials.merchant('11344', key())
const context = () => new paytoken.Context(credentials(), { authToken: TOKEN })
const INSTANCES = {
  SecureKey: key,
  Credentials: credentials,
  Context: context,
  Card: () => new paytoken.Card(PAN, '12', '2030', '745'),
  Operation: () => {
    const operation = paytoken.inquiry({ paymentId: '54279' })
    operation.request(context())
    return operation
  },
  Request: () => paytoken.inquiry({ paymentId: '54279' }).request(context()),
}
const OBJECTS = { InquiryTarget: { paymentId: '54279' } }
// The parameters whose errors name the field as the protocol does, not by the parameter's
// name (`number` is `card.number`).
const FIELDS = { 'SecureKey.key': 'secureKey', '.token': 'AuthToken' }
const fieldOf = (owner, name) => FIELDS[`${owner ?? ''}.${name}`] ?? (owner === 'Card' ? `card.${name}` : name)

function validValue({ name, type, optional }) {
  if (optional) return undefined
  if (type === 'string') return STRINGS[name] ?? 'x'
  if (type === 'number') return NUMBERS[name] ?? 1
  if (type.includes('Uint8Array')) return '{}'
  if (type.startsWith('Record<')) return {}
  if (type.startsWith('Array<')) return []
  if (INSTANCES[type]) return INSTANCES[type]()
  return OBJECTS[type] ?? {}
}

// The callables `index.d.ts` declares: functions, constructors, static and instance
// methods, each with its parameters (`name`, `type`, `optional`).
function declared() {
  // Beside the package's `package.json`: its `exports` map names no other file.
  const installed = require.resolve('paytoken/package.json').replace(/package\.json$/, '')
  const text = fs.readFileSync(`${installed}index.d.ts`, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
  const callables = []
  let inClass
  for (const line of text.split('\n')) {
    const opened = line.match(/^export declare class (\w+)/)
    if (opened) inClass = opened[1]
    else if (line.startsWith('}')) inClass = undefined
    const fn = line.match(/^export declare function (\w+)\((.*)\):/)
    if (fn) callables.push({ kind: 'function', name: fn[1], params: params(fn[2]) })
    const member = inClass && line.match(/^  (constructor|static \w+|\w+)\((.*)\)/)
    if (member && member[2]) {
      const [head, name] = member[1].split(' ')
      const kind = head === 'constructor' ? 'constructor' : head === 'static' ? 'static' : 'method'
      callables.push({ kind, owner: inClass, name: name ?? head, params: params(member[2]) })
    }
  }
  return callables
}

// `a: string, b?: Array<[string, string]> | null` as its parameters.
function params(list) {
  const parts = []
  let depth = 0
  let start = 0
  for (let index = 0; index < list.length; index += 1) {
    const c = list[index]
    if ('<[({'.includes(c)) depth += 1
    if ('>])}'.includes(c)) depth -= 1
    if (c === ',' && depth === 0) {
      parts.push(list.slice(start, index))
      start = index + 1
    }
  }
  parts.push(list.slice(start))
  return parts.filter((part) => part.trim()).map((part) => {
    const [, name, optional, type] = part.trim().match(/^(\w+)(\??):\s*(.*)$/)
    return { name, optional: optional === '?', type: type.trim() }
  })
}

function call(callable, args) {
  const { kind, owner, name } = callable
  if (kind === 'function') return paytoken[name](...args)
  if (kind === 'constructor') return new paytoken[owner](...args)
  if (kind === 'static') return paytoken[owner][name](...args)
  const make = INSTANCES[owner]
  assert.ok(make, `a ${owner} to call ${name} on: add one to INSTANCES`)
  return make()[name](...args)
}

// Every text a logger or a handler could make of `value`.
function everyText(value) {
  const texts = [inspect(value), inspect(value, { showHidden: true, depth: Infinity })]
  try {
    texts.push(JSON.stringify(value) ?? '')
  } catch {
    // A value JSON cannot hold (a BigInt, a cycle) is shown by inspect alone.
  }
  if (value instanceof Error) {
    texts.push(String(value), value.message, value.stack ?? '')
    for (const name of Object.getOwnPropertyNames(value)) {
      const property = value[name]
      if (typeof property !== 'function') texts.push(String(property))
    }
    if (value.cause !== undefined) texts.push(...everyText(value.cause))
  }
  return texts
}

function assertNothingPlanted(value, what) {
  for (const text of everyText(value)) {
    for (const secret of PLANTED) assert.ok(!text.includes(secret), `${what}: ${secret} in ${text}`)
  }
}

describe('every parameter of every export', () => {
  const callables = declared()

  it('is read from the package\'s own definitions', () => {
    const names = callables.map(({ owner, name }) => (owner ? `${owner}.${name}` : name))
    for (const expected of ['payment', 'Card.constructor', 'Credentials.merchant', 'Operation.parse', 'Request.url']) {
      assert.ok(names.includes(expected), `${expected} among ${names}`)
    }
  })

  it('refuses a value of the wrong type by name, never quoting it', () => {
    let tried = 0
    for (const callable of callables) {
      callable.params.forEach((param, index) => {
        if (param.type === 'unknown') return
        for (const wrong of WRONG) {
          const args = callable.params.map(validValue)
          args[index] = wrong.value
          const what = `${callable.owner ?? ''}.${callable.name}(${param.name}: ${wrong.name})`
          let result
          let error
          try {
            result = call(callable, args)
          } catch (caught) {
            error = caught
          }
          tried += 1
          if (error === undefined) {
            assert.ok(wrong.takenBy(param.type, param.optional), `${what} was taken`)
            assertNothingPlanted(result, what)
            continue
          }
          assert.ok(paytoken.isPaytokenError(error), `${what}: ${error.code} ${error.message}`)
          if (!wrong.takenBy(param.type, param.optional)) {
            assert.equal(error.code, 'PAYTOKEN_INVALID_INPUT', what)
            assert.equal(error.field, fieldOf(callable.owner, param.name), what)
          }
          assertNothingPlanted(error, what)
        }
      })
    }
    assert.ok(tried > 150, `only ${tried} calls tried`)
  })

  it('refuses a class called without new', () => {
    for (const [name, args] of [['Card', [PAN, '12', '2030', '745']], ['SecureKey', [KEY]], ['Context', [credentials()]]]) {
      assert.throws(() => paytoken[name](...args), { code: 'PAYTOKEN_INVALID_INPUT', field: name })
      const { [name]: bare } = paytoken
      assert.throws(() => bare(...args), { code: 'PAYTOKEN_INVALID_INPUT', field: name })
    }
  })

  it('refuses a number out of range and an option it does not know', () => {
    const inquiry = paytoken.inquiry({ paymentId: '54279' })
    assert.throws(() => inquiry.parse(4294967496, '{}'), { code: 'PAYTOKEN_INVALID_INPUT', field: 'status' })
    assert.throws(() => inquiry.parse(200.5, '{}'), { code: 'PAYTOKEN_INVALID_INPUT', field: 'status' })
    assert.throws(() => paytoken.invoiceList(-1, 10), { code: 'PAYTOKEN_INVALID_INPUT', field: 'page' })
    assert.throws(() => paytoken.invoiceList(0, 10), { code: 'PAYTOKEN_INVALID_INPUT', field: 'pagination.pageno' })
    const card = INSTANCES.Card()
    assert.throws(() => paytoken.payment('order-7', '10.00', 'EUR', card, { store_card: true }), (error) => {
      assert.equal(error.code, 'PAYTOKEN_INVALID_INPUT')
      assert.equal(error.field, 'options')
      assert.match(error.message, /store_card is not one of its keys \(paymentType, storeCard,/)
      return true
    })
    assert.throws(() => new paytoken.SecureKey(''), { code: 'PAYTOKEN_INVALID_INPUT', field: 'secureKey' })
  })
})

describe('the gateway\'s text', () => {
  // A key and a token no pattern masks: only the context's holding them does.
  const heldKey = 'audit-key-0123456789'
  const heldToken = 'audit-token-abcdef-12'
  const echo = `key ${heldKey} token ${heldToken} card 4000 0000 0000 0051 iban DE89 3704 0044 0532 0130 00`
  const secrets = [heldKey, heldToken, '4000 0000 0000 0051', 'DE89 3704 0044 0532 0130 00']
  const heldContext = () => new paytoken.Context(paytoken.Credentials.merchant('11344', new paytoken.SecureKey(heldKey)), { authToken: heldToken })
  const refusal = JSON.stringify({ paymentId: '-', result: { code: '30001', description: echo } })
  const answers = [
    [200, refusal],
    [502, `<html>${echo}</html>`],
    [200, `not json ${echo}`],
    [200, JSON.stringify({ paymentId: heldKey, result: { code: '000.000.000' }, transactionStatus: 'Y' })],
    [200, JSON.stringify({ paymentId: '54279', result: { code: '000.000.000', description: echo }, transactionStatus: 'Y' })],
  ]
  const readings = [
    ['after request(context)', (status, body) => {
      const operation = paytoken.inquiry({ paymentId: '54279' })
      operation.request(heldContext())
      return operation.parse(status, body)
    }],
    ['given its context', (status, body) => paytoken.inquiry({ paymentId: '54279' }).parse(status, body, heldContext())],
  ]

  it('masks the caller\'s secrets, cards and IBANs in every error and answer', () => {
    for (const [how, read] of readings) {
      for (const [status, body] of answers) {
        let value
        try {
          value = read(status, body)
        } catch (error) {
          assert.ok(paytoken.isPaytokenError(error), `${how}: ${error}`)
          value = error
        }
        for (const text of everyText(value)) {
          for (const secret of secrets) assert.ok(!text.includes(secret), `${how}: ${secret} in ${text}`)
        }
      }
    }
  })

  it('keeps the text as it came behind a raw method no log shows', () => {
    const [, read] = readings[0]
    assert.throws(() => read(200, refusal), (error) => {
      assert.equal(error.code, 'PAYTOKEN_REFUSED')
      assert.equal(error.rawDescription(), echo)
      assert.ok(!Object.keys(error).includes('rawDescription'))
      return true
    })
    const transaction = read(...answers[4])
    assert.equal(transaction.rawResultDescription(), echo)
    assert.ok(!Object.keys(transaction).includes('rawResultDescription'))
    assert.ok(!transaction.resultDescription.includes(heldKey))
    assert.ok(transaction.resultDescription.includes('[redacted]'))
  })
})
