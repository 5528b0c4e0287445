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

