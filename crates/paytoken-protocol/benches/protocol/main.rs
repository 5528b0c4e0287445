//! Building, signing and parsing every operation; a 100-invoice list; and a typical
//! hand-written baseline for the payment, measured in the same run.
//!
//! Budgets (issue "Sans-IO protocol"): build + sign + parse of a payment ≤ 1.8 µs and at
//! least 1.6 times faster than the baseline; a 100-invoice list ≤ 150 µs.
#![allow(
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
use paytoken_protocol::ops::registration::Registration;
use paytoken_protocol::{Operation, PaymentStatus, Username};

/// The samples the protocol's tests use too.
mod common {
    pub(crate) use paytoken_test_support::asked::*;
    pub(crate) use paytoken_test_support::payment::*;
}

use paytoken_test_support::{baseline, interleaved};

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
            black_box(request.body());
            let transaction = payment.parse(200, black_box(&answer)).unwrap();
            assert_eq!(transaction.status, PaymentStatus::Approved);
            transaction
        });
    });
    let input = baseline::PaymentInput::sample();
    // The baseline does the same work: the same bytes on the wire.
    assert_eq!(
        baseline::build_payment(&input).as_bytes(),
        payment.request(&context).unwrap().body().as_bytes()
    );
    // One round of the baseline, for the interleaved ratios (a closure of shared
    // references: `Copy`, handed to each).
    let baseline_round = || {
        let body = baseline::build_payment(black_box(&input));
        black_box(&body);
        black_box(baseline::parse_payment(black_box(&answer)));
    };
    group.bench_function("baseline_hand_written", |b| {
        b.iter(|| {
            let body = baseline::build_payment(black_box(&input));
            black_box(&body);
            let answer = baseline::parse_payment(black_box(&answer));
            assert!(answer.approved);
            answer
        });
    });
    interleaved::report(
        "protocol/payment_round_trip/paytoken",
        "protocol/payment_round_trip/baseline_hand_written",
        || {
            let request = black_box(&payment).request(black_box(&context)).unwrap();
            black_box(request.body());
            black_box(payment.parse(200, black_box(&answer)).unwrap());
        },
        baseline_round,
    );
    // A lighter payment: card and amount only, and the short answer of a plain approval.
    let minimal = common::minimal_preauthorization();
    let short_answer = fixture("payment/approved_partner.json");
    group.bench_function("paytoken_minimal", |b| {
        b.iter(|| {
            let request = black_box(&minimal).request(black_box(&context)).unwrap();
            black_box(request.body());
            minimal.parse(200, black_box(&short_answer)).unwrap()
        });
    });
    group.finish();
}

/// The one conversion to `http::Request`, the URL included, of the full payment.
#[cfg(feature = "http")]
fn to_http(c: &mut Criterion) {
    let context = common::merchant();
    let request = common::full_payment().request(&context).unwrap();
    let base = paytoken_protocol::BaseUrl::new("https://127.0.0.1:8443").unwrap();
    c.bench_function("protocol/to_http/payment_full", |b| {
        b.iter(|| black_box(&request).to_http(black_box(&base)).unwrap())
    });
}

#[cfg(not(feature = "http"))]
fn to_http(_: &mut Criterion) {}

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
        self.request(context).unwrap().body().len()
    }
}

/// A fixture and the check that the operation that asked for it parses it as it should.
type ParseCase = (&'static str, Box<dyn Fn(&[u8]) -> bool>);

/// The case of `path`: parsed by the operation that asked for it (`common::asked`).
fn case<O: Operation + 'static>(
    path: &'static str,
    operation: O,
    status: u16,
    ok: bool,
) -> ParseCase {
    (
        path,
        Box::new(move |body| operation.parse(status, body).is_ok() == ok),
    )
}

fn responses(c: &mut Criterion) {
    use common::Asked;
    let mut group = c.benchmark_group("protocol/parse");
    let cases: Vec<ParseCase> = [
        ("customer_signup/success.json", 200, true),
        ("registration/card.json", 200, true),
        ("delete_token/success.json", 200, true),
        ("auth_token/merchant.json", 200, true),
        ("inquiry/approved.json", 200, true),
        ("payment/approved.json", 200, true),
        ("payment/three_d_secure.json", 200, true),
        ("payment/refused_validation.json", 200, false),
        ("token_payment/approved.json", 200, true),
        ("capture/approved.json", 200, true),
        ("installments/success.json", 200, true),
        ("cards_and_accounts/success.json", 200, true),
        ("invoice_list/position_map.json", 200, true),
        ("payment/bad_gateway_502.html", 502, false),
    ]
    .into_iter()
    .map(|(path, status, ok)| match common::asked(path) {
        Asked::CustomerSignup(op) => case(path, op, status, ok),
        Asked::Registration(op) => case(path, op, status, ok),
        Asked::DeleteToken(op) => case(path, op, status, ok),
        Asked::FetchAuthToken(op) => case(path, op, status, ok),
        Asked::RegenerateAuthToken(op) => case(path, op, status, ok),
        Asked::Inquiry(op) => case(path, op, status, ok),
        Asked::Payment(op) => case(path, op, status, ok),
        Asked::TokenPayment(op) => case(path, op, status, ok),
        Asked::Installments(op) => case(path, op, status, ok),
        Asked::CardsAndAccounts(op) => case(path, op, status, ok),
        Asked::InvoiceList(op) => case(path, op, status, ok),
        Asked::Capture(op) => case(path, op, status, ok),
        Asked::Refund(op) => case(path, op, status, ok),
        Asked::Cancel(op) => case(path, op, status, ok),
        Asked::RepeatPayment(op) => case(path, op, status, ok),
    })
    .collect();
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
        let list = InvoiceList::new(1, 100);
        let page = list.parse(200, body.as_bytes()).unwrap();
        assert_eq!(page.invoices.len(), 100);
        assert_eq!(page.invoices[99].order_id.as_deref(), Some("A99"));
        group.bench_function(name, |b| {
            b.iter(|| {
                list.parse(200, black_box(body.as_bytes()))
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
    to_http,
    responses,
    hundred_invoices
);
criterion_main!(benches);
