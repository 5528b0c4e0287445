//! The one table of card number ranges: which brand a card number belongs to.
//!
//! Used wherever a brand is told from a number, through [`CardNumber::brand`](crate::CardNumber::brand): the
//! protocol crate when a payment or a registration leaves `paymentBrand` out, and the
//! sandbox. Only ranges
//! that belong to one brand are listed, and the longest prefix wins, so RuPay's `508500`
//! is not taken for something else, and Maestro's `6759` is not Discover.

use crate::PaymentBrand;

/// One range of leading digits: the first and last prefix, both of the same length.
struct Range {
    first: u32,
    last: u32,
    digits: usize,
    brand: PaymentBrand,
}

const fn range(first: u32, last: u32, digits: usize, brand: PaymentBrand) -> Range {
    Range {
        first,
        last,
        digits,
        brand,
    }
}

/// Longest prefixes first: the first range that matches decides. A `static`, not a
/// `const`: a brand may own text, so a `const` table was built and dropped on every call.
static RANGES: [Range; 21] = [
    // RuPay: six-digit ranges, one inside Discover's 65.
    range(508_500, 508_999, 6, PaymentBrand::Rupay),
    range(606_985, 607_984, 6, PaymentBrand::Rupay),
    range(608_001, 608_500, 6, PaymentBrand::Rupay),
    range(652_150, 653_149, 6, PaymentBrand::Rupay),
    range(5018, 5018, 4, PaymentBrand::Maestro),
    range(5020, 5020, 4, PaymentBrand::Maestro),
    range(5038, 5038, 4, PaymentBrand::Maestro),
    range(5893, 5893, 4, PaymentBrand::Maestro),
    range(6304, 6304, 4, PaymentBrand::Maestro),
    range(6759, 6759, 4, PaymentBrand::Maestro),
    range(6761, 6763, 4, PaymentBrand::Maestro),
    range(6011, 6011, 4, PaymentBrand::Discover),
    range(3528, 3589, 4, PaymentBrand::Jcb),
    range(3000, 3059, 4, PaymentBrand::Diners),
    range(3095, 3095, 4, PaymentBrand::Diners),
    range(2221, 2720, 4, PaymentBrand::Mastercard),
    range(644, 649, 3, PaymentBrand::Discover),
    range(65, 65, 2, PaymentBrand::Discover),
    range(36, 39, 2, PaymentBrand::Diners),
    range(51, 55, 2, PaymentBrand::Mastercard),
    range(4, 4, 1, PaymentBrand::Visa),
];

/// The two Amex prefixes sit between Diners' `36` and others; listed apart for clarity.
const AMEX: [u32; 2] = [34, 37];

impl PaymentBrand {
    /// The brand of a number's leading digits (at least its first six, for RuPay);
    /// `None` for anything but digits or a range of no brand. A card number tells its own
    /// with [`CardNumber::brand`](crate::CardNumber::brand).
    #[must_use]
    pub fn of_digits(digits: &str) -> Option<Self> {
        Self::of_digit_bytes(digits.as_bytes())
    }

    /// [`of_digits`](Self::of_digits) on the digits' bytes, as a card number keeps them.
    pub(crate) fn of_digit_bytes(digits: &[u8]) -> Option<Self> {
        // The leading digits, up to six, read once: `prefixes[n]` is the number of the first
        // `n`, for as many as there are.
        let mut prefixes = [0_u32; 7];
        let mut count = 0;
        let mut lead = 0_u32;
        for (&byte, slot) in digits.iter().zip(prefixes.iter_mut().skip(1)) {
            if !byte.is_ascii_digit() {
                break;
            }
            lead = lead * 10 + u32::from(byte - b'0');
            *slot = lead;
            count += 1;
        }
        let prefix = |len: usize| prefixes.get(len).filter(|_| len <= count).copied();
        if prefix(2).is_some_and(|two| AMEX.contains(&two)) {
            return Some(Self::Amex);
        }
        RANGES
            .iter()
            .find(|range| {
                prefix(range.digits).is_some_and(|p| (range.first..=range.last).contains(&p))
            })
            .map(|range| range.brand.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    /// The table read the plain way, each prefix parsed from the text on its own.
    fn of_digits_by_text(digits: &str) -> Option<PaymentBrand> {
        let prefix = |len: usize| {
            digits
                .get(..len)
                .filter(|p| p.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|p| p.parse::<u32>().ok())
        };
        if prefix(2).is_some_and(|two| AMEX.contains(&two)) {
            return Some(PaymentBrand::Amex);
        }
        RANGES
            .iter()
            .find(|range| {
                prefix(range.digits).is_some_and(|p| (range.first..=range.last).contains(&p))
            })
            .map(|range| range.brand.clone())
    }

    proptest::proptest! {
        #[test]
        fn reading_the_leading_digits_once_agrees_with_parsing_each_prefix(
            digits in "[0-9]{0,8}[0-9a ]{0,3}[0-9]{0,8}"
        ) {
            proptest::prop_assert_eq!(PaymentBrand::of_digits(&digits), of_digits_by_text(&digits));
        }
    }

    #[test]
    fn every_brand_by_its_leading_digits() {
        for (number, brand) in [
            ("4000000000000051", Some(PaymentBrand::Visa)),
            ("5101080000000009", Some(PaymentBrand::Mastercard)),
            ("2223000048400011", Some(PaymentBrand::Mastercard)),
            ("378282246310005", Some(PaymentBrand::Amex)),
            ("6011111111111117", Some(PaymentBrand::Discover)),
            ("6445644564456445", Some(PaymentBrand::Discover)),
            ("3530111333300000", Some(PaymentBrand::Jcb)),
            ("30569309025904", Some(PaymentBrand::Diners)),
            ("36227206271667", Some(PaymentBrand::Diners)),
            ("6759649826438453", Some(PaymentBrand::Maestro)),
            ("6763000000000003", Some(PaymentBrand::Maestro)),
            ("5085000000000007", Some(PaymentBrand::Rupay)),
            ("6521500000000000", Some(PaymentBrand::Rupay)),
            ("6531500000000006", Some(PaymentBrand::Discover)),
            ("1234567812345670", None),
            ("", None),
        ] {
            assert_eq!(PaymentBrand::of_digits(number), brand, "{number}");
        }
    }

    #[test]
    fn codes_are_the_platforms() {
        let codes = [
            PaymentBrand::Visa,
            PaymentBrand::Mastercard,
            PaymentBrand::Amex,
            PaymentBrand::Jcb,
            PaymentBrand::Diners,
            PaymentBrand::Discover,
            PaymentBrand::Maestro,
            PaymentBrand::Rupay,
            PaymentBrand::DirectDebit,
        ]
        .map(|brand| brand.as_str().to_owned());
        assert_eq!(
            codes,
            [
                "VISA",
                "MC",
                "AMEX",
                "JCB",
                "DINER",
                "DISC",
                "MAESTRO",
                "RUPAY",
                "DIRECTDEBIT"
            ]
        );
    }
}
