/* The TypeScript definitions of paytoken for Node: what index.js adds to the addon, then
 * the addon's own, which napi-rs writes from its Rust. */

/** Every error paytoken throws: an `Error` whose `code` says which way an operation ended
 * without its answer, with the facts a handler decides on. Its text never holds a secure
 * key, an auth token, a card number or a CVV. */
export interface PaytokenError extends Error {
  code: ErrorCode
  /** Whether the request may have been processed: settle it by an inquiry, never by
   * sending it again. */
  mayHaveBeenProcessed: boolean
  /** The input at fault, by its wire name (`card.number`), or `null`. */
  field: string | null
  /** A refusal's result code. */
  resultCode?: string
  /** A refusal's description, redacted as the message is. */
  description?: string
  /** A refusal's description as the gateway sent it, which may hold what `description`
   * masks; a method, not enumerable, so no log of the error shows it. */
  rawDescription?(): string
  /** A refusal of the auth token (a system check's code): fetch a new one and send once
   * more. */
  tokenRefused?: boolean
  /** A rejected notification's failed check. */
  reason?: string
}

/** Whether `error` is one paytoken threw. */
export declare function isPaytokenError(error: unknown): error is PaytokenError

/** The answers with a description: `rawResultDescription()` returns it as the gateway
 * sent it, which may hold what `resultDescription` masks; a method, not enumerable, so no
 * log of the answer shows it. */
export interface Transaction { rawResultDescription(): string }
export interface Registered { rawResultDescription(): string }
export interface SignedUp { rawResultDescription(): string }
export interface Deleted { rawResultDescription(): string }

/** Any answer an operation's `parse` gives; `kind` tells them apart. */
export type Answer = ReturnType<Operation['parse']>

/** An auth token fetched: the token, shown by its length only. */
export declare class AuthTokenGrant {
  /** `authTokenGrant`. */
  get kind(): 'authTokenGrant'
  /** The token, for `new Context(credentials, { authToken })`. */
  get token(): string
  /** The result code (`200` when fetched). */
  get resultCode(): string
  /** `AuthTokenGrant(token=*** (<n> characters))`. */
  toString(): string
  /** The grant's JSON: its `toString`, so that no log of it shows the token. */
  toJSON(): string
}

/**
 * A card: its number, expiry and CVV, each checked. Shown with the number masked
 * (`Card(400000******0051, 12/2030, cvv=***)`).
 */
export declare class Card {
  /**
   * The card `number` (digits only), `expiryMonth` (`01` to `12`), `expiryYear` (four
   * digits), `cvv`, and the `holder`'s name when known.
   */
  constructor(number: string, expiryMonth: string, expiryYear: string, cvv: string, holder?: string | undefined | null)
  /** `Card(400000******0051, 12/2030, cvv=***)`. */
  toString(): string
  /**
   * The card's JSON: its `toString`, so that no log of an object holding it shows the
   * number or the CVV.
   */
  toJSON(): string
}

/**
 * What a request is built in: the credentials, `authentication.accountId` and
 * `terminalId` where the interface takes them, and the auth token of the `AuthToken`
 * header (left out of the auth-token requests).
 */
export declare class Context {
  /** The context of `credentials`, with the `options` given. */
  constructor(credentials: Credentials, options?: ContextOptions | undefined | null)
  /** `Context(<id>, authToken=***)`, or `authToken=null` without one. */
  toString(): string
}

/** A merchant's or a partner's id with its secure key. */
export declare class Credentials {
  /** A merchant's: its member id (`authentication.memberId`) and secure key. */
  static merchant(memberId: string, key: SecureKey): Credentials
  /** A partner's: its partner id (`authentication.partnerId`) and secure key. */
  static partner(partnerId: string, key: SecureKey): Credentials
  /** The member or partner id. */
  get id(): string
  /** `Credentials(<id>, SecureKey(***))`. */
  toString(): string
}

/**
 * One operation of the interface, its values checked: `request(context)` gives the signed
 * request to send with `fetch` (or any HTTP client), `parse(status, body)` reads the
 * answer to it.
 */
