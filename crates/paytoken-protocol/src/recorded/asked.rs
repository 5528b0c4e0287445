//! Requests recorded off the wire read back into their operations: [`asked`] takes an
//! operation's form fields as they were sent and makes the typed operation that sends
//! them, so that a binding, a replay or the conformance kit's `build` vectors go through
//! the same builders as a live call.

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use core::net::IpAddr;
use core::str::FromStr;

use paytoken_types::{
    BankAccount, Billing, Card, CardNumber, Customer, MerchantTransactionId, PaymentBrand,
    PaymentMode, PaymentType, RecurringType, Sex, Shipping,
};

use crate::ops::auth_token::{FetchAuthToken, RegenerateAuthToken};
use crate::ops::cancel::Cancel;
use crate::ops::capture::Capture;
use crate::ops::cards_and_accounts::CardsAndAccounts;
use crate::ops::customer_signup::CustomerSignup;
use crate::ops::delete_token::DeleteToken;
use crate::ops::inquiry::Inquiry;
use crate::ops::installments::Installments;
use crate::ops::invoice_list::InvoiceList;
use crate::ops::payment::Payment;
use crate::ops::refund::Refund;
use crate::ops::registration::Registration;
use crate::ops::repeat_payment::RepeatPayment;
use crate::ops::token_payment::TokenPayment;
use crate::{AuthToken, Context, Error, Operation as _, OperationKind, Request, Username, fields};

use super::Reading;

/// Any operation of the interface as one value: what [`asked`] reads back, and what a
/// binding holds. It builds its request and reads its answer as the operation does.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnyOperation {
    /// `FetchAuthToken`.
    FetchAuthToken(FetchAuthToken),
    /// `RegenerateAuthToken`.
    RegenerateAuthToken(RegenerateAuthToken),
    /// `Payment`.
    Payment(Box<Payment>),
    /// `TokenPayment`.
    TokenPayment(TokenPayment),
    /// `RepeatPayment`.
    RepeatPayment(RepeatPayment),
    /// `Capture`.
    Capture(Capture),
    /// `Refund`.
    Refund(Refund),
    /// `Cancel`.
    Cancel(Cancel),
    /// `Inquiry`.
    Inquiry(Inquiry),
    /// `Registration`.
    Registration(Box<Registration>),
    /// `CustomerSignup`.
    CustomerSignup(Box<CustomerSignup>),
    /// `DeleteToken`.
    DeleteToken(DeleteToken),
    /// `Installments`.
    Installments(Installments),
    /// `CardsAndAccounts`.
    CardsAndAccounts(CardsAndAccounts),
    /// `InvoiceList`.
    InvoiceList(InvoiceList),
}

/// `$body` for the operation inside `$any`, whichever it is.
macro_rules! each {
    ($any:expr, $op:ident => $body:expr) => {
        match $any {
            AnyOperation::FetchAuthToken($op) => $body,
            AnyOperation::RegenerateAuthToken($op) => $body,
            AnyOperation::Payment($op) => $body,
            AnyOperation::TokenPayment($op) => $body,
            AnyOperation::RepeatPayment($op) => $body,
            AnyOperation::Capture($op) => $body,
            AnyOperation::Refund($op) => $body,
            AnyOperation::Cancel($op) => $body,
            AnyOperation::Inquiry($op) => $body,
            AnyOperation::Registration($op) => $body,
            AnyOperation::CustomerSignup($op) => $body,
            AnyOperation::DeleteToken($op) => $body,
            AnyOperation::Installments($op) => $body,
            AnyOperation::CardsAndAccounts($op) => $body,
            AnyOperation::InvoiceList($op) => $body,
        }
    };
}

/// An operation's kind, asked of a value: a method, so that a boxed one answers too.
trait Kind {
    fn kind(&self) -> OperationKind;
}

impl<O: crate::Operation> Kind for O {
    fn kind(&self) -> OperationKind {
        O::KIND
    }
}

impl AnyOperation {
    /// Which operation it is.
    #[must_use]
    pub fn kind(&self) -> OperationKind {
        each!(self, op => op.kind())
    }

    /// The signed request, as the operation's [`Operation::request`](crate::Operation::request)
    /// builds it.
    ///
    /// # Errors
    /// As the operation's.
    pub fn request(&self, context: &Context) -> Result<Request, Error> {
        each!(self, op => op.request(context))
    }

