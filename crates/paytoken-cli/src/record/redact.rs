//! What a cassette may keep of a value, as the table of fields (`paytoken_types::internal::
//! sensitive`, the one the sandbox's request log asks) says: secrets replaced by a marker,
//! card numbers and IBANs masked wherever they appear (in any field, a header or a path),
//! personal data replaced unless the user keeps it. What no name tells (a field's name, a
//! header's value) goes through the one redactor of free text.

use paytoken::protocol::redact::Redactor;
use paytoken::types::internal::sensitive;

/// The most characters of a header's value a cassette keeps.
const KEPT_HEADER: usize = 4096;

pub(crate) use sensitive::REDACTED;

/// What the cassette keeps of a header: a credential (by its name) replaced; any other
/// value with a URL's credentials redacted and then through the redactor (`X-Debug:
/// sKey=...`).
pub(crate) fn header(name: &str, value: &str, held: &Redactor) -> String {
    if sensitive::is_secret(name) {
        REDACTED.to_owned()
    } else {
        held.redact(&sensitive::mask_in_url(value), KEPT_HEADER)
    }
}

/// What the cassette keeps of a request's path: a card number or an IBAN in it (an order
/// id the path carries) masked as the same id is in the fields and the answer, and a
/// query's credentials redacted.
pub(crate) fn path(path: &str) -> String {
    sensitive::mask_in_url(path).into_owned()
}

/// What the cassette keeps of the value of the field `name`.
pub(crate) fn field(name: &str, value: &str, keep_personal: bool) -> String {
    sensitive::shown(name, value, keep_personal).into_owned()
}

#[cfg(test)]
mod tests {
    use paytoken::types::internal::sensitive::PERSONAL;
    use paytoken_sandbox::internal::Node;
    use serde_json::{Value, json};

    use super::*;

    #[test]
    fn secrets_cards_ibans_and_personal_data_are_kept_out() {
        assert_eq!(field("authentication.sKey", "key", false), REDACTED);
        assert_eq!(field("authentication.checksum", "abc", true), REDACTED);
        assert_eq!(field("card.cvv", "123", true), REDACTED);
        assert_eq!(field("authToken", "eyJ", true), REDACTED);
        assert_eq!(
            field("card.number", "4000000000000002", true),
            "400000******0002"
        );
        assert_eq!(
            field("bankAccount.iban", "DE89370400440532013000", true),
            "DE****************3000"
        );
        assert_eq!(field("customer.email", "ada@example.com", false), PERSONAL);
        assert_eq!(
            field("customer.email", "ada@example.com", true),
            "ada@example.com"
        );
        assert_eq!(field("amount", "50.00", false), "50.00");
        // A card number where none belongs is masked all the same.
        assert_eq!(
            field("descriptor", "4000000000000002", true),
            "400000******0002"
        );
        let kept = |name: &str, value: &str| header(name, value, &Redactor::new());
        assert_eq!(kept("AuthToken", "eyJ.x.y"), REDACTED);
        assert_eq!(kept("X-Api-Key", "k"), REDACTED);
        assert_eq!(kept("X-Auth-Token", "t"), REDACTED);
        assert_eq!(
            kept("Location", "https://shop.example/back?sKey=k&checksum=c"),
            "https://shop.example/back?sKey=[redacted]&checksum=[redacted]"
        );
        assert_eq!(
            kept("Location", "/back?card=4000000000000002"),
            "/back?card=400000******0002"
        );
        // An order id that holds a card number: the same mask in the path and the field.
        let order = "4000000000000051";
        let in_path = path(&format!("/transactionServices/REST/v1/payments/{order}"));
        let in_field = field("merchantTransactionId", order, true);
        assert!(
            in_path.ends_with(&format!("/{in_field}")),
            "{in_path} {in_field}"
        );
        assert_eq!(in_field, "400000******0051");
        assert_eq!(kept("Content-Type", "text/plain"), "text/plain");
    }

    fn redacted(answer: &Value) -> Value {
        let tree = Node::parse(&answer.to_string()).unwrap();
        tree.redacted(false).to_value()
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
        assert_eq!(kept["cards"]["card"][0]["number"], "400000******0002");
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