export declare class Operation {
  /**
   * The operation's name, as the command and the conformance kit say it: `pay`,
   * `pay_with_token`, `inquiry`...
   */
  get name(): string
  /**
   * The signed request, for the caller's HTTP client to send. The context's secure key
   * and auth token are what `parse` masks in the answer's text.
   *
   * Throws `PAYTOKEN_INVALID_INPUT` naming the field a value does not fit; nothing is
   * built then.
   */
  request(context: Context): Request
  /**
   * The answer to the request, from its HTTP status and body (a string, or the bytes
   * as they came): an object whose `kind` says which (`transaction` for the payments,
   * the back office's moves and an inquiry). Its `resultDescription` and an error's
   * `description` and `message` are redacted, the secure key and auth token of
   * `context` (else of the last `request(context)`) masked with card numbers and IBANs;
   * `rawResultDescription()` and `rawDescription()` return the gateway's text as it came.
   *
   * Throws `PAYTOKEN_REFUSED` when the gateway refused before it created anything, and
   * an error with `mayHaveBeenProcessed` (`PAYTOKEN_UNREADABLE`,
   * `PAYTOKEN_CONTRADICTION`) when the request may have been processed: settle that by
   * an inquiry, never by sending the request again.
   */
  parse(status: number, body: string | Uint8Array, context?: Context | undefined | null): Transaction | AuthTokenGrant | Registered | SignedUp | Deleted | InstallmentCounts | StoredRegistrations | InvoicePage
  /** `Operation(<name>)`. */
  toString(): string
}

/**
 * A signed request: send `method` to `url(baseUrl)` with `headers` and `body`.
 *
 * `toString` (and so `util.inspect`) shows the operation, the path and the body's length:
 * never the body (it holds card numbers and the checksum) nor the auth token.
 */
export declare class Request {
  /** `POST`. */
  get method(): 'POST'
  /** The path from the interface's root, such as `/transactionServices/REST/v1/payments`. */
  get path(): string
  /**
   * The full URL: `baseUrl` (the deployment's, such as `https://gateway.example`)
   * followed by the path.
   */
  url(baseUrl: string): string
  /**
   * The headers, as `[name, value]` pairs (which `fetch` takes as they are): the
   * content type, and `AuthToken` for every operation but the auth-token requests.
   */
  get headers(): Array<[string, string]>
  /** The form-encoded body, as `fetch` sends it. */
  get body(): string
  /** Which operation this is: `pay`, `inquiry`... (as `Operation.name` says it). */
  get operation(): string
  /**
   * Whether the request may be sent again after it may have reached the gateway: true
   * for reads, never for a payment.
   */
  get isRetrySafe(): boolean
  /** `Request(<operation> POST <path>, <n> bytes)`. */
  toString(): string
}

/**
 * A secure key: what signs every request. Shown as `SecureKey(***)`.
 *
 * The string handed in is JavaScript's, which paytoken cannot wipe; the copy paytoken
 * keeps is wiped when the key is collected.
 */
export declare class SecureKey {
  /** The key as the gateway's back office shows it. */
  constructor(key: string)
  /** `SecureKey(***)`. */
  toString(): string
  /** The key's JSON: `"***"`, so that no log of an object holding it shows it. */
  toJSON(): string
}

/**
 * The operation a recorded request is: its form's fields as sent (`[name, value]` pairs;
 * the caller's own and the checksum are the context's), and the id its path ends with.
 * Its `request(context)` sends that form again, signed.
 *
 * Throws `PAYTOKEN_INVALID_INPUT` for a field of the wrong form, a field the operation
 * never sends, or a path id missing.
 */
export declare function asked(operation: string, fields: Array<[string, string]>, pathId?: string | undefined | null): Operation

/** A bank account's optional fields. */
export interface BankAccountOptions {
  /** The account holder's name. */
  holder?: string
  /** The gateway's `customerId`. */
  customerId?: string
}

/** A cancel (void) of the pre-authorisation `paymentId`. */
export declare function cancel(paymentId: string): Operation

/** A capture of `amount` of the pre-authorisation `paymentId`. */
export declare function capture(paymentId: string, amount: string, currency: string): Operation

/** The stored cards and bank accounts: all the caller sees, or one customer's. */
export declare function cardsAndAccounts(options?: OwnerOptions | undefined | null): Operation

/** Where the `Context` finds the auth token and the ids some deployments ask for. */
export interface ContextOptions {
  /** The `AuthToken` header's value, left out of the auth-token requests. */
  authToken?: string
  /** `authentication.accountId`, where the interface takes it. */
  accountId?: string
  /** `authentication.terminalId`, where the interface takes it. */
  terminalId?: string
}

