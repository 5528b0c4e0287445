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
  /** A refusal of the auth token (a system check's code): fetch a new one and send once
   * more. */
  tokenRefused?: boolean
  /** A rejected notification's failed check. */
  reason?: string
}

/** Whether `error` is one paytoken threw. */
export declare function isPaytokenError(error: unknown): error is PaytokenError

/** Any answer an operation's `parse` gives; `kind` tells them apart. */
export type Answer = ReturnType<Operation['parse']>

