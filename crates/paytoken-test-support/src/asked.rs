//! The request each response fixture under `fixtures/responses/` answers, and the sample
//! operations beside the full payment: shared by the protocol's tests and benchmarks.

use paytoken_protocol::AuthToken;
use paytoken_protocol::Username;
use paytoken_protocol::ops::auth_token::{FetchAuthToken, RegenerateAuthToken};
use paytoken_protocol::ops::cancel::Cancel;
use paytoken_protocol::ops::capture::Capture;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::delete_token::DeleteToken;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::installments::Installments;
use paytoken_protocol::ops::invoice_list::InvoiceList;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::refund::Refund;
use paytoken_protocol::ops::registration::Registration;
use paytoken_protocol::ops::repeat_payment::RepeatPayment;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_types::Card;

use crate::payment::{REGISTRATION, TOKEN, card, customer};

/// A pre-authorisation of 9.99 USD with the sample card, without its holder.
pub fn minimal_preauthorization() -> Payment {
    Payment::new(
        "order1002".parse().unwrap(),
        "9.99".parse().unwrap(),
        "USD".parse().unwrap(),
        Card {
            holder: None,
            ..card()
        },
    )
    .preauthorization()
}

/// A token payment of 25.00 EUR with the sample registration.
pub fn token_payment() -> TokenPayment {
    TokenPayment::new(
        REGISTRATION.parse().unwrap(),
        "25.00".parse().unwrap(),
        "EUR".parse().unwrap(),
    )
}

/// The request each response fixture answers: the operation whose values the fixture's
/// echoes agree with. Tests parse a fixture with the operation that asked for it.
#[derive(Debug)]
pub enum Asked {
    /// Asked by `Payment`.
    Payment(Payment),
    /// Asked by `TokenPayment`.
    TokenPayment(TokenPayment),
    /// Asked by `Registration`.
    Registration(Registration),
    /// Asked by `CustomerSignup`.
    CustomerSignup(CustomerSignup),
    /// Asked by `DeleteToken`.
    DeleteToken(DeleteToken),
    /// Asked by `Installments`.
    Installments(Installments),
    /// Asked by `CardsAndAccounts`.
    CardsAndAccounts(CardsAndAccounts),
    /// Asked by `InvoiceList`.
    InvoiceList(InvoiceList),
    /// Asked by `FetchAuthToken`.
    FetchAuthToken(FetchAuthToken),
    /// Asked by `RegenerateAuthToken`.
    RegenerateAuthToken(RegenerateAuthToken),
    /// Asked by `Inquiry`.
    Inquiry(Inquiry),
    /// Asked by `Capture`.
    Capture(Capture),
    /// Asked by `Refund`.
    Refund(Refund),
    /// Asked by `Cancel`.
    Cancel(Cancel),
    /// Asked by `RepeatPayment`.
    RepeatPayment(RepeatPayment),
}

/// A payment of `amount` in `currency` with the golden payment's merchant transaction id.
fn payment_of(amount: &str, currency: &str) -> Payment {
    Payment::new(
        "order20261122A".parse().unwrap(),
        amount.parse().unwrap(),
        currency.parse().unwrap(),
        card(),
    )
}

/// The operation that asked for the fixture at `path` (under `fixtures/responses/`).
pub fn asked(path: &str) -> Asked {
    let registration = || REGISTRATION.parse().unwrap();
    let fetch = || FetchAuthToken::new("100".parse().unwrap(), Username::new("shop").unwrap());
    match path
        .split_once('/')
        .map_or(path, |(operation, _)| operation)
    {
        "payment" => Asked::Payment(match path {
            "payment/approved.json" => payment_of("1250.50", "EUR"),
            "payment/approved_varied.json" => Payment::new(
                "Rest Transaction 01".parse().unwrap(),
                "50.00".parse().unwrap(),
                "EUR".parse().unwrap(),
                card(),
            ),
            "payment/approved_partner.json" => payment_of("9.99", "USD"),
            _ => payment_of("50.00", "EUR"),
        }),
        "token_payment" => Asked::TokenPayment(token_payment()),
        "registration" => Asked::Registration(Registration::card(card())),
        "customer_signup" => Asked::CustomerSignup(CustomerSignup::new(customer())),
        "delete_token" => Asked::DeleteToken(DeleteToken::new(registration())),
        "installments" => Asked::Installments(Installments::new(registration())),
        "cards_and_accounts" => Asked::CardsAndAccounts(match path {
            "cards_and_accounts/success.json" => {
                CardsAndAccounts::of_customer("1250".parse().unwrap())
            }
            _ => CardsAndAccounts::all(),
        }),
        "invoice_list" => Asked::InvoiceList(InvoiceList::new(1, 10)),
        "auth_token" if path.contains("regenerated") => {
            Asked::RegenerateAuthToken(RegenerateAuthToken {
                partner_id: "100".parse().unwrap(),
                token: AuthToken::new(TOKEN).unwrap(),
            })
        }
        "auth_token" => Asked::FetchAuthToken(fetch()),
        "inquiry" => Asked::Inquiry(match path {
            "inquiry/no_status.json" => Inquiry::ByPaymentId("54281".parse().unwrap()),
            _ => Inquiry::ByMerchantTransactionId("order20261122A".parse().unwrap()),
        }),
        "capture" => Asked::Capture(Capture::new(
            "54280".parse().unwrap(),
            "9.99".parse().unwrap(),
            "EUR".parse().unwrap(),
        )),
        "refund" => Asked::Refund(Refund::new(
            "54279".parse().unwrap(),
            "250.50".parse().unwrap(),
            "EUR".parse().unwrap(),
        )),
        "cancel" => Asked::Cancel(Cancel::new("54280".parse().unwrap())),
        "repeat_payment" => Asked::RepeatPayment(
            RepeatPayment::new(
                "54279".parse().unwrap(),
                "9.99".parse().unwrap(),
                "EUR".parse().unwrap(),
            )
            .merchant_transaction_id("Rest Transaction 02".parse().unwrap()),
        ),
        other => panic!("no operation for fixtures of {other}"),
    }
}