/** A customer signed up: their names and email address. */
export declare function customerSignup(givenName: string, surname: string, email: string): Operation

/** A token deleted: payments with it are refused from now on. */
export interface Deleted {
  /** `deleted`. */
  kind: 'deleted'
  /** `registrationId`, when the answer repeats it. */
  registrationId?: string
  /** The result code. */
  resultCode: string
  /**
   * The result's description, redacted: the secure key, the auth token, card numbers
   * and IBANs masked, cut to 200 characters. `rawResultDescription()` returns it as the
   * gateway sent it.
   */
  resultDescription: string
}

/** The token `registrationId` deleted: payments with it are refused from then on. */
export declare function deleteToken(registrationId: string): Operation

/**
 * The `code` of every error paytoken throws: which way an operation ended without its
 * answer, as the protocol crate's `Error` tells them apart.
 */
export type ErrorCode = 'PAYTOKEN_INVALID_INPUT' | 'PAYTOKEN_REFUSED' | 'PAYTOKEN_UNREADABLE' | 'PAYTOKEN_CONTRADICTION' | 'PAYTOKEN_NOTIFICATION_REJECTED' | 'PAYTOKEN_ERROR'

/** An auth token for `username` under `partnerId` (the partner's own, or its merchant's). */
export declare function fetchAuthToken(partnerId: string, username: string): Operation

/**
 * An inquiry: by the gateway's `paymentId`, or by the shop's own
 * `merchantTransactionId`. Its transaction's `isApproved` is the ship / don't-ship
 * decision.
 *
 * ```js
 * const inquiry = paytoken.inquiry({ merchantTransactionId: 'order-7' })
 * ```
 */
export declare function inquiry(target: InquiryTarget): Operation

/** Which transaction an inquiry asks about: one of the two ids. */
export interface InquiryTarget {
  /** The gateway's `paymentId`. */
  paymentId?: string
  /** The shop's own order id. */
  merchantTransactionId?: string
}

/** The installment counts a token may be charged in. */
export interface InstallmentCounts {
  /** `installments`. */
  kind: 'installments'
  /** The counts, in the gateway's order. */
  counts: Array<number>
}

/** The installment counts the token `registrationId` may be charged in. */
export declare function installments(registrationId: string): Operation

/** One invoice of the list, its fields as they came. */
export interface Invoice {
  /** `orderId`. */
  orderId?: string
  /** `amount`, as it came. */
  amount?: string
  /** `currency`, as it came. */
  currency?: string
  /** `invoiceStatus`. */
  invoiceStatus?: string
  /** `transactionStatus`, as it came. */
  transactionStatus?: string
  /** `createdDate`, as it came. */
  createdDate?: string
  /** `systemInvoiceId`. */
  systemInvoiceId?: string
}

/** One page of the invoice list: `page` from 1, `records` a page (1 to 1000). */
export declare function invoiceList(page: number, records: number): Operation

/** One page of the invoice list. */
export interface InvoicePage {
  /** `invoicePage`. */
  kind: 'invoicePage'
  /** The invoices of the page, in the gateway's order (none past the last page). */
  invoices: Array<Invoice>
  /** The result code, when the gateway sent a result. */
  resultCode?: string
}

/** Whose stored card or account: a customer's, when given. */
export interface OwnerOptions {
  /** The gateway's `customerId`. */
  customerId?: string
}

/**
 * A payment with a card: a debit (`DB`) or a pre-authorisation (`PA`), storing the card
 * as a token when `storeCard`.
 *
 * ```js
 * const card = new paytoken.Card('4000000000000051', '12', '2030', '745')
 * const payment = paytoken.payment('order-7', '50.00', 'EUR', card, { storeCard: true })
 * ```
 */
export declare function payment(merchantTransactionId: string, amount: string, currency: string, card: Card, options?: PaymentOptions | undefined | null): Operation

/** A payment's optional fields. */
export interface PaymentOptions {
  /** `DB` (a debit, the default) or `PA` (a pre-authorisation). */
  paymentType?: 'DB' | 'PA'
  /** Whether to store the card as a token (`createRegistration`). */
  storeCard?: boolean
  /** `INITIAL` to start a recurring series. */
  recurring?: 'INITIAL' | 'REPEATED'
  /** Where the gateway posts the outcome. */
  notificationUrl?: string
  /** Where the cardholder returns after 3-D Secure. */
  merchantRedirectUrl?: string
}

