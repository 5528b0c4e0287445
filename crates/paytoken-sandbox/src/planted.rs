//! What a simulation installs in the gateway (feature `simulation` only): the defects it
//! plants to show it catches them, and its record of the payments settled since it last
//! looked. A leaf: the gateway holds it, and nothing here reaches back.

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::state::{Payment, Status};

/// Defects a simulation plants at run time to show it catches them; a sandbox built
/// without the `simulation` feature has no place for them.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Defects {
    /// A refund's check reads what was refunded before as nothing.
    pub(crate) stale_refund_check: bool,
    /// A call's changes are written when the next call comes, after its answer left.
    pub(crate) write_behind: bool,
    /// The state file keeps no refund.
    pub(crate) refunds_lost_in_file: bool,
}

/// What a simulation installs in its gateway: the defects it planted, and the payments
/// settled since it last looked.
#[derive(Debug, Default)]
pub(crate) struct Hooks {
    pub(crate) defects: Defects,
    settled: Mutex<Vec<Settled>>,
}

impl Hooks {
    /// The record of settlements: each holder leaves it whole, so a poison means nothing.
    pub(crate) fn settled(&self) -> MutexGuard<'_, Vec<Settled>> {
        self.settled.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes that `payment`'s outcome, which came later than its answer, is now final.
    pub(crate) fn settle(&self, payment: &Payment) {
        self.settled().push(Settled {
            payment_id: payment.payment_id.to_string(),
            approved: payment.status == Status::Approved,
        });
    }
}

/// A payment whose outcome came later than its answer (3-D Secure decided or expired,
/// pending approved), settled: the moment its notification is due.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settled {
    /// The payment.
    pub payment_id: String,
    /// Whether it was approved.
    pub approved: bool,
}
