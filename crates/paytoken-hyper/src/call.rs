//! What the client's one call loop needs of an operation: its request, its answer, and
//! the ids and result code its log names.

use paytoken_protocol::ops::Operation;
use paytoken_protocol::ops::auth_token::AuthTokenGrant;
use paytoken_protocol::ops::cancel::Cancel;
use paytoken_protocol::ops::capture::Capture;
use paytoken_protocol::ops::cards_and_accounts::StoredRegistrations;
use paytoken_protocol::ops::customer_signup::SignedUp;
use paytoken_protocol::ops::delete_token::Deleted;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::installments::InstallmentPlans;
use paytoken_protocol::ops::invoice_list::InvoicePage;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::refund::Refund;
use paytoken_protocol::ops::registration::Registered;
use paytoken_protocol::ops::repeat_payment::RepeatPayment;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{Context, Error, InvoicePager, OperationKind, Request, Transaction};
use paytoken_types::{GatewayResult, PaymentId};

use crate::span::CallIds;

/// One call: an operation of the protocol crate, or the next page of a pager.
pub(crate) trait Call: Send {
    type Response: Observed;
    fn kind(&self) -> OperationKind;
    fn ids(&self) -> CallIds<'_>;
    fn request(&self, context: &Context) -> Result<Request, Error>;
    fn parse(&mut self, status: u16, body: &[u8]) -> Result<Self::Response, Error>;
}

/// An operation of the protocol crate.
pub(crate) struct Op<'a, O>(pub(crate) &'a O);

impl<O> Call for Op<'_, O>
where
    O: Operation + Identified + Sync,
    O::Response: Observed,
{
    type Response = O::Response;

    fn kind(&self) -> OperationKind {
        O::KIND
    }

    fn ids(&self) -> CallIds<'_> {
        self.0.ids()
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

    fn ids(&self) -> CallIds<'_> {
        CallIds::default()
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

/// What the log of a call names from its answer: the result code, and the payment id;
/// and the result whose free text the call loop masks.
pub(crate) trait Observed {
    fn result_code(&self) -> Option<&str>;

    fn result_mut(&mut self) -> Option<&mut GatewayResult>;

    fn payment_id(&self) -> Option<PaymentId> {
        None
    }
}

macro_rules! observed_by_result {
    ($($response:ty),*) => {$(
        impl Observed for $response {
            fn result_code(&self) -> Option<&str> {
                Some(self.result.code.as_str())
            }

            fn result_mut(&mut self) -> Option<&mut GatewayResult> {
                Some(&mut self.result)
            }
        }
    )*};
}

impl Observed for Transaction {
    fn result_code(&self) -> Option<&str> {
        Some(self.result.code.as_str())
    }

    fn result_mut(&mut self) -> Option<&mut GatewayResult> {
        Some(&mut self.result)
    }

    fn payment_id(&self) -> Option<PaymentId> {
        Some(self.payment_id)
    }
}

observed_by_result!(
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

    fn result_mut(&mut self) -> Option<&mut GatewayResult> {
        self.result.as_mut()
    }
}

impl Observed for InstallmentPlans {
    /// The gateway's installment answer carries no result.
    fn result_code(&self) -> Option<&str> {
        None
    }

    fn result_mut(&mut self) -> Option<&mut GatewayResult> {
        None
    }
}

/// The ids an operation is about, known before it is sent, for its log.
pub(crate) trait Identified {
    fn ids(&self) -> CallIds<'_> {
        CallIds::default()
    }
}

impl Identified for Payment {
    fn ids(&self) -> CallIds<'_> {
        CallIds {
            merchant_transaction_id: Some(&self.merchant_transaction_id),
            payment_id: None,
        }
    }
}

impl Identified for TokenPayment {
    fn ids(&self) -> CallIds<'_> {
        CallIds {
            merchant_transaction_id: self.merchant_transaction_id.as_ref(),
            payment_id: None,
        }
    }
}

impl Identified for RepeatPayment {
    fn ids(&self) -> CallIds<'_> {
        CallIds {
            merchant_transaction_id: self.merchant_transaction_id.as_ref(),
            payment_id: None,
        }
    }
}

impl Identified for Inquiry {
    fn ids(&self) -> CallIds<'_> {
        match self {
            Self::ByPaymentId(id) => CallIds {
                merchant_transaction_id: None,
                payment_id: Some(*id),
            },
            Self::ByMerchantTransactionId(id) => CallIds {
                merchant_transaction_id: Some(id),
                payment_id: None,
            },
            _ => CallIds::default(),
        }
    }
}

/// The moves of the back office name the payment they move.
macro_rules! identified_by_payment {
    ($($operation:ty),*) => {$(
        impl Identified for $operation {
            fn ids(&self) -> CallIds<'_> {
                CallIds {
                    merchant_transaction_id: None,
                    payment_id: Some(self.payment_id),
                }
            }
        }
    )*};
}

identified_by_payment!(Capture, Refund, Cancel);

/// The calls about no order or payment of their own.
macro_rules! identified_by_nothing {
    ($($operation:ty),*) => {$(
        impl Identified for $operation {}
    )*};
}

identified_by_nothing!(
    paytoken_protocol::ops::customer_signup::CustomerSignup,
    paytoken_protocol::ops::registration::Registration,
    paytoken_protocol::ops::delete_token::DeleteToken,
    paytoken_protocol::ops::installments::Installments,
    paytoken_protocol::ops::invoice_list::InvoiceList,
    paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts,
    paytoken_protocol::ops::auth_token::FetchAuthToken,
    paytoken_protocol::ops::auth_token::RegenerateAuthToken
);
