//! Encoding a full payment form (about 35 fields) into a reused buffer.
//!
//! Budget (issue "Foundation"): at most 0.7 µs on the project's 2-core machine, with no
//! allocation after warm-up (the allocation count is asserted by `tests/no_alloc.rs`).
#![allow(
    clippy::std_instead_of_core,
    clippy::std_instead_of_alloc,
    missing_docs,
    clippy::unwrap_used
)]

use criterion::{Criterion, criterion_group, criterion_main};
use paytoken_types::form::FormWriter;
use std::hint::black_box;

#[path = "../tests/common/mod.rs"]
mod common;

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
}

fn parse_amount(c: &mut Criterion) {
    c.bench_function("types/parse_amount", |b| {
        b.iter(|| black_box("1250.50").parse::<paytoken_types::Amount>());
    });
}

criterion_group!(benches, encode_payment_form, parse_amount);
criterion_main!(benches);
