#![allow(
    unreachable_pub,
    dead_code,
    clippy::as_conversions,
    clippy::cast_possible_truncation,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "bench code: a table built by index, digits by arithmetic on known ranges"
)]

//! The floor: the baseline's exchange with nothing wasted, to show how far any
//! implementation could go below the baseline. Bench code only.
//!
//! It puts the same bytes on the wire as the baseline and paytoken (the benches assert it)
//! and reads the same deciding values from the answer, and does nothing else: the form
//! written into a reused buffer from names known when compiled and a 256-entry escape
//! table, the checksum streamed through `md-5` into stack hex, and the answer read by one
//! pass that borrows the values it wants and checks nothing it does not need. It validates
//! no input, keeps no other field, checks no echo, wipes no buffer, and accepts JSON that
//! is not JSON: each is a duty paytoken has, so this is below what paytoken may do, never
//! a design to copy.

use md5::{Digest as _, Md5};

use super::baseline::PaymentInput;

/// Whether a byte goes on the wire as it is: `A-Z a-z 0-9 * - . _`.
const PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut index = 0;
    while index < 256 {
        let b = index as u8;
        table[index] = b.is_ascii_alphanumeric() || matches!(b, b'*' | b'-' | b'.' | b'_');
        index += 1;
    }
    table
};

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";
const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";

/// `&name=value`, the value percent-encoded (the `&` left out for the first field).
#[inline(always)]
fn field(out: &mut Vec<u8>, name: &str, value: &[u8]) {
    if !out.is_empty() {
        out.push(b'&');
    }
    out.extend_from_slice(name.as_bytes());
    out.push(b'=');
    if value.iter().all(|&b| PLAIN[usize::from(b)]) {
        out.extend_from_slice(value);
        return;
    }
    for &b in value {
        if PLAIN[usize::from(b)] {
            out.push(b);
        } else if b == b' ' {
            out.push(b'+');
        } else {
            out.extend_from_slice(&[
                b'%',
                HEX_UPPER[usize::from(b >> 4)],
                HEX_UPPER[usize::from(b & 0x0f)],
            ]);
        }
    }
}

/// The amount's wire text (`1250.50`) on the stack.
fn amount_text(minor: u64, buffer: &mut [u8; 24]) -> &[u8] {
    let mut end = buffer.len();
    let mut push = |digit: u64, buffer: &mut [u8; 24]| {
        end -= 1;
        buffer[end] = b'0' + (digit % 10) as u8;
    };
    push(minor % 10, buffer);
    push(minor / 10 % 10, buffer);
    end -= 1;
    buffer[end] = b'.';
    let mut units = minor / 100;
    loop {
        end -= 1;
        buffer[end] = b'0' + (units % 10) as u8;
        units /= 10;
        if units == 0 {
            break;
        }
    }
    &buffer[end..]
}

