//! The names of the operations the sandbox tells apart: one list for the request log, the
//! console and the faults' targets. Below every module that names an operation, so that
//! none of them imports another for it. The interface's operations are named by
//! [`OperationKind::name`], the one name the client, the command and the kit use too.

use paytoken_protocol::OperationKind;

/// Every operation the sandbox tells apart, by the name its request log, its console and
/// its fault targets give it (`ops::Route::operation` gives them; the 3-D Secure page's last).
#[expect(
    clippy::indexing_slicing,
    reason = "evaluated when compiled: an index out of bounds fails the build, never a run"
)]
pub(crate) const OPERATIONS: [&str; OperationKind::ALL.len() + 1] = {
    let mut names = [THREE_D_SECURE_PAGE; OperationKind::ALL.len() + 1];
    let mut at = 0;
    while at < OperationKind::ALL.len() {
        names[at] = OperationKind::ALL[at].name();
        at += 1;
    }
    names
};

/// The operations that move money: a fault queued without a target waits for one.
pub(crate) const MONEY_MOVING: [&str; 6] = [
    OperationKind::Payment.name(),
    OperationKind::TokenPayment.name(),
    OperationKind::RepeatPayment.name(),
    OperationKind::Capture.name(),
    OperationKind::Refund.name(),
    OperationKind::Cancel.name(),
];

/// The operation name of a request to the 3-D Secure page.
pub(crate) const THREE_D_SECURE_PAGE: &str = "three_d_secure_page";
