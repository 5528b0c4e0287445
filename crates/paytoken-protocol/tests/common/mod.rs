//! Sample contexts and operations shared by the tests and the benchmarks.

use std::net::{IpAddr, Ipv4Addr};

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
use paytoken_protocol::{AuthToken, Context, Operation, Request, Username};
use paytoken_types::{BankAccount, Customer, Cvv, RecurringType, Shipping};

#[allow(unused_imports, reason = "each test binary uses a part of the samples")]
pub(crate) use paytoken_test_support::asked::{
    Asked, asked, minimal_preauthorization, token_payment,
};
#[allow(unused_imports, reason = "each test binary uses a part of the samples")]
pub(crate) use paytoken_test_support::payment::{
    PARTNER_KEY, REGISTRATION, SECURE_KEY, TOKEN, card, customer, full_payment, merchant, partner,
    shipping,
};

/// Every operation, by the name of its golden file, with the context it is built in.
pub(crate) fn golden_requests() -> Vec<(&'static str, Request)> {
    requests_in(&merchant(), &partner())
}

/// The golden requests' operations built with `merchant` where the golden files have the
/// merchant's context and `partner` where they have the partner's.
pub(crate) fn requests_in(merchant: &Context, partner: &Context) -> Vec<(&'static str, Request)> {
    let signup = CustomerSignup::new(Customer {
        ip: None,
        telnocc: None,
        customer_id: None,
        ..customer()
    })
    .shipping(Shipping {
        country: Some("DE".parse().unwrap()),
        postcode: Some("80331".into()),
        ..Shipping::default()
    });
    let account = BankAccount {
        iban: "DE89 3704 0044 0532 0130 00".parse().unwrap(),
        bic: "DEUTDEFF".parse().unwrap(),
        holder: Some("Zoë O'Neil".into()),
    };
    let registration_shipping = Shipping {
        given_name: Some("Zoë".into()),
        surname: Some("O'Neil".into()),
        ..shipping()
    };
    let registration_customer = Customer {
        given_name: None,
        surname: None,
        sex: None,
        ..customer()
    };
    let fetch = FetchAuthToken::new("100".parse().unwrap(), Username::new("shop.admin").unwrap());
    vec![
        ("customer_signup", signup.request(merchant).unwrap()),
        ("customer_signup_partner", signup.request(partner).unwrap()),
        ("payment", full_payment().request(merchant).unwrap()),
        (
            "payment_preauthorization",
            minimal_preauthorization().request(merchant).unwrap(),
        ),
        (
            "registration_card",
            Registration::card(card())
                .customer(registration_customer.clone())
                .shipping(registration_shipping.clone())
                .request(merchant)
                .unwrap(),
        ),
        (
            "registration_bank_account",
            Registration::bank_account(account)
                .customer(registration_customer)
                .shipping(registration_shipping)
                .request(merchant)
                .unwrap(),
        ),
        ("token_payment", token_payment().request(merchant).unwrap()),
        (
            "token_payment_initial",
            token_payment()
                .recurring(RecurringType::Initial)
                .merchant_transaction_id("order1003".parse().unwrap())
                .cvv(Cvv::new("745").unwrap())
                .customer_ip(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 17)))
                .request(merchant)
                .unwrap(),
        ),
        (
            "token_payment_repeated_installment",
            token_payment()
                .preauthorization()
                .recurring(RecurringType::Repeated)
                .installment(3)
                .request(merchant)
                .unwrap(),
        ),
        (
            "delete_token",
            DeleteToken::new(REGISTRATION.parse().unwrap())
                .request(merchant)
                .unwrap(),
        ),
        (
            "installments",
            Installments::new(REGISTRATION.parse().unwrap())
                .request(merchant)
                .unwrap(),
        ),
        (
            "cards_and_accounts",
            CardsAndAccounts::all().request(merchant).unwrap(),
        ),
        (
            "cards_and_accounts_partner_customer",
            CardsAndAccounts::of_customer("1250".parse().unwrap())
                .request(partner)
                .unwrap(),
        ),
        (
            "invoice_list",
            InvoiceList::new(2, 25).request(merchant).unwrap(),
        ),
        ("auth_token_merchant", fetch.request(merchant).unwrap()),
        (
            "auth_token_partner",
            FetchAuthToken::new(
                "100".parse().unwrap(),
                Username::new("partner.admin").unwrap(),
            )
            .request(partner)
            .unwrap(),
        ),
        (
            "regenerate_auth_token",
            RegenerateAuthToken {
                partner_id: "100".parse().unwrap(),
                token: AuthToken::new(TOKEN).unwrap(),
            }
            .request(merchant)
            .unwrap(),
        ),
        (
            "inquiry_by_payment_id",
            Inquiry::ByPaymentId("54279".parse().unwrap())
                .request(merchant)
                .unwrap(),
        ),
        (
            "inquiry_by_merchant_transaction_id",
            Inquiry::ByMerchantTransactionId("order20261122A".parse().unwrap())
                .request(merchant)
                .unwrap(),
        ),
        // The documentation's own sample ids, signed and sent exactly as given; in a path,
        // percent-encoded, while the checksum signs the raw text.
        (
            "payment_sample_id",
            Payment::new(
                "Rest Transaction 01".parse().unwrap(),
                "50.00".parse().unwrap(),
                "EUR".parse().unwrap(),
                card(),
            )
            .request(merchant)
            .unwrap(),
        ),
        // Every character the form encoding treats apart (`~ * + & = %`, a space) and text
        // beyond ASCII, in a value: the body encodes them, the checksum signs them as is.
        (
            "payment_reserved_characters",
            Payment::new(
                "order~1*2+3&4=5%6 Zoë".parse().unwrap(),
                "12.34".parse().unwrap(),
                "EUR".parse().unwrap(),
                card(),
            )
            .request(merchant)
            .unwrap(),
        ),
        (
            "token_payment_sample_id",
            token_payment()
                .merchant_transaction_id("10thOct2016-029751".parse().unwrap())
                .request(merchant)
                .unwrap(),
        ),
        (
            "inquiry_by_sample_id_with_space_and_slash",
            Inquiry::ByMerchantTransactionId("Test Transaction01/ORD-2026:7".parse().unwrap())
                .request(merchant)
                .unwrap(),
        ),
        (
            "capture",
            Capture::new(
                "54280".parse().unwrap(),
                "9.99".parse().unwrap(),
                "EUR".parse().unwrap(),
            )
            .request(merchant)
            .unwrap(),
        ),
        (
            "refund_partial",
            Refund::new(
                "54279".parse().unwrap(),
                "250.50".parse().unwrap(),
                "EUR".parse().unwrap(),
            )
            .request(merchant)
            .unwrap(),
        ),
        (
            "cancel",
            Cancel::new("54280".parse().unwrap())
                .request(merchant)
                .unwrap(),
        ),
        (
            "repeat_payment",
            RepeatPayment::new(
                "54279".parse().unwrap(),
                "9.99".parse().unwrap(),
                "EUR".parse().unwrap(),
            )
            .merchant_transaction_id("Rest Transaction 02".parse().unwrap())
            .request(merchant)
            .unwrap(),
        ),
        (
            "repeat_payment_partner",
            RepeatPayment::new(
                "54279".parse().unwrap(),
                "12.00".parse().unwrap(),
                "USD".parse().unwrap(),
            )
            .preauthorization()
            .merchant_transaction_id("order1003".parse().unwrap())
            .request(partner)
            .unwrap(),
        ),
    ]
}

