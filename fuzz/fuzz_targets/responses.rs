//! Every response parser of the protocol, on the same bytes, with the usual statuses: none
//! may panic, whatever it is given. Seeded with `fixtures/responses`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paytoken_protocol::Operation;
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
use paytoken_protocol::{AuthToken, Username};
use paytoken_types::{Card, CardNumber, Customer, Cvv, RegistrationId};

/// The operations the answers are read against, as the fixtures' requests were.
struct Operations {
    signup: CustomerSignup,
    payment: Payment,
    registration: Registration,
    token_payment: TokenPayment,
    delete: DeleteToken,
    installments: Installments,
    cards: CardsAndAccounts,
    invoices: InvoiceList,
    fetch: FetchAuthToken,
    regenerate: RegenerateAuthToken,
    by_payment_id: Inquiry,
    by_merchant_transaction_id: Inquiry,
    capture: Capture,
    refund: Refund,
    cancel: Cancel,
    repeat: RepeatPayment,
}

fn operations() -> Option<Operations> {
    let registration: RegistrationId = "8a82944a4cc25ebf014cc2c782423202".parse().ok()?;
    let card = || -> Option<Card> {
        Some(Card {
            number: CardNumber::new("4000000000000051").ok()?,
            expiry_month: "06".parse().ok()?,
            expiry_year: "2030".parse().ok()?,
            cvv: Cvv::new("745").ok()?,
            holder: None,
        })
    };
    Some(Operations {
        signup: CustomerSignup::new(Customer::default()),
        payment: Payment::new(
            "order20261122A".parse().ok()?,
            "1250.50".parse().ok()?,
            "EUR".parse().ok()?,
            card()?,
        ),
        registration: Registration::card(card()?),
        token_payment: TokenPayment::new(registration, "25.00".parse().ok()?, "EUR".parse().ok()?),
        delete: DeleteToken::new(registration),
        installments: Installments::new(registration),
        cards: CardsAndAccounts::of_customer("1250".parse().ok()?),
        invoices: InvoiceList::new(1, 10),
        fetch: FetchAuthToken::new("100".parse().ok()?, Username::new("shop").ok()?),
        regenerate: RegenerateAuthToken {
            partner_id: "100".parse().ok()?,
            token: AuthToken::new("eyJ0.e30.c2ln").ok()?,
        },
        by_payment_id: Inquiry::ByPaymentId("54279".parse().ok()?),
        by_merchant_transaction_id: Inquiry::ByMerchantTransactionId(
            "order20261122A".parse().ok()?,
        ),
        capture: Capture::new(
            "54280".parse().ok()?,
            "9.99".parse().ok()?,
            "EUR".parse().ok()?,
        ),
        refund: Refund::new(
            "54279".parse().ok()?,
            "250.50".parse().ok()?,
            "EUR".parse().ok()?,
        ),
        cancel: Cancel::new("54280".parse().ok()?),
        repeat: RepeatPayment::new(
            "54279".parse().ok()?,
            "9.99".parse().ok()?,
            "EUR".parse().ok()?,
        )
        .merchant_transaction_id("Rest Transaction 02".parse().ok()?),
    })
}

fuzz_target!(|body: &[u8]| {
    let Some(ops) = operations() else {
        return;
    };
    for status in [200, 502] {
        let _ = ops.signup.parse(status, body);
        let _ = ops.payment.parse(status, body);
        let _ = ops.registration.parse(status, body);
        let _ = ops.token_payment.parse(status, body);
        let _ = ops.delete.parse(status, body);
        let _ = ops.installments.parse(status, body);
        let _ = ops.cards.parse(status, body);
        let _ = ops.invoices.parse(status, body);
        let _ = ops.fetch.parse(status, body);
        let _ = ops.regenerate.parse(status, body);
        let _ = ops.by_payment_id.parse(status, body);
        let _ = ops.by_merchant_transaction_id.parse(status, body);
        let _ = ops.capture.parse(status, body);
        let _ = ops.refund.parse(status, body);
        let _ = ops.cancel.parse(status, body);
        let _ = ops.repeat.parse(status, body);
    }
});
