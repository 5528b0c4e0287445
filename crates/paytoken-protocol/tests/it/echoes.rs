//! Each form an echoed `amount` or `currency` may take, with the verdict of each operation
//! that reads it: a number is compared as money whatever its sign or size (a different one
//! is a contradiction, the outcome unknown), and text that is no plain decimal or no
//! currency code is ignored, since an incidental field never turns an approved payment into
//! an unknown outcome. Capture and refund compare no amount (deployments echo the payment's
//! or the move's).

use paytoken_protocol::ops::capture::Capture;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::refund::Refund;
use paytoken_protocol::ops::repeat_payment::RepeatPayment;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{Error, Operation, Transaction};
use paytoken_types::{Card, CardNumber, Cvv};

/// How an answer reads: approved, or a contradiction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Approved,
    Contradiction,
}
use Verdict::{Approved, Contradiction};

/// Each echo of a 10.00 EUR payment's `amount` (as JSON), with the verdict of the
/// operations that compare amounts.
const AMOUNTS: &[(&str, Verdict)] = &[
    (r#""10.00""#, Approved),
    (r#""10""#, Approved),
    (r#""010.000""#, Approved),
    (r#"" 10.00 ""#, Approved),
    ("10", Approved),
    ("10.0", Approved),
    (r#""5.00""#, Contradiction),
    (r#""10.001""#, Contradiction),
    (r#""-10.00""#, Contradiction),
    ("-10", Contradiction),
    (r#""99999999999999999999.00""#, Contradiction),
    ("99999999999999999999", Contradiction),
    (r#""-0.00""#, Contradiction),
    (r#""NaN""#, Approved),
    ("true", Approved),
    (r#""10,00""#, Approved),
    (r#""+10.00""#, Approved),
    (r#""1e1""#, Approved),
    (r#""ten""#, Approved),
    (r#""""#, Approved),
    ("null", Approved),
];

/// Each echo of its `currency`, likewise.
const CURRENCIES: &[(&str, Verdict)] = &[
    (r#""EUR""#, Approved),
    (r#"" eur ""#, Approved),
    (r#""USD""#, Contradiction),
    (r#""usd""#, Contradiction),
    (r#""EURO""#, Approved),
    (r#""€""#, Approved),
    ("978", Approved),
    (r#""""#, Approved),
];

/// An approved answer of order `order-7` echoing `amount` and `currency` as given.
fn answer(amount: &str, currency: &str) -> String {
    format!(
        r#"{{"paymentId":"54279","merchantTransactionId":"order-7","amount":{amount},"currency":{currency},"result":{{"code":"00001","description":"Transaction succeeded"}},"transactionStatus":"Y"}}"#
    )
}

fn verdict(read: Result<Transaction, Error>) -> Verdict {
    match read {
        Ok(transaction) if transaction.is_approved() => Approved,
        Err(Error::Contradiction { .. }) => Contradiction,
        other => panic!("neither approved nor a contradiction: {other:?}"),
    }
}

/// Each operation that reads a transaction, its name, and whether it compares amounts:
/// what it reads of `body`.
fn readings(body: &str) -> Vec<(&'static str, bool, Verdict)> {
    let ten = "10.00".parse().unwrap();
    let euro = "EUR".parse().unwrap();
    let order = || Some("order-7".parse().unwrap());
    let card = Card {
        number: CardNumber::new("4000000000000051").unwrap(),
        expiry_month: "12".parse().unwrap(),
        expiry_year: "2030".parse().unwrap(),
        cvv: Cvv::new("745").unwrap(),
        holder: None,
    };
    let payment = Payment::new("order-7".parse().unwrap(), ten, euro, card);
    let mut token = TokenPayment::new(
        "8a82944a4cc25ebf014cc2c782423202".parse().unwrap(),
        ten,
        euro,
    );
    token.merchant_transaction_id = order();
    let mut repeat = RepeatPayment::new("54270".parse().unwrap(), ten, euro);
    repeat.merchant_transaction_id = order();
    let capture = Capture::new("54270".parse().unwrap(), ten, euro);
    let refund = Refund::new("54270".parse().unwrap(), ten, euro);
    let bytes = body.as_bytes();
    vec![
        ("pay", true, verdict(payment.parse(200, bytes))),
        ("pay_with_token", true, verdict(token.parse(200, bytes))),
        ("repeat_payment", true, verdict(repeat.parse(200, bytes))),
        ("capture", false, verdict(capture.parse(200, bytes))),
        ("refund", false, verdict(refund.parse(200, bytes))),
    ]
}

#[test]
fn an_echoed_amount_is_compared_as_money_whatever_its_sign_or_size() {
    for &(amount, expected) in AMOUNTS {
        for (operation, compares, read) in readings(&answer(amount, r#""EUR""#)) {
            let expected = if compares { expected } else { Approved };
            assert_eq!(read, expected, "{operation}: amount {amount}");
        }
    }
}

#[test]
fn an_echoed_currency_is_compared_when_it_is_a_code() {
    for &(currency, expected) in CURRENCIES {
        for (operation, _, read) in readings(&answer(r#""10.00""#, currency)) {
            // Capture and refund compare the currency too.
            assert_eq!(read, expected, "{operation}: currency {currency}");
        }
    }
}