/**
 * The answer `status` and `body` to a request of `operation` (`pay`, `inquiry`, ... as
 * `Operation.name` says) that sent `sent`, its fields by wire name
 * (`merchantTransactionId`, `amount`, `currency`, and the path's id as `paymentId` or
 * `registrationId`): what `parse` of that operation gives, or throws.
 */
export declare function readAnswer(operation: string, sent: Record<string, string>, status: number, body: string | Uint8Array): Transaction | AuthTokenGrant | Registered | SignedUp | Deleted | InstallmentCounts | StoredRegistrations | InvoicePage

/**
 * Where a payment waiting for 3-D Secure sends the cardholder's browser: `method` (`GET`
 * or `POST`) to `url`, with `parameters` (`[name, value]` pairs, in order) as its form or
 * query, in the window `target` names.
 */
export interface Redirect {
  /** `url`. */
  url: string
  /** `method`, as it came. */
  method: string
  /** `target`, such as `_self`, when it came. */
  target?: string
  /** `parameters`: the fields to send along, in order. */
  parameters: Array<[string, string]>
}

/** A refund of `amount` of the payment `paymentId`. */
export declare function refund(paymentId: string, amount: string, currency: string): Operation

/**
 * A fresh auth token for `token`, still valid, under `partnerId`; the old one stops
 * working.
 */
export declare function regenerateAuthToken(partnerId: string, token: string): Operation

/**
 * A bank account (`iban`, `bic`) stored as a token, for the customer `customerId` when
 * given.
 */
export declare function registerBankAccount(iban: string, bic: string, options?: BankAccountOptions | undefined | null): Operation

/** A card stored as a token without a payment, for the customer `customerId` when given. */
export declare function registerCard(card: Card, options?: OwnerOptions | undefined | null): Operation

/** A card or account the gateway stored: its token. */
export interface Registered {
  /** `registered`. */
  kind: 'registered'
  /** `registrationId`: the token for later payments. */
  registrationId: string
  /** The result code. */
  resultCode: string
  /**
   * The result's description, redacted: the secure key, the auth token, card numbers
   * and IBANs masked, cut to 200 characters. `rawResultDescription()` returns it as the
   * gateway sent it.
   */
  resultDescription: string
}

/** A repeat's optional fields. */
export interface RepeatOptions {
  /** The shop's own order id. */
  merchantTransactionId?: string
  /** `DB` (a debit, the default) or `PA` (a pre-authorisation). */
  paymentType?: 'DB' | 'PA'
}

/** A repeat of a recurring series by its first payment's id (`REPEATED`). */
export declare function repeatPayment(firstPaymentId: string, amount: string, currency: string, options?: RepeatOptions | undefined | null): Operation

/**
 * The checksum of `rule` (`payment`, `token_payment`, `inquiry_by_payment_id`, ... as
 * the conformance kit's `checksum-rules.json` names them) for `credentials`, its other
 * parts from `values` by their wire names (`merchantTransactionId`, `amount`, ...): 32
 * lowercase hexadecimal digits.
 *
 * Throws `PAYTOKEN_INVALID_INPUT` for an unknown rule, or a part missing or of the wrong
 * form.
 *
 * ```js
 * const credentials = paytoken.Credentials.merchant('11344', new paytoken.SecureKey('key'))
 * paytoken.sign('payment', credentials, { merchantTransactionId: 'order-7', amount: '50.00' })
 * // '0aa6dbcdec108ad588ecd5259430c2d1'
 * ```
 */
export declare function sign(rule: string, credentials: Credentials, values: Record<string, string>): string

/** A customer the gateway created: the id to send from now on. */
export interface SignedUp {
  /** `signedUp`. */
  kind: 'signedUp'
  /** `customerId`. */
  customerId: string
  /** The result code. */
  resultCode: string
  /**
   * The result's description, redacted: the secure key, the auth token, card numbers
   * and IBANs masked, cut to 200 characters. `rawResultDescription()` returns it as the
   * gateway sent it.
   */
  resultDescription: string
}

/** A stored bank account, as the list shows it. */
export interface StoredBankAccount {
  /** `registrationId`: its token, as it came. */
  registrationId?: string
  /** `registrationStatus`, as it came. */
  registrationStatus?: string
  /** The IBAN as the gateway masks it. */
  maskedIban?: string
  /** `bic`. */
  bic?: string
}