    /// Its answer, read as the operation's [`Operation::parse`](crate::Operation::parse)
    /// reads it.
    ///
    /// # Errors
    /// As the operation's.
    pub fn parse(&self, status: u16, body: &[u8]) -> Result<Reading, Error> {
        let paid = |paid| Reading::Transaction(Box::new(paid));
        Ok(match self {
            Self::FetchAuthToken(op) => Reading::AuthToken(op.parse(status, body)?),
            Self::RegenerateAuthToken(op) => Reading::AuthToken(op.parse(status, body)?),
            Self::Payment(op) => paid(op.parse(status, body)?),
            Self::TokenPayment(op) => paid(op.parse(status, body)?),
            Self::RepeatPayment(op) => paid(op.parse(status, body)?),
            Self::Capture(op) => paid(op.parse(status, body)?),
            Self::Refund(op) => paid(op.parse(status, body)?),
            Self::Cancel(op) => paid(op.parse(status, body)?),
            Self::Inquiry(op) => paid(op.parse(status, body)?),
            Self::Registration(op) => Reading::Registered(op.parse(status, body)?),
            Self::CustomerSignup(op) => Reading::SignedUp(op.parse(status, body)?),
            Self::DeleteToken(op) => Reading::Deleted(op.parse(status, body)?),
            Self::Installments(op) => Reading::Installments(op.parse(status, body)?),
            Self::CardsAndAccounts(op) => Reading::CardsAndAccounts(op.parse(status, body)?),
            Self::InvoiceList(op) => Reading::Invoices(op.parse(status, body)?),
        })
    }
}

/// The caller's fields, which the context writes, not the operation: what [`asked`]
/// leaves out (but for the auth-token requests, whose partner id is their own).
const CONTEXT_FIELDS: [&str; 6] = [
    "authentication.memberId",
    "authentication.partnerId",
    "authentication.accountId",
    "authentication.terminalId",
    "authentication.checksum",
    "authentication.sKey",
];

