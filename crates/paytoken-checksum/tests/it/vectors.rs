//! The checksum rules against `fixtures/checksum-vectors.json`, whose hashes were computed
//! by Python's hashlib (`fixtures/make_checksum_vectors.py`), outside Rust.

use paytoken_checksum::{ChecksumInput, Credentials, SecureKey, rules};
use paytoken_types::{
    Amount, Bic, CardNumber, Email, MemberId, MerchantTransactionId, PartnerId, PaymentId,
    RegistrationId,
};

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Vector {
    rule: String,
    credentials: String,
    id: String,
    secure_key: String,
    fields: Vec<String>,
    masked: String,
    md5: String,
}

/// Owned typed inputs, so a `ChecksumInput` can borrow them.
struct Typed {
    credentials: Credentials,
    card: Option<CardNumber>,
    bic: Option<Bic>,
    registration: Option<RegistrationId>,
    transaction: Option<MerchantTransactionId>,
    payment: Option<PaymentId>,
    email: Option<Email>,
    amount: Option<Amount>,
}

fn field(vector: &Vector, index: usize) -> &str {
    vector.fields.get(index).map(String::as_str).unwrap_or("")
}

fn typed(vector: &Vector) -> Typed {
    let key = SecureKey::new(vector.secure_key.clone()).unwrap();
    let credentials = match vector.credentials.as_str() {
        "merchant" => Credentials::merchant(MemberId::new(&vector.id).unwrap(), key),
        "partner" => Credentials::partner(PartnerId::new(&vector.id).unwrap(), key),
        other => panic!("unknown credentials {other}"),
    };
    let (first, second, third) = (field(vector, 0), field(vector, 1), field(vector, 2));
    Typed {
        credentials,
        card: CardNumber::new(first).ok(),
        bic: Bic::new(first).ok(),
        registration: RegistrationId::new(first).ok(),
        transaction: MerchantTransactionId::new(first).ok(),
        payment: PaymentId::new(first).ok(),
        email: Email::new(third).ok(),
        amount: second.parse().ok(),
    }
}

fn input<'a>(vector: &'a Vector, t: &'a Typed) -> ChecksumInput<'a> {
    let c = &t.credentials;
    match vector.rule.as_str() {
        "payment" => rules::payment(c, t.transaction.as_ref().unwrap(), t.amount.unwrap()),
        "card_registration" => rules::card_registration(c, t.card.as_ref().unwrap()),
        "bank_account_registration" => rules::bank_account_registration(c, t.bic.as_ref().unwrap()),
        "token_payment" => {
            rules::token_payment(c, t.registration.as_ref().unwrap(), t.amount.unwrap())
        }
        "delete_token" => rules::delete_token(c, t.registration.as_ref().unwrap()),
        "customer_signup" => rules::customer_signup(
            c,
            field(vector, 0),
            field(vector, 1),
            t.email.as_ref().unwrap(),
        )
        .unwrap(),
        "cards_and_accounts" => rules::cards_and_accounts(c),
        "installments" => rules::installments(c, t.registration.as_ref().unwrap()),
        "invoice_list" => rules::invoice_list(c),
        "inquiry_by_payment_id" => rules::inquiry_by_payment_id(c, t.payment.as_ref().unwrap()),
        "inquiry_by_merchant_transaction_id" => {
            rules::inquiry_by_merchant_transaction_id(c, t.transaction.as_ref().unwrap())
        }
        "capture" => rules::capture(c, t.payment.as_ref().unwrap(), t.amount.unwrap()),
        "refund" => rules::refund(c, t.payment.as_ref().unwrap(), t.amount.unwrap()),
        "cancel" => rules::cancel(c, t.payment.as_ref().unwrap()),
        "repeat_payment" => {
            rules::repeat_payment(c, t.payment.as_ref().unwrap(), t.amount.unwrap())
        }
        other => panic!("unknown rule {other}"),
    }
}

fn vectors() -> Vec<Vector> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/checksum-vectors.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_vector_matches_hashlib() {
    let vectors = vectors();
    assert!(
        vectors.len() >= 20,
        "the fixture must keep at least 20 vectors"
    );
    for vector in &vectors {
        if vector.rule == "notification" {
            let key = SecureKey::new(vector.secure_key.clone()).unwrap();
            let [payment, order, amount, status] = [0, 1, 2, 3].map(|i| field(vector, i));
            let checksum = rules::notification(&key, payment, order, amount, status).unwrap();
            assert_eq!(checksum.to_string(), vector.md5, "{}", vector.masked);
            continue;
        }
        let typed = typed(vector);
        let input = input(vector, &typed);
        assert_eq!(
            input.compute().to_string(),
            vector.md5,
            "{} {}",
            vector.rule,
            vector.masked
        );
        assert_eq!(input.masked().to_string(), vector.masked);
    }
}

#[test]
fn the_fixture_covers_every_rule_both_kinds_of_credentials_and_non_ascii() {
    let vectors = vectors();
    for rule in [
        "payment",
        "card_registration",
        "bank_account_registration",
        "token_payment",
        "delete_token",
        "customer_signup",
        "cards_and_accounts",
        "installments",
        "invoice_list",
        "inquiry_by_payment_id",
        "inquiry_by_merchant_transaction_id",
        "capture",
        "refund",
        "cancel",
        "repeat_payment",
        "notification",
    ] {
        assert!(vectors.iter().any(|v| v.rule == rule), "{rule}");
    }
    assert!(vectors.iter().any(|v| v.credentials == "partner"));
    assert!(vectors.iter().any(|v| !v.fields.concat().is_ascii()));
    assert!(vectors.iter().any(|v| !v.secure_key.is_ascii()));
}

#[test]
fn the_masked_text_never_shows_the_key() {
    for vector in vectors() {
        if vector.rule == "notification" {
            // A notification's checksum is computed whole: there is no input to show.
            assert!(!vector.masked.contains(&vector.secure_key));
            continue;
        }
        let typed = typed(&vector);
        let shown = format!(
            "{:?} {}",
            input(&vector, &typed),
            input(&vector, &typed).masked()
        );
        assert!(!shown.contains(&vector.secure_key), "{shown}");
        assert!(!format!("{:?}", typed.credentials).contains(&vector.secure_key));
    }
}
