//! What a log or a cassette shows of a request's fields, held to the table of fields: the
//! check the sandbox's request log and `paytoken record`'s cassette are both put to.

use paytoken_types::internal::sensitive::{self, Sensitivity};

/// Asserts that each of `fields` (name, value as shown) is shown as the table of fields
/// says: a secret as `[redacted]`, a card number as the mask of `card`, a personal value
/// hidden. Gives how many secrets and card numbers it met, for the caller to expect.
pub fn as_the_table_says<'a>(
    fields: impl IntoIterator<Item = (&'a str, &'a str)>,
    card: &str,
) -> (usize, usize) {
    let (mut secrets, mut cards) = (0, 0);
    for (name, value) in fields {
        match sensitive::of(name) {
            Sensitivity::Secret => {
                secrets += 1;
                assert_eq!(value, sensitive::REDACTED, "{name}");
            }
            Sensitivity::CardNumber => {
                cards += 1;
                assert_eq!(value, sensitive::mask_card_number(card), "{name}");
            }
            Sensitivity::Personal => assert_eq!(value, sensitive::PERSONAL, "{name}"),
            _ => {}
        }
    }
    (secrets, cards)
}
