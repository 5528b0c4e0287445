//! The form encoder and decoder, against the rule byte by byte and what browsers send.

use super::*;
use crate::test_prelude::*;

fn decoded(body: &[u8]) -> Result<Vec<(String, String)>, Error> {
    decode(body)
        .map(|pair| pair.map(|(n, v)| (n.into_owned(), v.into_owned())))
        .collect()
}

#[test]
fn a_field_longer_than_the_buffer_grows_it_whole() {
    let mut body = Vec::with_capacity(4);
    let long = "Zoë O'Neil ".repeat(20);
    FormWriter::new(&mut body).field("card.holder", &long);
    let decoded = decoded(&body).unwrap();
    assert_eq!(decoded, [("card.holder".to_owned(), long)]);
    assert!(body.capacity() >= body.len());
    // Room is made once per field, for the value at its longest.
    let before = body.capacity();
    FormWriter::new(&mut body).field("a", "b");
    assert!(body.capacity() == before || body.capacity() >= 2 * before);
}

#[test]
fn encodes_the_unreserved_set_plainly_and_the_rest_as_escapes() {
    let mut out = Vec::new();
    encode_into(&mut out, b"AZaz09*-._");
    assert_eq!(out, b"AZaz09*-._");
    out.clear();
    encode_into(&mut out, "a b+c&d=e/f~g%h|i\u{e9}\n".as_bytes());
    assert_eq!(out, b"a+b%2Bc%26d%3De%2Ff%7Eg%25h%7Ci%C3%A9%0A");
}

#[test]
fn every_byte_is_encoded_by_the_rule() {
    for byte in 0..=u8::MAX {
        let expected: Vec<u8> = if stays(byte) {
            vec![byte]
        } else if byte == b' ' {
            vec![b'+']
        } else {
            format!("%{byte:02X}").into_bytes()
        };
        let mut out = Vec::new();
        encode_into(&mut out, &[byte]);
        assert_eq!(out, expected);
        assert_eq!(all_stay(&[byte]), stays(byte), "{byte}");
    }
}

proptest::proptest! {
    /// Any bytes, of any length across the escape loop's chunks, after any body
    /// already written, and into a buffer with any room: the same text as a byte by
    /// byte `format!` of the rule.
    #[test]
    fn any_bytes_encode_as_the_rule_says(
        bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..200),
        before in 0_usize..40,
        room in 0_usize..300,
    ) {
        let mut expected = b"x".repeat(before);
        for &byte in &bytes {
            match byte {
                _ if stays(byte) => expected.push(byte),
                b' ' => expected.push(b'+'),
                _ => expected.extend(format!("%{byte:02X}").into_bytes()),
            }
        }
        let mut out = Vec::with_capacity(room);
        out.extend(b"x".repeat(before));
        encode_into(&mut out, &bytes);
        proptest::prop_assert_eq!(out, expected);
    }

    /// Every IPv4 address is written as the standard library's text of it.
    #[test]
    fn any_ipv4_address_is_written_as_its_display_text(octets in proptest::prelude::any::<[u8; 4]>()) {
        let ip = core::net::Ipv4Addr::from(octets);
        let mut body = Vec::new();
        FormWriter::new(&mut body).ip("customer.ip", IpAddr::V4(ip));
        proptest::prop_assert_eq!(String::from_utf8(body).unwrap(), format!("customer.ip={ip}"));
    }
}

#[test]
fn long_text_with_escapes_is_encoded_whole() {
    let text = "ä b/".repeat(40);
    let mut out = Vec::new();
    encode_into(&mut out, text.as_bytes());
    assert_eq!(out, "%C3%A4+b%2F".repeat(40).into_bytes());
}

#[test]
fn writes_fields_in_order_and_leaves_out_absent_ones() {
    let mut body = b"existing=1".to_vec();
    let mut form = FormWriter::new(&mut body);
    form.field("customer.givenName", "Jo");
    form.optional("customer.phone", None::<&str>);
    form.display("amount", &crate::Amount::from_minor_units(5000));
    assert_eq!(body, b"existing=1&customer.givenName=Jo&amount=50.00");
}

