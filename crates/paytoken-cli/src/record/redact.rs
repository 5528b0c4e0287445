//! What a cassette may keep of a value, by the name of its field: secrets replaced by a
//! marker, card numbers and IBANs masked, personal data masked unless the user keeps it.
//! Any value that reads as a card number (13 to 19 digits passing the Luhn check) is
//! masked whatever its field is called: a gateway or a client that puts one where it does
//! not belong must not put it in a cassette.

use paytoken::CardNumber;
use serde_json::Value;

use super::ordered::Ordered;

/// What replaces a secret: the secure key, a checksum, a CVV, an auth token.
pub(crate) const REDACTED: &str = "[redacted]";

/// What replaces a personal value (a name, an address, an email, a phone number, an IP
/// address, a birth date) unless `--keep-personal-data`.
pub(crate) const PERSONAL: &str = "[personal]";

/// How a field's value is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// As it is (still masked if it reads as a card number).
    Plain,
    /// Replaced by [`REDACTED`].
    Secret,
    /// A card number: its first six and last four digits.
    CardNumber,
    /// An IBAN: its last four characters.
    Iban,
    /// Replaced by [`PERSONAL`] unless kept.
    Personal,
}

/// The last part of a field's name (`card.number` is `number`), as the rules name it.
const SECRET: &[&str] = &["cvv", "skey", "authtoken", "securekey", "password"];
const PERSONAL_FIELDS: &[&str] = &[
    "givenname",
    "surname",
    "firstname",
    "lastname",
    "holder",
    "sex",
    "email",
    "phone",
    "mobile",
    "telnocc",
    "birthdate",
    "ip",
    "street",
    "street1",
    "street2",
    "city",
    "postcode",
    "zip",
    "state",
    "customername",
    "customeremail",
    "customermobileno",
    "customeraddress",
];

fn kind_of(name: &str) -> Kind {
    let lower = name.trim().to_ascii_lowercase();
    let last = lower.rsplit('.').next().unwrap_or(&lower);
    if SECRET.contains(&last) || last.contains("checksum") {
        Kind::Secret
    } else if last == "cardnumber" || (last == "number" && lower.contains("card")) {
        Kind::CardNumber
    } else if last == "iban" {
        Kind::Iban
    } else if PERSONAL_FIELDS.contains(&last) {
        Kind::Personal
    } else {
        Kind::Plain
    }
}

/// What the cassette keeps of a header: the auth token and any credential replaced.
pub(crate) fn header(name: &str, value: &str) -> String {
    let lower = name.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "authtoken" | "authorization" | "proxy-authorization" | "cookie" | "set-cookie"
    ) {
        REDACTED.to_owned()
    } else {
        field("", value, true)
    }
}

/// What the cassette keeps of the value of the field `name`.
pub(crate) fn field(name: &str, value: &str, keep_personal: bool) -> String {
    match kind_of(name) {
        Kind::Secret => REDACTED.to_owned(),
        Kind::Personal if !keep_personal => PERSONAL.to_owned(),
        Kind::CardNumber => card_number(value),
        Kind::Iban => iban(value),
        Kind::Plain | Kind::Personal => {
            if value.trim().len() >= 13 && CardNumber::new(value.trim()).is_ok() {
                card_number(value)
            } else {
                value.to_owned()
            }
        }
    }
}

/// A JSON answer with every member's value kept as [`field`] keeps it, by its key; order
/// and repeated keys as they came.
pub(crate) fn json(answer: &Ordered, keep_personal: bool) -> Ordered {
    walk(answer, "", keep_personal)
}

