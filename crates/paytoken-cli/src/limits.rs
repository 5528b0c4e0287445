//! Every bound the command's HTTP edges keep, in one place to read and to check (how
//! they relate is asserted when the command is built): how many connections its servers
//! take, how long a peer has, how much is read. Each use names
//! its bound here; the files the command reads keep theirs beside their readers
//! (`config.rs`, `replay.rs`).

use std::time::Duration;

use paytoken_sandbox::internal::edge::Limits;

/// `paytoken listen`'s endpoint: 256 connections at once, [`NOTIFICATION_DEADLINE`] for a
/// request's head, one request a connection.
pub(crate) const LISTEN: Limits = Limits {
    max_connections: 256,
    head_deadline: NOTIFICATION_DEADLINE,
    keep_alive: false,
};

/// The largest notification `listen` reads: a payment's fields are a few hundred bytes.
pub(crate) const NOTIFICATION_BYTES: usize = 64 * 1024;

/// How long a notification's sender has for its headers, and again for its body.
pub(crate) const NOTIFICATION_DEADLINE: Duration = Duration::from_secs(10);

/// `paytoken record`'s proxy: 64 connections at once, 10 s for a request's head;
/// keep-alive, as the client's pool expects.
pub(crate) const RECORD: Limits = Limits {
    max_connections: 64,
    head_deadline: Duration::from_secs(10),
    keep_alive: true,
};

/// The largest request body `record` forwards: a payment's form is a few kilobytes.
pub(crate) const FORWARDED_REQUEST_BYTES: usize = 1024 * 1024;

/// How long the gateway has for each step of `record`'s exchanges: connecting, TLS, the
/// answer.
pub(crate) const UPSTREAM_STEP: Duration = Duration::from_secs(60);

/// How long each of `doctor`'s steps may take unless `--timeout` says otherwise.
pub(crate) const DOCTOR_STEP: Duration = Duration::from_secs(10);

/// The answer bound of the list operations (`cards`, `invoices`), and of `record` and
/// `doctor` unless `--max-answer-bytes` says otherwise: about 90,000 cards.
pub(crate) const LIST_ANSWER_BYTES: usize = 16 * 1024 * 1024;

/// The most a console answer is read: the books of a full sandbox.
pub(crate) const CONSOLE_ANSWER_BYTES: usize = 64 * 1024 * 1024;

/// How long one console call may take.
pub(crate) const CONSOLE_CALL: Duration = Duration::from_secs(30);

/// How long the sandbox's 3-D Secure page may take to take the cardholder's decision.
pub(crate) const CHALLENGE_PAGE: Duration = Duration::from_secs(10);

// The bounds hold together, checked when the command is built.
const _: () = {
    assert!(LISTEN.max_connections > 0 && RECORD.max_connections > 0);
    assert!(!LISTEN.head_deadline.is_zero() && !RECORD.head_deadline.is_zero());
    // What `record` forwards is a request; what it brings back may be a whole list.
    assert!(NOTIFICATION_BYTES < FORWARDED_REQUEST_BYTES);
    assert!(FORWARDED_REQUEST_BYTES < LIST_ANSWER_BYTES);
    // A full sandbox's books hold more than one list answer.
    assert!(CONSOLE_ANSWER_BYTES >= LIST_ANSWER_BYTES);
    // The gateway gets at least as long as the pages and people on this machine.
    assert!(DOCTOR_STEP.as_millis() <= UPSTREAM_STEP.as_millis());
    assert!(CHALLENGE_PAGE.as_millis() <= UPSTREAM_STEP.as_millis());
    assert!(NOTIFICATION_DEADLINE.as_millis() <= UPSTREAM_STEP.as_millis());
    assert!(CONSOLE_CALL.as_millis() <= UPSTREAM_STEP.as_millis());
};
