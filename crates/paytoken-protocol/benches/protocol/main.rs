//! Building, signing and parsing every operation; a 100-invoice list; and a typical
//! hand-written baseline for the payment, measured in the same run.
//!
//! Budgets (issue "Sans-IO protocol"): build + sign + parse of a payment ≤ 1.8 µs and at
//! least 1.6 times faster than the baseline; a 100-invoice list ≤ 150 µs.
#![allow(
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc,
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing
)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use paytoken_protocol::ops::auth_token::FetchAuthToken;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::delete_token::DeleteToken;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::installments::Installments;
use paytoken_protocol::ops::invoice_list::InvoiceList;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::registration::Registration;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{Operation, PaymentStatus, Username};

#[path = "../../tests/common/mod.rs"]
mod common;

mod baseline;

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../../fixtures/responses/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Build + sign + parse of a payment: the full 38-field payment of the golden file, and the
/// approved answer of the fixtures; beside it, the hand-written baseline on the same data.
fn payment_round_trip(c: &mut Criterion) {
    let context = common::merchant();
    let payment = common::full_payment();
    let answer = fixture("payment/approved.json");
    let mut group = c.benchmark_group("protocol/payment_round_trip");
    group.bench_function("paytoken", |b| {
        b.iter(|| {
            let request = black_box(&payment).request(black_box(&context)).unwrap();
            black_box(&request.body);
            let transaction = Payment::parse(200, black_box(&answer)).unwrap();
            assert_eq!(transaction.status, PaymentStatus::Approved);
            transaction
        });
    });
    let input = baseline::PaymentInput::sample();
    // The baseline does the same work: the same bytes on the wire.
    assert_eq!(
        baseline::build_payment(&input).as_bytes(),
        payment.request(&context).unwrap().body.as_slice()
    );
    group.bench_function("baseline_hand_written", |b| {
        b.iter(|| {
            let body = baseline::build_payment(black_box(&input));
            black_box(&body);
            let answer = baseline::parse_payment(black_box(&answer));
            assert!(answer.approved);
            answer
        });
    });
    // A lighter payment: card and amount only, and the short answer of a plain approval.
    let minimal = common::minimal_preauthorization();
    let short_answer = fixture("payment/approved_partner.json");
    group.bench_function("paytoken_minimal", |b| {
        b.iter(|| {
            let request = black_box(&minimal).request(black_box(&context)).unwrap();
            black_box(&request.body);
            Payment::parse(200, black_box(&short_answer)).unwrap()
        });
    });
    group.finish();
}

fn requests(c: &mut Criterion) {
    let context = common::merchant();
    let mut group = c.benchmark_group("protocol/request");
    let signup = CustomerSignup::new(common::customer());
    let fetch = FetchAuthToken::new("100".parse().unwrap(), Username::new("shop.admin").unwrap());
    let inquiry = Inquiry::ByMerchantTransactionId("order20261122A".parse().unwrap());
    let operations: [(&str, &dyn Build); 11] = [
        ("customer_signup", &signup),
        ("auth_token", &fetch),
        ("inquiry", &inquiry),
        ("payment_full", &common::full_payment()),
        ("payment_minimal", &common::minimal_preauthorization()),
        ("registration_card", &Registration::card(common::card())),
        ("token_payment", &common::token_payment()),
        (
            "delete_token",
            &DeleteToken::new(common::REGISTRATION.parse().unwrap()),
        ),
        (
            "installments",
            &Installments::new(common::REGISTRATION.parse().unwrap()),
        ),
        ("cards_and_accounts", &CardsAndAccounts::all()),
        ("invoice_list", &InvoiceList::new(1, 25)),
    ];
    for (name, operation) in operations {
        group.bench_function(name, |b| {
            b.iter(|| black_box(operation).build(black_box(&context)))
        });
    }
    group.finish();
}

/// Object-safe building, for the table above.
trait Build {
    fn build(&self, context: &paytoken_protocol::Context) -> usize;
}

impl<O: Operation> Build for O {
    fn build(&self, context: &paytoken_protocol::Context) -> usize {
        self.request(context).unwrap().body.len()
    }
}

