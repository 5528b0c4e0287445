//! Encoding a full payment form (36 fields) into a reused buffer, and `serde_urlencoded`
//! encoding the same fields (name and value pairs, as `&str`) in the same run.
//!
//! Budget (`cargo xtask bench`): at least 2.5 times faster than `serde_urlencoded`, with
//! no allocation after warm-up (the allocation count is asserted by `tests/no_alloc.rs`).
#![allow(missing_docs, clippy::unwrap_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use paytoken_types::internal::FormWriter;
use std::hint::black_box;

use paytoken_test_support::form as common;

use paytoken_test_support::interleaved;

fn encode_payment_form(c: &mut Criterion) {
    let payment = common::PaymentForm::sample();
    let mut body = Vec::with_capacity(1024);
    c.bench_function("types/encode_payment_form", |b| {
        b.iter(|| {
            body.clear();
            black_box(&payment).write(&mut FormWriter::new(&mut body));
            black_box(body.len())
        });
    });
    // The same fields as text pairs, and the same bytes out.
    let sent = body.clone();
    let pairs: Vec<(std::borrow::Cow<'_, str>, std::borrow::Cow<'_, str>)> =
        paytoken_types::internal::decode(&sent)
            .collect::<Result<_, _>>()
            .unwrap();
    let pairs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(n, v)| (n.as_ref(), v.as_ref()))
        .collect();
    assert_eq!(
        serde_urlencoded::to_string(&pairs).unwrap().as_bytes(),
        &sent[..]
    );
    c.bench_function("types/encode_payment_form_serde_urlencoded", |b| {
        b.iter(|| serde_urlencoded::to_string(black_box(&pairs)).unwrap());
    });
    interleaved::report(
        "types/encode_payment_form",
        "types/encode_payment_form_serde_urlencoded",
        || {
            body.clear();
            black_box(&payment).write(&mut FormWriter::new(&mut body));
            black_box(body.len());
        },
        || {
            black_box(serde_urlencoded::to_string(black_box(&pairs)).unwrap());
        },
    );
}

fn parse_amount(c: &mut Criterion) {
    c.bench_function("types/parse_amount", |b| {
        b.iter(|| black_box("1250.50").parse::<paytoken_types::Amount>());
    });
}

criterion_group!(benches, encode_payment_form, parse_amount);
criterion_main!(benches);
