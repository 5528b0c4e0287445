'use strict'
// paytoken for Node: the addon built for this platform, as JavaScript uses it.

const { inspect } = require('node:util')

const addon = loadAddon()

// Each class of the addon shows itself by its `toString`, which masks what is secret (the
// secure key, the auth token, the card's number and CVV): `console.log` and `util.inspect`
// show that, never the fields.
for (const exported of Object.values(addon)) {
  const prototype = typeof exported === 'function' ? exported.prototype : undefined
  if (prototype && Object.hasOwn(prototype, 'toString')) {
    prototype[inspect.custom] = function shown() {
      return this.toString()
    }
  }
}

module.exports = { ...addon, isPaytokenError }

// Whether `error` is one paytoken threw: an `Error` whose `code` is a paytoken code.
function isPaytokenError(error) {
  return error instanceof Error && typeof error.code === 'string' && error.code.startsWith('PAYTOKEN_')
}

// The addon `napi build --platform` wrote for this platform (`paytoken.linux-x64-gnu.node`),
// else the one a plain `napi build` writes for the machine it ran on (`paytoken.node`).
function loadAddon() {
  const platformBuilt = `./paytoken.${platformTriple()}.node`
  try {
    return require(platformBuilt)
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND') throw error
    return require('./paytoken.node')
  }
}

// napi-rs's names for the platforms: `linux-x64-gnu`, `darwin-arm64`, `win32-x64-msvc`...
function platformTriple() {
  const { platform, arch } = process
  if (platform === 'linux') return `${platform}-${arch}-${isMusl() ? 'musl' : 'gnu'}`
  if (platform === 'win32') return `${platform}-${arch}-msvc`
  return `${platform}-${arch}`
}

function isMusl() {
  return !process.report?.getReport().header.glibcVersionRuntime
}
