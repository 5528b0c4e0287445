//! What the client's one call loop needs of an operation: its request, its answer, and the
//! result code to put on the span.

use paytoken_protocol::ops::Operation;
use paytoken_protocol::ops::auth_token::AuthTokenGrant;
use paytoken_protocol::ops::cards_and_accounts::StoredRegistrations;
use paytoken_protocol::ops::customer_signup::SignedUp;
use paytoken_protocol::ops::delete_token::Deleted;
use paytoken_protocol::ops::installments::InstallmentPlans;
use paytoken_protocol::ops::invoice_list::InvoicePage;
use paytoken_protocol::ops::registration::Registered;
use paytoken_protocol::{Context, Error, InvoicePager, OperationKind, Request, Transaction};

/// One call: an operation of the protocol crate, or the next page of a pager.
pub(crate) trait Call: Send {
    type Response: Observed;
    fn kind(&self) -> OperationKind;
    fn request(&self, context: &Context) -> Result<Request, Error>;
    fn parse(&mut self, status: u16, body: &[u8]) -> Result<Self::Response, Error>;
}

/// An operation of the protocol crate.
pub(crate) struct Op<'a, O>(pub(crate) &'a O);

impl<O> Call for Op<'_, O>
where
    O: Operation + Sync,
    O::Response: Observed,
{
    type Response = O::Response;

    fn kind(&self) -> OperationKind {
        O::KIND
    }

    fn request(&self, context: &Context) -> Result<Request, Error> {
        self.0.request(context)
    }

    fn parse(&mut self, status: u16, body: &[u8]) -> Result<O::Response, Error> {
        self.0.parse(status, body)
    }
}

/// The next page of an invoice pager.
pub(crate) struct NextPage<'a>(pub(crate) &'a mut InvoicePager);

impl Call for NextPage<'_> {
    type Response = InvoicePage;

    fn kind(&self) -> OperationKind {
        OperationKind::InvoiceList
    }

    fn request(&self, context: &Context) -> Result<Request, Error> {
        self.0.next_request(context).unwrap_or(Err(Error::Invalid {
            field: "pagination.pageno",
            reason: "is past the end of the list",
        }))
    }

    fn parse(&mut self, status: u16, body: &[u8]) -> Result<InvoicePage, Error> {
        self.0.parse(status, body)
    }
}

/// The result code of an answer, for the call's span.
pub(crate) trait Observed {
    fn result_code(&self) -> Option<&str>;
}

macro_rules! observed_by_result {
    ($($response:ty),*) => {$(
        impl Observed for $response {
            fn result_code(&self) -> Option<&str> {
                Some(self.result.code.as_str())
            }
        }
    )*};
}

observed_by_result!(
    Transaction,
    SignedUp,
    Registered,
    Deleted,
    StoredRegistrations,
    AuthTokenGrant
);

impl Observed for InvoicePage {
    fn result_code(&self) -> Option<&str> {
        self.result.as_ref().map(|result| result.code.as_str())
    }
}

impl Observed for InstallmentPlans {
    /// The gateway's installment answer carries no result.
    fn result_code(&self) -> Option<&str> {
        None
    }
}