/// The operation `kind` that sends `fields` (its form as sent; the checksum and the
/// caller's own fields are the context's), the id its path ends with being `path_id`.
///
/// ```
/// use paytoken_protocol::OperationKind;
/// use paytoken_protocol::recorded::asked;
///
/// let refund = asked(
///     OperationKind::Refund,
///     Some("54279"),
///     [("paymentType", "RF"), ("amount", "20.00"), ("currency", "EUR")],
/// )?;
/// assert_eq!(refund.kind(), OperationKind::Refund);
/// # Ok::<(), paytoken_protocol::Error>(())
/// ```
///
/// # Errors
/// [`Error::Value`] or [`Error::Invalid`] naming a field of the wrong form or a required
/// one missing; [`Error::Invalid`] for `form` when a field is one the operation never
/// sends, and for `path` when it needs an id and has none.
pub fn asked<'a>(
    kind: OperationKind,
    path_id: Option<&str>,
    fields: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<AnyOperation, Error> {
    let own_partner = !kind.sends_auth_token();
    let mut form = Form(
        fields
            .into_iter()
            .filter(|(name, _)| {
                !CONTEXT_FIELDS.contains(name)
                    || (own_partner && *name == "authentication.partnerId")
            })
            .collect(),
    );
    let path = || {
        path_id.ok_or(Error::Invalid {
            field: "path",
            reason: "names no id",
        })
    };
    let asked = match kind {
        OperationKind::AuthToken => {
            let username = match form.take("merchant.username") {
                Some(name) => name,
                None => form.required_text("partner.userName")?,
            };
            AnyOperation::FetchAuthToken(FetchAuthToken::new(
                form.required("authentication.partnerId")?,
                Username::new(username)?,
            ))
        }
        OperationKind::RegenerateAuthToken => {
            let token = AuthToken::new(form.required_text(fields::AUTH_TOKEN)?)?;
            AnyOperation::RegenerateAuthToken(RegenerateAuthToken::new(
                form.required("authentication.partnerId")?,
                token,
            ))
        }
        OperationKind::Payment => AnyOperation::Payment(Box::new(form.payment()?)),
        OperationKind::TokenPayment => {
            let mut payment = TokenPayment::new(
                parse(path()?)?,
                form.required("amount")?,
                form.required("currency")?,
            );
            form.charge_type(&mut payment.payment_type);
            payment.merchant_transaction_id = form.optional("merchantTransactionId")?;
            payment.recurring_type = form.take("recurringType").map(RecurringType::from_wire);
            payment.installment = form.number("installment")?;
            payment.cvv = form.optional(fields::CARD_CVV)?;
            payment.customer_ip = form.ip()?;
            payment.merchant_redirect_url = form.text("merchantRedirectUrl");
            AnyOperation::TokenPayment(payment)
        }
        OperationKind::RepeatPayment => {
            let mut payment = RepeatPayment::new(
                parse(path()?)?,
                form.required("amount")?,
                form.required("currency")?,
            );
            form.charge_type(&mut payment.payment_type);
            payment.merchant_transaction_id = form.optional("merchantTransactionId")?;
            // `REPEATED`, which the operation always sends.
            form.take("recurringType");
            AnyOperation::RepeatPayment(payment)
        }
        OperationKind::Capture | OperationKind::Refund => {
            form.take("paymentType");
            let id = parse(path()?)?;
            let (amount, currency) = (form.required("amount")?, form.required("currency")?);
            if kind == OperationKind::Capture {
                AnyOperation::Capture(Capture::new(id, amount, currency))
            } else {
                AnyOperation::Refund(Refund::new(id, amount, currency))
            }
        }
        OperationKind::Cancel => {
            form.take("paymentType");
            AnyOperation::Cancel(Cancel::new(parse(path()?)?))
        }
        OperationKind::Inquiry => AnyOperation::Inquiry(match form.take_kind("idType") {
            Some("MID") => Inquiry::ByMerchantTransactionId(MerchantTransactionId::new(path()?)?),
            _ => Inquiry::ByPaymentId(parse(path()?)?),
        }),
        OperationKind::Registration => AnyOperation::Registration(Box::new(form.registration()?)),
        OperationKind::CustomerSignup => {
            let mut signup = CustomerSignup::new(form.customer()?.unwrap_or_default());
            signup.shipping = form.shipping()?;
            AnyOperation::CustomerSignup(Box::new(signup))
        }
        OperationKind::DeleteToken => {
            form.take("paymentType");
            AnyOperation::DeleteToken(DeleteToken::new(parse(path()?)?))
        }
        OperationKind::Installments => {
            AnyOperation::Installments(Installments::new(parse(path()?)?))
        }
        OperationKind::CardsAndAccounts => AnyOperation::CardsAndAccounts(CardsAndAccounts {
            customer_id: form.optional("customer.customerId")?,
        }),
        OperationKind::InvoiceList => AnyOperation::InvoiceList(InvoiceList::new(
            form.count("pagination.pageno")?,
            form.count("pagination.records")?,
        )),
    };
    form.finish()?;
    Ok(asked)
}

fn parse<T: FromStr>(text: &str) -> Result<T, Error>
where
    Error: From<T::Err>,
{
    text.parse().map_err(Error::from)
}

/// A form's fields by name, each taken once.
struct Form<'a>(BTreeMap<&'a str, &'a str>);

