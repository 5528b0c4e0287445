//! Answers whose incidental fields come in the shapes other deployments send
//! ([`SandboxBuilder::vary_answers`](crate::SandboxBuilder::vary_answers)): so that a client,
//! ours or anyone's, can prove against the sandbox that it reads the gateway's verdict past
//! every incidental variation.
//!
//! Each JSON answer is read back (in order, repeated keys kept), its fields varied by what
//! they are, and written again:
//!
//! | fields | how they vary |
//! |---|---|
//! | deciding: `paymentId`, `result`, `statusInvoiceResult`, `transactionStatus`, `registrationId`, `customerId`, `AuthToken`, `installment`, `redirect`, `merchantTransactionId`, `orderId` | never |
//! | echoed or read: `amount`, `tmpl_amount` | the same money in another form: `50`, `50.0`, a JSON number |
//! | `currency`, `tmpl_currency`, `paymentType`, `paymentBrand`, `paymentMode`, `status`, `registrationStatus` | lower case |
//! | `expiryMonth`, `expiryYear` | one digit, two digits, a JSON number |
//! | `timestamp`, `createdDate` | ISO 8601 |
//! | `memberId`, `partnerId` | a JSON number |
//! | informational: `descriptor`, `remark`, `holder`, `LoginName`, `cardType`, `invoiceStatus`, ... | `null`, `""`, a number, 200 characters, a nested object, a one-element list |
//! | `card` | inside a one-element list |
//! | any object | an unknown field more |
//!
//! Every choice comes from the seed and the answer's number, so a run is reproducible.

use std::sync::atomic::{AtomicU64, Ordering};

use fastrand::Rng;

use crate::node::{Kind, Node, kind};

/// The variation of a sandbox: its seed, and how many answers it has varied.
#[derive(Debug)]
pub(crate) struct Variation {
    seed: u64,
    answers: AtomicU64,
}

impl Variation {
    pub(crate) const fn new(seed: u64) -> Self {
        Self {
            seed,
            answers: AtomicU64::new(0),
        }
    }