/// Writes the payment the baseline writes into `out` (cleared first, its room reused).
pub fn build_payment(input: &PaymentInput, out: &mut Vec<u8>) {
    let mut amount_buffer = [0; 24];
    let amount = amount_text(input.amount_minor, &mut amount_buffer);
    let mut md5 = Md5::new();
    md5.update(input.member_id.as_bytes());
    md5.update(b"|");
    md5.update(input.secure_key.as_bytes());
    md5.update(b"|");
    md5.update(input.merchant_transaction_id.as_bytes());
    md5.update(b"|");
    md5.update(amount);
    let digest = md5.finalize();
    let mut checksum = [0; 32];
    for (pair, byte) in checksum.chunks_exact_mut(2).zip(digest) {
        pair[0] = HEX_LOWER[usize::from(byte >> 4)];
        pair[1] = HEX_LOWER[usize::from(byte & 0x0f)];
    }
    out.clear();
    field(out, "authentication.memberId", input.member_id.as_bytes());
    field(out, "authentication.accountId", input.account_id.as_bytes());
    field(out, "authentication.checksum", &checksum);
    field(
        out,
        "authentication.terminalId",
        input.terminal_id.as_bytes(),
    );
    field(
        out,
        "merchantTransactionId",
        input.merchant_transaction_id.as_bytes(),
    );
    field(out, "amount", amount);
    field(out, "currency", input.currency.as_bytes());
    for (name, value) in [
        ("shipping.country", "DE"),
        ("shipping.city", "München"),
        ("shipping.state", "BY"),
        ("shipping.postcode", "80331"),
        ("shipping.street1", "Marienplatz 1"),
        ("shipping.language", "de"),
        ("customer.givenName", "Zoë"),
        ("customer.surname", "O'Neil"),
        ("customer.sex", "female"),
        ("customer.email", "zoe.oneil@example.com"),
        ("customer.phone", "9876543210"),
        ("customer.telnocc", "+49"),
        ("customer.birthDate", "19840229"),
        ("customer.ip", "192.0.2.17"),
        ("customer.customerId", "1250"),
        ("card.number", "4000000000000051"),
        ("card.expiryMonth", "06"),
        ("card.expiryYear", "2030"),
        ("card.cvv", "745"),
        ("card.holder", "Zoë O'Neil"),
        ("paymentBrand", "VISA"),
        ("paymentMode", "CC"),
        ("paymentType", "DB"),
        (
            "merchantRedirectUrl",
            "https://shop.example/return?order=1001&lang=de",
        ),
        ("notificationUrl", "https://shop.example/hooks/payment"),
        ("createRegistration", "true"),
        ("recurringType", "INITIAL"),
        ("orderDescriptor", "Order #1001: 2× coffee & cake"),
    ] {
        field(out, name, value.as_bytes());
    }
    field(out, "tmpl_amount", amount);
    field(out, "tmpl_currency", b"EUR");
    field(out, "billing.country", b"DE");
    field(out, "billing.street", b"Marienplatz 1");
}

/// What the baseline takes from the answer, borrowed (strings as written, escapes and
/// all).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Deciding<'a> {
    pub payment_id: &'a str,
    pub transaction_status: &'a str,
    pub code: &'a str,
    pub description: &'a str,
    pub registration_id: &'a str,
    pub amount: &'a str,
    pub timestamp: &'a str,
}

impl Deciding<'_> {
    pub fn approved(&self) -> bool {
        self.transaction_status == "Y" || self.code == "00001"
    }
}

/// One pass over the answer: a string followed by `:` is a key, and the string values
/// of the keys wanted (top level, or in `result`) are kept. `None` for text that is not
/// UTF-8 or ends inside a string.
pub fn parse_payment(body: &[u8]) -> Option<Deciding<'_>> {
    let text = core::str::from_utf8(body).ok()?;
    let bytes = text.as_bytes();
    let mut found = Deciding::default();
    let mut depth = 0_u32;
    let mut key: &str = "";
    let mut in_result = false;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'"' => {
                let start = at + 1;
                let mut end = start;
                loop {
                    match bytes.get(end)? {
                        b'"' => break,
                        b'\\' => end += 2,
                        _ => end += 1,
                    }
                }
                let string = &text[start..end];
                at = end + 1;
                while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
                    at += 1;
                }
                if bytes.get(at) == Some(&b':') {
                    key = string;
                    at += 1;
                    continue;
                }
                let slot = match (depth, in_result, key) {
                    (1, _, "paymentId") => &mut found.payment_id,
                    (1, _, "transactionStatus") => &mut found.transaction_status,
                    (1, _, "registrationId") => &mut found.registration_id,
                    (1, _, "amount") => &mut found.amount,
                    (1, _, "timestamp") => &mut found.timestamp,
                    (2, true, "code") => &mut found.code,
                    (2, true, "description") => &mut found.description,
                    _ => continue,
                };
                *slot = string;
                continue;
            }
            b'{' => {
                depth += 1;
                in_result = depth == 2 && key == "result";
            }
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
    }
    Some(found)
}