impl<'a> Form<'a> {
    fn take(&mut self, name: &str) -> Option<&'a str> {
        self.0.remove(name)
    }

    /// `name`, with the `paymentType` that every such operation sends taken too.
    fn take_kind(&mut self, name: &str) -> Option<&'a str> {
        self.take("paymentType");
        self.take(name)
    }

    fn text(&mut self, name: &str) -> Option<String> {
        self.take(name).map(ToString::to_string)
    }

    fn required_text(&mut self, name: &'static str) -> Result<&'a str, Error> {
        self.take(name).ok_or(Error::Invalid {
            field: name,
            reason: "is missing",
        })
    }

    fn required<T: FromStr>(&mut self, name: &'static str) -> Result<T, Error>
    where
        Error: From<T::Err>,
    {
        parse(self.required_text(name)?)
    }

    fn optional<T: FromStr>(&mut self, name: &str) -> Result<Option<T>, Error>
    where
        Error: From<T::Err>,
    {
        self.take(name).map(parse).transpose()
    }

    /// A count: digits, or absent.
    fn number<T: FromStr>(&mut self, name: &'static str) -> Result<Option<T>, Error> {
        self.take(name)
            .map(|text| {
                text.parse().map_err(|_| Error::Invalid {
                    field: name,
                    reason: "is not a count",
                })
            })
            .transpose()
    }

    /// A count that must be there.
    fn count(&mut self, name: &'static str) -> Result<u32, Error> {
        self.number(name)?.ok_or(Error::Invalid {
            field: name,
            reason: "is missing",
        })
    }

    /// `customer.ip`: an IPv4 or IPv6 address, or absent.
    fn ip(&mut self) -> Result<Option<IpAddr>, Error> {
        self.number("customer.ip").map_err(|_| Error::Invalid {
            field: "customer.ip",
            reason: "is not an ip address",
        })
    }

    fn charge_type(&mut self, payment_type: &mut PaymentType) {
        if let Some(text) = self.take("paymentType") {
            *payment_type = PaymentType::from_wire(text);
        }
    }

    fn payment(&mut self) -> Result<Payment, Error> {
        let mut payment = Payment::new(
            self.required("merchantTransactionId")?,
            self.required("amount")?,
            self.required("currency")?,
            self.card()?,
        );
        self.charge_type(&mut payment.payment_type);
        payment.payment_brand = self.take("paymentBrand").map(PaymentBrand::from_wire);
        if let Some(mode) = self.take("paymentMode") {
            payment.payment_mode = PaymentMode::from_wire(mode);
        }
        payment.create_registration = self.take("createRegistration") == Some("true");
        payment.recurring_type = self.take("recurringType").map(RecurringType::from_wire);
        payment.order_descriptor = self.text("orderDescriptor");
        payment.merchant_redirect_url = self.text("merchantRedirectUrl");
        payment.notification_url = self.text("notificationUrl");
        payment.tmpl_amount = self.optional("tmpl_amount")?;
        payment.tmpl_currency = self.optional("tmpl_currency")?;
        payment.customer = self.customer()?;
        payment.shipping = self.shipping()?;
        payment.billing = self.billing()?;
        Ok(payment)
    }

    fn registration(&mut self) -> Result<Registration, Error> {
        let mut registration = match self.take("bankAccount.iban") {
            Some(iban) => Registration::bank_account(BankAccount {
                iban: parse(iban)?,
                bic: self.required("bankAccount.bic")?,
                holder: self.text("bankAccount.holder"),
            }),
            None => Registration::card(self.card()?),
        };
        registration.payment_brand = self.take("paymentBrand").map(PaymentBrand::from_wire);
        registration.payment_mode = self.take("paymentMode").map(PaymentMode::from_wire);
        // `true`, which a stand-alone registration always sends.
        self.take("createRegistration");
        registration.currency = self.optional("currency")?;
        registration.customer = self.customer()?;
        registration.shipping = self.shipping()?;
        registration.billing = self.billing()?;
        Ok(registration)
    }

    fn card(&mut self) -> Result<Card, Error> {
        Ok(Card {
            number: self.required(CardNumber::FIELD)?,
            expiry_month: self.required("card.expiryMonth")?,
            expiry_year: self.required("card.expiryYear")?,
            cvv: self.required(fields::CARD_CVV)?,
            holder: self.text("card.holder"),
        })
    }

    fn customer(&mut self) -> Result<Option<Customer>, Error> {
        let customer = Customer {
            given_name: self.text("customer.givenName"),
            surname: self.text("customer.surname"),
            sex: self.take("customer.sex").map(Sex::from_wire),
            email: self.optional("customer.email")?,
            phone: self.optional("customer.phone")?,
            telnocc: self.optional("customer.telnocc")?,
            birth_date: self.optional("customer.birthDate")?,
            ip: self.ip()?,
            customer_id: self.optional("customer.customerId")?,
        };
        Ok((customer != Customer::default()).then_some(customer))
    }

    fn shipping(&mut self) -> Result<Option<Shipping>, Error> {
        let shipping = Shipping {
            country: self.optional("shipping.country")?,
            city: self.text("shipping.city"),
            state: self.text("shipping.state"),
            postcode: self.text("shipping.postcode"),
            street1: self.text("shipping.street1"),
            language: self.optional("shipping.language")?,
            given_name: self.text("shipping.givenName"),
            surname: self.text("shipping.surname"),
        };
        Ok((shipping != Shipping::default()).then_some(shipping))
    }

    fn billing(&mut self) -> Result<Option<Billing>, Error> {
        let billing = Billing {
            country: self.optional("billing.country")?,
            city: self.text("billing.city"),
            state: self.text("billing.state"),
            postcode: self.text("billing.postcode"),
            street: self.text("billing.street"),
        };
        Ok((billing != Billing::default()).then_some(billing))
    }

    /// Every field was the operation's.
    fn finish(self) -> Result<(), Error> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(Error::Invalid {
                field: "form",
                reason: "holds a field this operation does not send",
            })
        }
    }
}
