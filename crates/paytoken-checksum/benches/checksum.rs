//! Computing each checksum rule.
//!
//! Budget (issue "Foundation"): one checksum at most 250 ns on the project's 2-core
//! machine, with no allocation (the computation streams into MD5 on the stack).
#![allow(missing_docs, clippy::unwrap_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use paytoken_checksum::{Credentials, SecureKey, rules};
use paytoken_types::{
    Amount, Bic, CardNumber, Email, MemberId, MerchantTransactionId, PaymentId, RegistrationId,
};
use std::hint::black_box;

fn checksums(c: &mut Criterion) {
    let credentials = Credentials::merchant(
        MemberId::new("11344").unwrap(),
        SecureKey::new("w2Q8aZ2CrGc1dEbx0f9LkKmWu3YnN6sP").unwrap(),
    );
    let transaction = MerchantTransactionId::new("9f1c2e7ab4d84c0f9a3e5b6c7d8e9f00").unwrap();
    let registration = RegistrationId::new("8a82944a4cc25ebf014cc2c782423202").unwrap();
    let payment = PaymentId::new("54279").unwrap();
    let amount: Amount = "1250.50".parse().unwrap();
    let card = CardNumber::new("4000000000000051").unwrap();
    let bic = Bic::new("DEUTDEFF500").unwrap();
    let email = Email::new("zoe.oneil@example.com").unwrap();
    let c_ = &credentials;

    let mut group = c.benchmark_group("checksum");
    group.bench_function("payment", |b| {
        b.iter(|| rules::payment(black_box(c_), &transaction, black_box(amount)).compute());
    });
    group.bench_function("card_registration", |b| {
        b.iter(|| rules::card_registration(black_box(c_), &card).compute());
    });
    group.bench_function("bank_account_registration", |b| {
        b.iter(|| rules::bank_account_registration(black_box(c_), &bic).compute());
    });
    group.bench_function("token_payment", |b| {
        b.iter(|| rules::token_payment(black_box(c_), &registration, black_box(amount)).compute());
    });
    group.bench_function("delete_token", |b| {
        b.iter(|| rules::delete_token(black_box(c_), &registration).compute());
    });
    group.bench_function("customer_signup", |b| {
        b.iter(|| {
            rules::customer_signup(black_box(c_), "Zoë", "O'Neil", &email)
                .unwrap()
                .compute()
        });
    });
    group.bench_function("cards_and_accounts", |b| {
        b.iter(|| rules::cards_and_accounts(black_box(c_)).compute());
    });
    group.bench_function("installments", |b| {
        b.iter(|| rules::installments(black_box(c_), &registration).compute());
    });
    group.bench_function("invoice_list", |b| {
        b.iter(|| rules::invoice_list(black_box(c_)).compute());
    });
    group.bench_function("inquiry_by_payment_id", |b| {
        b.iter(|| rules::inquiry_by_payment_id(black_box(c_), &payment).compute());
    });
    group.bench_function("inquiry_by_merchant_transaction_id", |b| {
        b.iter(|| rules::inquiry_by_merchant_transaction_id(black_box(c_), &transaction).compute());
    });
    group.bench_function("payment_to_hex", |b| {
        b.iter(|| {
            rules::payment(black_box(c_), &transaction, black_box(amount))
                .compute()
                .to_hex()
        });
    });
    group.finish();
}

criterion_group!(benches, checksums);
criterion_main!(benches);
