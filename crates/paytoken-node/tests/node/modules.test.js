'use strict'
// The package as both module systems load it, from a project whose `node_modules` holds it
// as npm installs it: `import { ... } from 'paytoken'` in an ES module (every export of
// `index.js` named by `index.mjs`, the same objects), and `require('paytoken')` in CommonJS.

const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { after, describe, it } = require('node:test')

// The package `require('paytoken')` finds (by NODE_PATH), linked into a project of its own.
const project = fs.mkdtempSync(path.join(os.tmpdir(), 'paytoken-modules-'))
fs.mkdirSync(path.join(project, 'node_modules'))
const installed = path.dirname(require.resolve('paytoken/package.json'))
fs.symlinkSync(installed, path.join(project, 'node_modules/paytoken'), 'dir')
after(() => fs.rmSync(project, { recursive: true, force: true }))

// What `script`, written into the project as `name` and run there, printed as JSON.
function ran(name, script) {
  fs.writeFileSync(path.join(project, name), script)
  const env = { ...process.env }
  delete env.NODE_PATH
  return JSON.parse(execFileSync(process.execPath, [name], { cwd: project, env, encoding: 'utf8' }))
}

// A payment's request, built with whatever the script loaded.
const PAYMENT = `
  const context = new Context(Credentials.merchant('11344', new SecureKey('key')), { authToken: 't0ken' })
  const built = payment('order-7', '50.00', 'EUR', new Card('4000000000000051', '12', '2030', '745')).request(context)
`

describe('the package as modules load it', () => {
  it('names every export for import, the same objects require gives', () => {
    const said = ran('named.mjs', `
      import paytoken, { Card, Context, Credentials, SecureKey, payment } from 'paytoken'
      import { createRequire } from 'node:module'
      const required = createRequire(import.meta.url)('paytoken')
      const named = Object.keys(await import('paytoken')).filter((name) => name !== 'default')
      ${PAYMENT}
      console.log(JSON.stringify({
        named: named.sort(),
        required: Object.keys(required).sort(),
        same: paytoken === required && named.every((name) => paytoken[name] === required[name]),
        path: built.path,
      }))
    `)
    assert.deepEqual(said.named, said.required, 'index.mjs names every export of index.js')
    assert.equal(said.same, true)
    assert.equal(said.path, '/transactionServices/REST/v1/payments')
  })

  it('is required by CommonJS', () => {
    const said = ran('required.cjs', `
      const { Card, Context, Credentials, SecureKey, payment, isPaytokenError } = require('paytoken')
      ${PAYMENT}
      console.log(JSON.stringify({ path: built.path, guard: typeof isPaytokenError }))
    `)
    assert.deepEqual(said, { path: '/transactionServices/REST/v1/payments', guard: 'function' })
  })
})