/// A name that needs escapes is encoded like a value, first in a body or after a field.
#[test]
fn a_name_is_encoded_as_a_value_is() {
    for (before, expected) in [
        (&b""[..], &b"x%26y+%C3%A9=1"[..]),
        (b"a=1", b"a=1&x%26y+%C3%A9=1"),
    ] {
        let mut body = before.to_vec();
        FormWriter::new(&mut body).field("x&y \u{e9}", "1");
        assert_eq!(body, expected);
    }
}

/// The open enums' plainness, worked out when compiled, is the writer's.
#[test]
fn plain_text_known_when_compiled_is_what_the_writer_copies() {
    for text in ["amount", "a b", "x&y=z%", "\u{e9}", "", "*-._"] {
        assert_eq!(is_plain(text), all_stay(text.as_bytes()), "{text}");
    }
}

#[test]
fn writes_ip_addresses_as_their_display_text() {
    use core::net::{Ipv4Addr, Ipv6Addr};
    for ip in [
        IpAddr::V4(Ipv4Addr::new(0, 9, 10, 255)),
        IpAddr::V4(Ipv4Addr::new(192, 168, 100, 1)),
        IpAddr::V6(Ipv6Addr::LOCALHOST),
        IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)),
    ] {
        let mut body = Vec::new();
        FormWriter::new(&mut body).ip("customer.ip", ip);
        let expected = format!("customer.ip={ip}").replace(':', "%3A");
        assert_eq!(String::from_utf8(body).unwrap(), expected);
    }
}

#[test]
fn decodes_what_browsers_send() {
    assert_eq!(
        decoded(b"a=1&&b=x+y%2Fz&c&d=").unwrap(),
        vec![
            ("a".into(), "1".into()),
            ("b".into(), "x y/z".into()),
            ("c".into(), String::new()),
            ("d".into(), String::new()),
        ]
    );
    assert_eq!(decoded(b"").unwrap(), vec![]);
    assert_eq!(
        decoded(b"%C3%A9=%c3%a9").unwrap(),
        vec![("é".into(), "é".into())]
    );
}

#[test]
fn refuses_malformed_escapes_and_bad_utf8() {
    assert_eq!(decoded(b"a=%4"), Err(Error::MalformedEscape { offset: 2 }));
    assert_eq!(
        decoded(b"a=1&b=%zz"),
        Err(Error::MalformedEscape { offset: 6 })
    );
    assert_eq!(
        decoded(b"a=1&b%"),
        Err(Error::MalformedEscape { offset: 5 })
    );
    assert_eq!(decoded(b"a=1&b=%FF"), Err(Error::InvalidUtf8 { offset: 4 }));
    assert_eq!(decoded(b"a=\xff"), Err(Error::InvalidUtf8 { offset: 0 }));
    let mut after_error = decode(b"a=%&b=1");
    assert!(after_error.next().unwrap().is_err());
    assert!(after_error.next().is_none());
}

#[test]
fn a_path_segment_is_decoded_and_a_broken_escape_refused() {
    let decoded = |segment| decode_path_segment(segment).map(alloc::borrow::Cow::into_owned);
    assert_eq!(
        decoded("Rest%20Transaction%2001%2Fa+b").as_deref(),
        Some("Rest Transaction 01/a+b")
    );
    assert_eq!(decoded("plain").as_deref(), Some("plain"));
    assert_eq!(decoded("%C3%BC").as_deref(), Some("ü"));
    for broken in ["%", "%2", "%zz", "%FF", "%%41", "a%2"] {
        assert_eq!(decoded(broken), None, "{broken}");
    }
}

proptest::proptest! {
    #[test]
    fn any_text_comes_back_from_its_path_segment(text in "\\PC*") {
        let encoded = path_segment(&text).to_string();
        let decoded = decode_path_segment(&encoded).map(alloc::borrow::Cow::into_owned);
        proptest::prop_assert_eq!(decoded, Some(text));
    }
}

#[test]
fn a_path_segment_keeps_only_the_unreserved_bytes() {
    let encoded = path_segment("Rest Transaction 01/a:b|ü~x.y_z-*+").to_string();
    assert_eq!(
        encoded,
        "Rest%20Transaction%2001%2Fa%3Ab%7C%C3%BC~x.y_z-%2A%2B"
    );
}