/** A stored card, as the list shows it (never its whole number). */
export interface StoredCard {
  /** `registrationId`: its token, as it came. */
  registrationId?: string
  /** `registrationStatus`, as it came (`ACTIVE`...). */
  registrationStatus?: string
  /** The card's first six digits. */
  bin?: string
  /** Its last four digits. */
  lastFour?: string
  /** `expiryMonth`, as it came. */
  expiryMonth?: string
  /** `expiryYear`, as it came. */
  expiryYear?: string
}

/** The stored cards and bank accounts, of the merchant or of one customer. */
export interface StoredRegistrations {
  /** `storedRegistrations`. */
  kind: 'storedRegistrations'
  /** The cards, in the gateway's order. */
  cards: Array<StoredCard>
  /** The bank accounts, in the gateway's order. */
  bankAccounts: Array<StoredBankAccount>
  /** The result code. */
  resultCode: string
}

/** A payment with a stored card or account (`registrationId`, its token). */
export declare function tokenPayment(registrationId: string, amount: string, currency: string, options?: TokenPaymentOptions | undefined | null): Operation

/** A token payment's optional fields. */
export interface TokenPaymentOptions {
  /** The shop's own order id. */
  merchantTransactionId?: string
  /** `DB` (a debit, the default) or `PA` (a pre-authorisation). */
  paymentType?: 'DB' | 'PA'
  /** `INITIAL` or `REPEATED`. */
  recurring?: 'INITIAL' | 'REPEATED'
}

/**
 * A transaction the gateway created: a payment, a token payment, a capture, refund or
 * cancel, or the one an inquiry found.
 */
export interface Transaction {
  /** `transaction`. */
  kind: 'transaction'
  /** `paymentId`. */
  paymentId: string
  /** What became of it. */
  status: 'approved' | 'pending' | 'three_d_secure' | 'declined' | 'cancelled' | 'refunded' | 'charged_back' | 'unknown'
  /**
   * Whether the money moved (or is reserved) and stays with the merchant: the one
   * ship / don't-ship decision.
   */
  isApproved: boolean
  /** The result code (`00001`...), empty when the answer had none. */
  resultCode: string
  /**
   * The result's description, redacted: the secure key, the auth token, card numbers
   * and IBANs masked, cut to 200 characters. `rawResultDescription()` returns it as the
   * gateway sent it.
   */
  resultDescription: string
  /** `transactionStatus`, the short status (`Y`, `N`, `P`, `3D`, `C`), when it came. */
  transactionStatus?: string
  /** `merchantTransactionId`: the shop's own order id. */
  merchantTransactionId?: string
  /** `registrationId`: the token a payment stored, as it came. */
  registrationId?: string
  /** `amount`, as it came. */
  amount?: string
  /** `currency`, as it came. */
  currency?: string
  /** Where to send the cardholder's browser, for a payment waiting for 3-D Secure. */
  redirect?: Redirect
}

/** A notification whose checksum matched: the signed fields, and the verdict they give. */
export interface VerifiedNotification {
  /** `paymentId`. */
  paymentId: string
  /** `merchantTransactionId`, when it is one. */
  merchantTransactionId?: string
  /** `amount`, as it came. */
  amount: string
  /** `transactionStatus`, as it came. */
  transactionStatus: string
  /** The verdict of the signed short status. */
  status: 'approved' | 'declined' | 'pending' | 'three_d_secure' | 'cancelled' | 'unknown'
  /** Whether it says the payment was approved. */
  isApproved: boolean
  /** What a handler remembers to act on each notification once (`paymentId:status`). */
  duplicateKey: string
}

/**
 * Verifies a notification as received: its body (a string, or the bytes as they came)
 * and `Content-Type` (a form or JSON), with the merchant's secure key.
 *
 * Throws `PAYTOKEN_NOTIFICATION_REJECTED`, its `reason` the check that failed, when it
 * does not verify.
 *
 * ```js
 * const verified = paytoken.verifyNotification(body, key, request.headers['content-type'])
 * if (verified.isApproved) ship(verified.merchantTransactionId)
 * ```
 */
export declare function verifyNotification(body: string | Uint8Array, key: SecureKey, contentType?: string | undefined | null): VerifiedNotification
