//! The sandbox inside a deterministic simulation (feature `simulation`): its request
//! handling called in the caller's process, with no server, no thread and no clock of its
//! own, its ids and tokens drawn from a seed; and the defects a simulation must be able to
//! catch, planted at run time. For a simulator's network to call; a shop's tests use
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

use std::sync::Arc;

use crate::clock::Clock;
use crate::gateway::Gateway;
use crate::invoices::InvoiceShape;
use crate::{PaymentBooks, SandboxConfig};

/// The sandbox's gateway with the default configuration, answering in the caller's
/// process.
#[derive(Debug)]
pub struct InProcess {
    gateway: Gateway,
}

impl InProcess {
    /// A gateway whose ids and tokens come from `seed` and whose time is `clock`'s.
    #[must_use]
    pub fn new(seed: u64, clock: Arc<dyn Clock>) -> Self {
        let gateway = Gateway::new(
            SandboxConfig::default(),
            clock,
            InvoiceShape::default(),
            // Nothing is served: the 3-D Secure redirect names no reachable place.
            "http://sandbox.invalid".to_owned(),
        );
        gateway.lock().entropy = crate::entropy::Entropy::seeded(seed);
        Self { gateway }
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

    /// Every payment it holds, with what was done to it.
    #[must_use]
    pub fn books(&self) -> Vec<PaymentBooks> {
        crate::books::of(&self.gateway.lock())
    }
}