/// A fixture and the check that its parser gives what it should.
type ParseCase = (&'static str, fn(&[u8]) -> bool);

fn responses(c: &mut Criterion) {
    let mut group = c.benchmark_group("protocol/parse");
    let cases: [ParseCase; 13] = [
        ("customer_signup/success.json", |b| {
            CustomerSignup::parse(200, b).is_ok()
        }),
        ("registration/card.json", |b| {
            Registration::parse(200, b).is_ok()
        }),
        ("delete_token/success.json", |b| {
            DeleteToken::parse(200, b).is_ok()
        }),
        ("auth_token/merchant.json", |b| {
            FetchAuthToken::parse(200, b).is_ok()
        }),
        ("inquiry/approved.json", |b| Inquiry::parse(200, b).is_ok()),
        ("payment/approved.json", |b| Payment::parse(200, b).is_ok()),
        ("payment/three_d_secure.json", |b| {
            Payment::parse(200, b).is_ok()
        }),
        ("payment/refused_validation.json", |b| {
            Payment::parse(200, b).is_err()
        }),
        ("token_payment/approved.json", |b| {
            TokenPayment::parse(200, b).is_ok()
        }),
        ("installments/success.json", |b| {
            Installments::parse(200, b).is_ok()
        }),
        ("cards_and_accounts/success.json", |b| {
            CardsAndAccounts::parse(200, b).is_ok()
        }),
        ("invoice_list/position_map.json", |b| {
            InvoiceList::parse(200, b).is_ok()
        }),
        ("payment/bad_gateway_502.html", |b| {
            Payment::parse(502, b).is_err()
        }),
    ];
    for (path, parse) in cases {
        let body = fixture(path);
        assert!(parse(&body), "{path}");
        group.bench_function(path, |b| b.iter(|| parse(black_box(&body))));
    }
    group.finish();
}

/// A page of 100 invoices, every field filled, in the array shape and in the irregular
/// position-map shape.
fn hundred_invoices(c: &mut Criterion) {
    let invoice = |i: u32| {
        format!(
            r#""amount":"{i}.50","currency":"EUR","expirationPeriod":"7","createdDate":"2018-07-26 17:10:06.0","systemInvoiceId":"INV-{i}","transactionUrl":"https:\/\/gw.example\/invoice\/{i}","invoiceStatus":"processed","transactionStatus":"capturesuccess""#
        )
    };
    let spilled = |i: u32| {
        format!(
            r#""customerDetails":{{"customername":"Customer {i}","customeraddress":"Street {i}, City","customermobileno":"555{i:04}","customeremail":"c{i}@example.com"}},"raiseby":"shop","orderId":"A{i}","orderDescription":"Order {i}","trackingid":"T{i}","dtstamp":"15326{i:05}""#
        )
    };
    let array: Vec<String> = (0..100)
        .map(|i| format!("{{{},{}}}", invoice(i), spilled(i)))
        .collect();
    let array = format!(
        r#"{{"memberId":"11344","invoiceList":[{}]}}"#,
        array.join(",")
    );
    let map: Vec<String> = (0..100)
        .map(|i| format!(r#""{i} ":{{{}}},{}"#, invoice(i), spilled(i)))
        .collect();
    let map = format!(
        r#"{{"memberId":"11344","invoiceList":{{{}}}}}"#,
        map.join(",")
    );
    let mut group = c.benchmark_group("protocol/parse_100_invoices");
    for (name, body) in [("array", array), ("position_map", map)] {
        let page = InvoiceList::parse(200, body.as_bytes()).unwrap();
        assert_eq!(page.invoices.len(), 100);
        assert_eq!(page.invoices[99].order_id.as_deref(), Some("A99"));
        group.bench_function(name, |b| {
            b.iter(|| {
                InvoiceList::parse(200, black_box(body.as_bytes()))
                    .unwrap()
                    .invoices
                    .len()
            });
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    payment_round_trip,
    requests,
    responses,
    hundred_invoices
);
criterion_main!(benches);