fn walk(value: &Ordered, name: &str, keep_personal: bool) -> Ordered {
    let text = |kept: &str| Ordered::Scalar(Value::String(kept.to_owned()));
    // A structure where a secret, a card number or a personal value belongs (`{"holder":
    // {"value": "Ada"}}`, as deployments nest text) is replaced whole: what its members
    // are called says nothing of what they hold.
    if matches!(value, Ordered::Object(_) | Ordered::List(_)) {
        match kind_of(name) {
            Kind::Secret | Kind::CardNumber | Kind::Iban => return text(REDACTED),
            Kind::Personal if !keep_personal => return text(PERSONAL),
            Kind::Personal | Kind::Plain => {}
        }
    }
    match value {
        Ordered::Object(members) => Ordered::Object(
            members
                .iter()
                .map(|(key, member)| (key.clone(), walk(member, key, keep_personal)))
                .collect(),
        ),
        Ordered::List(items) => Ordered::List(
            items
                .iter()
                .map(|item| walk(item, name, keep_personal))
                .collect(),
        ),
        Ordered::Scalar(Value::String(written)) => text(&field(name, written, keep_personal)),
        Ordered::Scalar(Value::Number(number)) => {
            let written = number.to_string();
            let kept = field(name, &written, keep_personal);
            if kept == written {
                value.clone()
            } else {
                text(&kept)
            }
        }
        Ordered::Scalar(_) => value.clone(),
    }
}

/// `400000…0002`: the first six and last four digits; a value too short to mask so is
/// replaced whole.
fn card_number(value: &str) -> String {
    let digits: String = value.chars().filter(char::is_ascii_digit).collect();
    match (
        digits.get(..6),
        digits.len().checked_sub(4).and_then(|at| digits.get(at..)),
    ) {
        (Some(first), Some(last)) if digits.len() >= 12 => format!("{first}…{last}"),
        _ => REDACTED.to_owned(),
    }
}

/// `…3000`: the last four characters of an IBAN; a short value is replaced whole.
fn iban(value: &str) -> String {
    let compact: Vec<char> = value.chars().filter(|c| !c.is_whitespace()).collect();
    if compact.len() < 12 {
        return REDACTED.to_owned();
    }
    let last: String = compact.iter().skip(compact.len() - 4).collect();
    format!("…{last}")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn secrets_cards_ibans_and_personal_data_are_kept_out() {
        assert_eq!(field("authentication.sKey", "key", false), REDACTED);
        assert_eq!(field("authentication.checksum", "abc", true), REDACTED);
        assert_eq!(field("card.cvv", "123", true), REDACTED);
        assert_eq!(field("authToken", "eyJ", true), REDACTED);
        assert_eq!(
            field("card.number", "4000000000000002", true),
            "400000…0002"
        );
        assert_eq!(
            field("bankAccount.iban", "DE89370400440532013000", true),
            "…3000"
        );
        assert_eq!(field("customer.email", "ada@example.com", false), PERSONAL);
        assert_eq!(
            field("customer.email", "ada@example.com", true),
            "ada@example.com"
        );
        assert_eq!(field("amount", "50.00", false), "50.00");
        // A card number where none belongs is masked all the same.
        assert_eq!(field("descriptor", "4000000000000002", true), "400000…0002");
        assert_eq!(header("AuthToken", "eyJ.x.y"), REDACTED);
        assert_eq!(header("Content-Type", "text/plain"), "text/plain");
    }

    fn redacted(answer: &Value) -> Value {
        let tree = Ordered::parse(answer.to_string().as_bytes()).unwrap();
        json(&tree, false).to_value()
    }

    #[test]
    fn an_answer_is_redacted_member_by_member() {
        let answer = json!({
            "AuthToken": "eyJhbGciOiJIUzI1NiJ9.e30.c2ln",
            "memberId": 11344,
            "customerDetails": {"customername": "Zoë", "customeremail": "z@example.com"},
            "cards": {"card": [{"holder": "Ada", "bin": "400000", "number": 4000000000000002_u64}]}
        });
        let kept = redacted(&answer);
        assert_eq!(kept["AuthToken"], REDACTED);
        assert_eq!(kept["memberId"], 11344);
        assert_eq!(kept["customerDetails"]["customername"], PERSONAL);
        assert_eq!(kept["cards"]["card"][0]["holder"], PERSONAL);
        assert_eq!(kept["cards"]["card"][0]["number"], "400000…0002");
        assert_eq!(kept["cards"]["card"][0]["bin"], "400000");
        // Nested where text belongs, as deployments do: replaced whole.
        let nested =
            json!({"holder": {"value": "Ada"}, "AuthToken": ["eyJ.x.y"], "remark": ["ok"]});
        let kept = redacted(&nested);
        assert_eq!(kept["holder"], PERSONAL);
        assert_eq!(kept["AuthToken"], REDACTED);
        assert_eq!(kept["remark"], json!(["ok"]));
    }
}
