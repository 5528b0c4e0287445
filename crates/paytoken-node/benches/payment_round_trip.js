#!/usr/bin/env node
'use strict'
// Building, signing and reading a payment through paytoken for Node, beside the same work
// in plain JavaScript (`node:crypto` for the MD5, `URLSearchParams` for the form,
// `JSON.parse` for the answer): the full payment of the kit's request vectors (38 fields)
// put on the wire, the same fields and checksum, and the approved answer of the fixtures
// read into the same verdict.
//
//     NODE_PATH=target/node/release node crates/paytoken-node/benches/payment_round_trip.js
//
// The two are timed in alternating rounds, each a batch of about 20 ms, and the median of
// the rounds' ratios printed as the `RATIO` line `cargo xtask bench` records (which builds
// the release package first).

const assert = require('node:assert/strict')
const { createHash } = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const paytoken = require('paytoken')

const ROOT = path.resolve(__dirname, '../../..')
const OURS = 'node/payment_round_trip/paytoken'
const BASELINE = 'node/payment_round_trip/plain_js'
const ROUNDS = 41
const BATCH_MS = 20

// What plain JavaScript reads a transaction's short status as.
const STATUS = { Y: 'approved', N: 'declined', P: 'pending', '3D': 'three_d_secure', C: 'cancelled' }

// The work of one round, each way, from the same vector and answer.
class Rounds {
  constructor() {
    const vectors = JSON.parse(fs.readFileSync(path.join(ROOT, 'fixtures/conformance/request-vectors.json'), 'utf8'))
    this.vector = vectors.vectors.find((vector) => vector.id === 'request/payment')
    this.answer = new Uint8Array(fs.readFileSync(path.join(ROOT, 'fixtures/responses/payment/approved.json')))
    const { caller, form } = this.vector
    // The binding: the payment as a value (read back from the vector's form), its caller's
    // context; each round builds, signs and reads.
    const key = new paytoken.SecureKey(caller.secureKey)
    this.context = new paytoken.Context(paytoken.Credentials.merchant(caller.id, key), {
      authToken: caller.authToken,
      accountId: caller.accountId,
      terminalId: caller.terminalId,
    })
    this.payment = paytoken.asked('pay', form.filter(([name]) => !name.startsWith('authentication.')))
    // Plain JavaScript: the same fields, in the same order, signed by hand.
    this.caller = caller
    this.fields = form.filter(([name]) => !name.startsWith('authentication.'))
  }

  // The body the binding sends and the transaction it reads.
  paytoken() {
    const request = this.payment.request(this.context)
    return [request.body, this.payment.parse(200, this.answer)]
  }

  // The body plain JavaScript sends and the verdict it reads.
  plain() {
    const { caller, fields } = this
    const field = (name) => fields.find(([given]) => given === name)[1]
    const joined = [caller.id, caller.secureKey, field('merchantTransactionId'), field('amount')].join('|')
    const checksum = createHash('md5').update(joined, 'utf8').digest('hex')
    const body = new URLSearchParams([
      ['authentication.memberId', caller.id],
      ['authentication.accountId', caller.accountId],
      ['authentication.checksum', checksum],
      ['authentication.terminalId', caller.terminalId],
      ...fields,
    ]).toString()
    const answer = JSON.parse(new TextDecoder().decode(this.answer))
    const succeeded = /^0000\d$/.test(answer.result?.code ?? '')
    const status = succeeded ? (STATUS[answer.transactionStatus] ?? 'unknown') : 'declined'
    return [body, { paymentId: answer.paymentId, status }]
  }

  // Both do the same work: the vector's body, an approved payment.
  check() {
    const [body, transaction] = this.paytoken()
    const [plainBody, verdict] = this.plain()
    assert.equal(body, this.vector.body, "the binding's body is not the vector's")
    assert.equal(plainBody, this.vector.body, "plain JavaScript's body is not the vector's")
    assert.equal(transaction.status, 'approved')
    assert.deepEqual(verdict, { paymentId: transaction.paymentId, status: transaction.status })
  }
}

// The median of each round's baseline ÷ ours, the median time of each (ns), and the
// lowest and highest ratio.
function interleaved(ours, baseline) {
  const batchSize = (run) => {
    const started = performance.now()
    let count = 0
    while (performance.now() - started < BATCH_MS / 4) {
      run()
      count += 1
    }
    return Math.max(count * 4, 1)
  }
  const timed = (run, size) => {
    const started = process.hrtime.bigint()
    for (let i = 0; i < size; i += 1) run()
    return Number(process.hrtime.bigint() - started) / size
  }
  const sizes = [batchSize(ours), batchSize(baseline)]
  const ratios = []
  const oursTimes = []
  const baselineTimes = []
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which goes first, so neither always meets the other's leftovers.
    let a
    let b
    if (round % 2 === 0) {
      a = timed(ours, sizes[0])
      b = timed(baseline, sizes[1])
    } else {
      b = timed(baseline, sizes[1])
      a = timed(ours, sizes[0])
    }
    ratios.push(b / a)
    oursTimes.push(a)
    baselineTimes.push(b)
  }
  const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]
  return { ratio: median(ratios), ours: median(oursTimes), baseline: median(baselineTimes), ratios }
}

function main() {
  const rounds = new Rounds()
  rounds.check()
  const { ratio, ours, baseline, ratios } = interleaved(
    () => rounds.paytoken(),
    () => rounds.plain(),
  )
  console.log(`RATIO ${OURS} ${BASELINE} ${ratio.toFixed(3)} ${ours.toFixed(1)} ${baseline.toFixed(1)}`)
  const [low, high] = [Math.min(...ratios), Math.max(...ratios)]
  console.log(`${OURS}: ${ratio.toFixed(2)}× the speed of ${BASELINE} (rounds from ${low.toFixed(2)}× to ${high.toFixed(2)}×)`)
}

module.exports = { Rounds }

if (require.main === module) main()
