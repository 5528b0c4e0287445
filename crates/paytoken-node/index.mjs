// paytoken for Node as an ES module: the objects of `require('paytoken')`, each named, so
// that `import { Card } from 'paytoken'` works (Node's reading of CommonJS exports cannot
// see `index.js`'s, made at load time). The suite checks that it names every one.

import paytoken from './index.js'

export const AuthTokenGrant = paytoken.AuthTokenGrant
export const Card = paytoken.Card
export const Context = paytoken.Context
export const Credentials = paytoken.Credentials
export const ErrorCode = paytoken.ErrorCode
export const Operation = paytoken.Operation
export const Request = paytoken.Request
export const SecureKey = paytoken.SecureKey
export const asked = paytoken.asked
export const cancel = paytoken.cancel
export const capture = paytoken.capture
export const cardsAndAccounts = paytoken.cardsAndAccounts
export const customerSignup = paytoken.customerSignup
export const deleteToken = paytoken.deleteToken
export const fetchAuthToken = paytoken.fetchAuthToken
export const inquiry = paytoken.inquiry
export const installments = paytoken.installments
export const invoiceList = paytoken.invoiceList
export const isPaytokenError = paytoken.isPaytokenError
export const payment = paytoken.payment
export const readAnswer = paytoken.readAnswer
export const refund = paytoken.refund
export const regenerateAuthToken = paytoken.regenerateAuthToken
export const registerBankAccount = paytoken.registerBankAccount
export const registerCard = paytoken.registerCard
export const repeatPayment = paytoken.repeatPayment
export const sign = paytoken.sign
export const tokenPayment = paytoken.tokenPayment
export const verifyNotification = paytoken.verifyNotification

export default paytoken