/// A request as a golden file shows it: the request line, the headers, a blank line, the
/// body.
pub(crate) fn render(request: &Request) -> String {
    let mut text = format!("{} {}\n", request.method().as_str(), request.path());
    for header in request.headers() {
        text.push_str(&format!("{}: {}\n", header.name(), header.value()));
    }
    text.push('\n');
    text.push_str(std::str::from_utf8(request.body()).unwrap());
    text.push('\n');
    text
}

/// Every answer fixture under `fixtures/responses/`, as `operation/case.ext` with its
/// bytes, sorted by name.
pub(crate) fn response_fixtures() -> Vec<(String, Vec<u8>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/responses");
    let mut all = Vec::new();
    for operation in std::fs::read_dir(&root).unwrap() {
        let operation = operation.unwrap().path();
        for case in std::fs::read_dir(&operation).unwrap() {
            let case = case.unwrap().path();
            let name = format!(
                "{}/{}",
                operation.file_name().unwrap().to_str().unwrap(),
                case.file_name().unwrap().to_str().unwrap()
            );
            all.push((name, std::fs::read(&case).unwrap()));
        }
    }
    all.sort();
    all
}

/// What decides an answer, written out so two readings can be compared: the outcome, the
/// ids and the codes, never an incidental field.
pub(crate) fn verdict(asked: &Asked, status: u16, body: &[u8]) -> String {
    fn show<R: std::fmt::Debug>(
        result: Result<R, paytoken_protocol::Error>,
        decide: impl Fn(&R) -> String,
    ) -> String {
        match result {
            Ok(response) => format!("ok {}", decide(&response)),
            Err(error) => match error.refusal() {
                Some(refusal) => format!("refused {}", refusal.result.code),
                None => format!("error {}", variant(&error)),
            },
        }
    }
    fn variant(error: &paytoken_protocol::Error) -> String {
        format!("{error:?}")
            .split([' ', '{', '('])
            .next()
            .unwrap_or_default()
            .to_owned()
    }
    match asked {
        Asked::Payment(op) => show(op.parse(status, body), transaction),
        Asked::TokenPayment(op) => show(op.parse(status, body), transaction),
        Asked::Inquiry(op) => show(op.parse(status, body), transaction),
        Asked::Capture(op) => show(op.parse(status, body), transaction),
        Asked::Refund(op) => show(op.parse(status, body), transaction),
        Asked::Cancel(op) => show(op.parse(status, body), transaction),
        Asked::RepeatPayment(op) => show(op.parse(status, body), transaction),
        Asked::Registration(op) => show(op.parse(status, body), |r| {
            format!("{} {}", r.registration_id, r.result.code)
        }),
        Asked::CustomerSignup(op) => show(op.parse(status, body), |r| {
            format!("{} {}", r.customer_id, r.result.code)
        }),
        Asked::DeleteToken(op) => show(op.parse(status, body), |r| r.result.code.to_string()),
        Asked::Installments(op) => show(op.parse(status, body), |r| format!("{:?}", r.counts)),
        Asked::CardsAndAccounts(op) => show(op.parse(status, body), |r| {
            format!(
                "{} {} {}",
                r.result.code,
                r.cards.len(),
                r.bank_accounts.len()
            )
        }),
        Asked::InvoiceList(op) => show(op.parse(status, body), |r| {
            format!(
                "{:?} {}",
                r.result.as_ref().map(|r| r.code.to_string()),
                r.invoices.len()
            )
        }),
        Asked::FetchAuthToken(op) => show(op.parse(status, body), |r| {
            format!("{} {}", r.token.expose_secret(), r.result.code)
        }),
        Asked::RegenerateAuthToken(op) => show(op.parse(status, body), |r| {
            format!("{} {}", r.token.expose_secret(), r.result.code)
        }),
    }
}

fn transaction(tx: &paytoken_protocol::Transaction) -> String {
    format!(
        "{} {:?} {} {:?}",
        tx.payment_id, tx.status, tx.result.code, tx.transaction_status
    )
}
