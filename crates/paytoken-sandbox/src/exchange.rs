//! What goes between the router, the operations and the server: the answer before HTTP,
//! its content types, the shape of a refusal, and what a handler gets of the request. A
//! leaf: it imports no other module of the crate but the form and the faults.

use crate::faults::NotificationFault;
use crate::form::Form;

/// An answer, before HTTP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) content_type: &'static str,
    pub(crate) body: String,
    /// The request took effect, but its answer must never be sent (the time-out test card).
    pub(crate) withheld: bool,
    /// The diagnostic of a refusal, when the sandbox explains (a header, beside the body).
    pub(crate) explanation: Option<String>,
}

pub(crate) const JSON: &str = "application/json;charset=UTF-8";
pub(crate) const HTML: &str = "text/html;charset=UTF-8";
pub(crate) const TEXT: &str = "text/plain;charset=UTF-8";

impl Answer {
    /// The gateway's answer to every handled outcome: HTTP 200 and JSON.
    pub(crate) const fn json(body: String) -> Self {
        Self {
            status: 200,
            content_type: JSON,
            body,
            withheld: false,
            explanation: None,
        }
    }

    pub(crate) fn text(status: u16, body: &str) -> Self {
        Self {
            status,
            content_type: TEXT,
            body: body.to_owned(),
            withheld: false,
            explanation: None,
        }
    }
}

/// How a refusal is shaped: payments carry `paymentId: "-"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RefusalShape {
    Transaction,
    Plain,
}

/// What a handler gets of the request.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Call<'c, 'f> {
    pub(crate) form: &'c Form<'f>,
    pub(crate) auth_token: Option<&'c str>,
    /// The `{id}` of paths that carry one.
    pub(crate) path_id: Option<&'c str>,
    /// What goes wrong with the notification of a payment this call makes.
    pub(crate) notification_fault: Option<NotificationFault>,
}
