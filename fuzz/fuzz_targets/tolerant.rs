//! The tolerant reader: no incidental field, whatever it holds, changes a verdict.
//!
//! The input goes (as JSON when it is JSON, as a JSON string otherwise) into every
//! incidental field of an approved inquiry answer in turn, and into an unknown field: the
//! answer must still read as approved, with its payment id. Into the long `status`, which
//! decides an inquiry: the payment reads approved only when that status is absent or names
//! one where the money stands. And every `Tolerant` reader runs on the input as text: none
//! may panic, and what reads as a value reads back the same from that value's own strict
//! text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::{Operation, PaymentStatus};
use paytoken_types::{
    Amount, Currency, ExpiryMonth, ExpiryYear, PaymentBrand, Timestamp, Tolerant, TransactionState,
};

const INCIDENTAL: [&str; 11] = [
    "amount",
    "currency",
    "descriptor",
    "remark",
    "card",
    "timestamp",
    "tmpl_amount",
    "paymentBrand",
    "registrationId",
    "memberId",
    "x_unknown",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    readers(&text);

    let value = match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(value) => value,
        Err(_) => serde_json::Value::String(text.clone().into_owned()),
    };
    let Ok(id) = "54279".parse() else {
        return;
    };
    let inquiry = Inquiry::ByPaymentId(id);
    for field in INCIDENTAL {
        let mut answer = serde_json::json!({
            "paymentId": "54279",
            "result": {"code": "00026", "description": "Record found"},
            "transactionStatus": "Y",
        });
        answer[field] = value.clone();
        let body = answer.to_string();
        let transaction = inquiry
            .parse(200, body.as_bytes())
            .unwrap_or_else(|error| panic!("{field}: {error}"));
        assert_eq!(transaction.status, PaymentStatus::Approved, "{field}");
        assert_eq!(transaction.payment_id.as_str(), "54279");
    }
    let mut answer = serde_json::json!({
        "paymentId": "54279",
        "result": {"code": "00026", "description": "Record found"},
        "transactionStatus": "Y",
    });
    answer["status"] = value;
    let body = answer.to_string();
    let transaction = inquiry
        .parse(200, body.as_bytes())
        .unwrap_or_else(|error| panic!("status: {error}"));
    let stands = match &transaction.state {
        None => true,
        Some(long) => matches!(
            long.value(),
            Some(
                TransactionState::AuthSuccessful
                    | TransactionState::CaptureSuccess
                    | TransactionState::Settled
            )
        ),
    };
    assert_eq!(
        transaction.is_approved(),
        stands,
        "status: {:?}",
        transaction.state
    );
});

fn readers(text: &str) {
    if let Some(amount) = Amount::read_tolerant(text) {
        assert_eq!(
            Amount::read_tolerant(amount.to_wire().as_str()),
            Some(amount)
        );
    }
    if let Some(currency) = Currency::read_tolerant(text) {
        assert_eq!(Currency::read_tolerant(currency.as_str()), Some(currency));
    }
    if let Some(month) = ExpiryMonth::read_tolerant(text) {
        assert_eq!(month.to_wire().as_str().parse::<ExpiryMonth>(), Ok(month));
    }
    if let Some(year) = ExpiryYear::read_tolerant(text) {
        assert_eq!(year.to_wire().as_str().parse::<ExpiryYear>(), Ok(year));
    }
    if let Some(timestamp) = Timestamp::read_tolerant(text) {
        assert_eq!(timestamp.to_string().parse::<Timestamp>(), Ok(timestamp));
    }
    let _ = PaymentBrand::read_tolerant(text);
    let _ = TransactionState::read_tolerant(text);
}