    /// `body` with its incidental fields varied; a body that is not JSON stays as it is.
    pub(crate) fn apply(&self, body: &str) -> String {
        let Some(mut node) = Node::parse(body) else {
            return body.to_owned();
        };
        let number = self.answers.fetch_add(1, Ordering::Relaxed);
        let mut random = Rng::with_seed(self.seed ^ number.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        vary_object(&mut node, &mut random);
        node.to_json(body.len() + 64)
    }
}

/// Varies the fields of an object (and of the objects inside it that hold fields).
fn vary_object(node: &mut Node, random: &mut Rng) {
    let Node::Object(fields) = node else {
        if let Node::List(items) = node {
            items.iter_mut().for_each(|item| vary_object(item, random));
        }
        return;
    };
    for (key, value) in fields.iter_mut() {
        let kind = kind(key);
        // The list of cards inside `cards` is named `card`, as the payment's card object is:
        // an object whose entries carry a `registrationId` is a list entry, not a card.
        let kind = if kind == Kind::Card && holds_registrations(value) {
            Kind::Container
        } else {
            kind
        };
        vary_value(kind, value, random);
    }
    if random.usize(..3) == 0 {
        let (key, extra) = match random.usize(..3) {
            0 => ("eci", Node::Text("05".into())),
            1 => ("terminalId", Node::Raw("7".into())),
            _ => (
                "x_sandbox_extra",
                Node::Object(vec![("note".into(), Node::Text("varied".into()))]),
            ),
        };
        fields.push((key.into(), extra));
    }
}

fn holds_registrations(node: &Node) -> bool {
    match node {
        Node::Object(fields) => fields.iter().any(|(key, _)| key == "registrationId"),
        Node::List(items) => items.iter().any(holds_registrations),
        _ => false,
    }
}

fn vary_value(kind: Kind, value: &mut Node, random: &mut Rng) {
    let Node::Text(text) = value else {
        if kind == Kind::Container || kind == Kind::Card {
            vary_object(value, random);
        }
        if kind == Kind::Card && random.bool() {
            *value = Node::List(vec![value.clone()]);
        }
        return;
    };
    let varied = match kind {
        Kind::Money => money(text, random),
        Kind::Code if random.bool() => Some(Node::Text(text.to_ascii_lowercase())),
        Kind::Month | Kind::Year => short_number(text, kind, random),
        Kind::Time if random.bool() => Some(Node::Text(text.replacen(' ', "T", 1))),
        Kind::Id if random.bool() && is_number(text) => Some(Node::Raw(text.clone())),
        Kind::Informational => Some(informational(text, random)),
        _ => None,
    };
    if let Some(varied) = varied {
        *value = varied;
    }
}

/// The same amount in another form: no fraction when there are no cents, one digit when
/// the second is a zero, a JSON number.
fn money(text: &str, random: &mut Rng) -> Option<Node> {
    let (whole, cents) = text.split_once('.')?;
    let short = match cents {
        "00" => whole.to_owned(),
        _ if cents.ends_with('0') => format!("{whole}.{}", cents.get(..1)?),
        _ => text.to_owned(),
    };
    Some(match random.usize(..3) {
        0 => Node::Text(short),
        1 => Node::Raw(short),
        _ => Node::Text(format!("{text}0")),
    })
}

/// `07` as `7` or the number 7; `2030` as `30` or the number 2030.
fn short_number(text: &str, kind: Kind, random: &mut Rng) -> Option<Node> {
    if !is_number(text) {
        return None;
    }
    let trimmed = text.trim_start_matches('0');
    Some(match (kind, random.usize(..2)) {
        (Kind::Month, 0) => Node::Text(trimmed.to_owned()),
        (Kind::Year, 0) => Node::Text(text.get(2..)?.to_owned()),
        _ => Node::Raw(trimmed.to_owned()),
    })
}

fn is_number(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'))
}

/// Anything at all: a client that reads the verdict must not care.
fn informational(text: &str, random: &mut Rng) -> Node {
    match random.usize(..6) {
        0 => Node::Raw("null".into()),
        1 => Node::Text(String::new()),
        2 => Node::Raw("12345".into()),
        3 => Node::Text(text.chars().cycle().take(200).collect()),
        4 => Node::Object(vec![("value".into(), Node::Text(text.to_owned()))]),
        _ => Node::List(vec![Node::Text(text.to_owned())]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANSWER: &str = r#"{"paymentId":"54279","registrationId":"8a82944a4cc25ebf014cc2c782423202","amount":"50.00","currency":"EUR","descriptor":"Shop","result":{"code":"00001","description":"Transaction succeeded"},"card":{"bin":"400000","last4Digits":"0051","expiryMonth":"07","expiryYear":"2030"},"timestamp":"2026-11-22 10:15:00","merchantTransactionId":"Rest Transaction 01","transactionStatus":"Y"}"#;

    fn field<'a>(node: &'a Node, key: &str) -> Option<&'a Node> {
        node.member(key)
    }

    #[test]
    fn deciding_fields_never_change_and_the_same_seed_gives_the_same_answers() {
        let original: Node = serde_json::from_str(ANSWER).unwrap();
        let (one, two) = (Variation::new(7), Variation::new(7));
        let mut changed = 0;
        for _ in 0..50 {
            let varied = one.apply(ANSWER);
            assert_eq!(varied, two.apply(ANSWER), "reproducible");
            let node: Node = serde_json::from_str(&varied).unwrap();
            for key in [
                "paymentId",
                "registrationId",
                "result",
                "merchantTransactionId",
                "transactionStatus",
            ] {
                assert_eq!(field(&node, key), field(&original, key), "{key}: {varied}");
            }
            changed += usize::from(varied != ANSWER);
        }
        assert!(changed > 40, "answers are varied: {changed} of 50");
    }

    #[test]
    fn money_keeps_its_value() {
        let mut random = Rng::with_seed(1);
        for _ in 0..20 {
            let Some(Node::Text(text) | Node::Raw(text)) = money("50.00", &mut random) else {
                panic!("money is text or a number")
            };
            assert!(["50", "50.000"].contains(&text.as_str()), "{text}");
            let Some(Node::Text(text) | Node::Raw(text)) = money("9.90", &mut random) else {
                panic!("money is text or a number")
            };
            assert!(["9.9", "9.900"].contains(&text.as_str()), "{text}");
        }
    }

    #[test]
    fn a_body_that_is_not_json_stays_as_it_is() {
        assert_eq!(Variation::new(1).apply("<html>"), "<html>");
    }
}
