// The types of `import ... from 'paytoken'`: those of `require('paytoken')`, each named,
// and the whole package as the default export.
import * as paytoken from './index.js'

export * from './index.js'
export default paytoken
