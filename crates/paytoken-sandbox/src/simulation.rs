//! The sandbox inside a deterministic simulation (feature `simulation`): its request
//! handling called in the caller's process, with no server, no thread and no clock of its
//! own, its ids and tokens drawn from a seed; the notifications it posts handed to the
//! simulation to deliver; and the defects a simulation must be able to catch, planted at
//! run time. For a simulator's network to call; a shop's tests use
//! [`Sandbox`](crate::Sandbox).
//!
//! ```
//! use std::sync::Arc;
//! use paytoken_sandbox::ManualClock;
//! use paytoken_sandbox::simulation::InProcess;
//!
//! let gateway = InProcess::new(7, Arc::new(ManualClock::at_unix_seconds(1_700_000_000)));
//! let (status, body) = gateway.handle("/no/such/path", None, b"");
//! assert_eq!(status, 404);
//! assert!(!body.is_empty());
//! assert!(gateway.books().is_empty());
//! ```

use std::sync::{Arc, Mutex, PoisonError};

use crate::clock::Clock;
use crate::gateway::Gateway;
use crate::invoices::InvoiceShape;
use crate::notifications::{Dispatcher, Outbox};
use crate::ops::three_d_secure;
use crate::{DEFAULT_PENDING_SETTLES_AFTER, PaymentBooks, SandboxConfig};

/// The sandbox's gateway with the default configuration, answering in the caller's
/// process.
#[derive(Debug)]
pub struct InProcess {
    gateway: Gateway,
    /// Where the notifications the gateway posts wait for [`InProcess::posted`].
    posted: Mutex<Dispatcher>,
}

/// A notification the gateway posted: where to, and its JSON body, signed with the
/// payment owner's secure key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posted {
    /// The payment it is about.
    pub payment_id: String,
    /// The payment's `notificationUrl`.
    pub url: String,
    /// The body to post.
    pub body: String,
}

impl InProcess {
    /// A gateway whose ids and tokens come from `seed` and whose time is `clock`'s. A
    /// pending payment is approved [`DEFAULT_PENDING_SETTLES_AFTER`] after it was made,
    /// once the gateway is next called or [`settle_due`](Self::settle_due) after it.
    #[must_use]
    pub fn new(seed: u64, clock: Arc<dyn Clock>) -> Self {
        let (outbox, dispatcher) = Outbox::channel();
        let gateway = Gateway::new(
            SandboxConfig::default(),
            clock,
            InvoiceShape::default(),
            // Nothing is served: the 3-D Secure redirect names no reachable place.
            "http://sandbox.invalid".to_owned(),
        )
        .notifying(outbox, Some(DEFAULT_PENDING_SETTLES_AFTER));
        gateway.lock().entropy = crate::entropy::Entropy::seeded(seed);
        Self {
            gateway,
            posted: Mutex::new(dispatcher),
        }
    }

    /// Plants a defect: a refund's check reads what was refunded before as nothing, so
    /// refunds that race may sum above what was taken.
    #[must_use]
    pub fn with_stale_refund_check(mut self) -> Self {
        self.gateway.defects.stale_refund_check = true;
        self
    }

    /// Its configuration: the merchants and partners a client signs in as.
    #[must_use]
    pub const fn config(&self) -> &SandboxConfig {
        &self.gateway.config
    }

    /// Answers a `POST` of `body` to `path` (with `auth_token` in its header): the status
    /// and the body.
    #[must_use]
    pub fn handle(&self, path: &str, auth_token: Option<&str>, body: &[u8]) -> (u16, String) {
        let answer = self
            .gateway
            .handle("POST", path, None, auth_token, body, None);
        (answer.status, answer.body)
    }

    /// The notifications posted since the last call, oldest first: the simulation delivers
    /// them (the sandbox's own deliveries and their retries are not run).
    #[must_use]
    pub fn posted(&self) -> Vec<Posted> {
        let mut dispatcher = self.posted.lock().unwrap_or_else(PoisonError::into_inner);
        dispatcher
            .take_posted()
            .into_iter()
            .map(|message| Posted {
                payment_id: message.payment_id,
                url: message.url,
                body: message.body,
            })
            .collect()
    }

    /// Settles what has fallen due on the clock (pending payments, expired 3-D Secure
    /// challenges), posting their notifications.
    pub fn settle_due(&self) {
        drop(self.gateway.lock());
    }

    /// Decides payment `payment_id`'s 3-D Secure challenge as its cardholder would:
    /// approved or declined, notified; `false` when it is not waiting for one.
    pub fn decide_three_d_secure(&self, payment_id: &str, approved: bool) -> bool {
        three_d_secure::decide_waiting(
            &self.gateway,
            &mut self.gateway.lock(),
            payment_id,
            approved,
        )
    }

    /// Every payment it holds, with what was done to it.
    #[must_use]
    pub fn books(&self) -> Vec<PaymentBooks> {
        crate::books::of(&self.gateway.lock())
    }
}
