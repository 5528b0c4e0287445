//! What free text and URLs may hold, checked as the form writer writes them.
//!
//! Free text (a name, a city, a street, an order's descriptor) must not be blank and must
//! hold no control character. A URL the gateway calls or sends a browser to must be an
//! absolute `http` or `https` URL with a host, at most [`MAX_URL_LEN`] bytes, with no white
//! space and no control character, no user info, and a port (where it has one) from 1 to
//! 65535 ([`check_authority`]).
//!
//! The form writer reads every byte of a text it escapes anyway, so it notes in the same
//! pass which of the few bytes these rules look for it met (the byte classes below); a check
//! is then a few comparisons, and walks the text again only where such a byte is there: to
//! say where a control character stands, or to decode the rare URL that is not ASCII.
//! `check_free_text` applies the free-text rule to a text on its own (the blocks' fields).

use crate::Error;
use crate::error::check_chars;

/// What a text field may hold, for
/// [`FormWriter::optional_text`](crate::form::FormWriter::optional_text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextRule {
    /// Free text: not blank, no control characters.
    FreeText,
    /// Free text of at most this many characters.
    FreeTextUpTo(usize),
    /// A URL the gateway calls or sends a browser to: absolute `http` or `https` (either
    /// case), with a host, no white space or control characters, at most [`MAX_URL_LEN`]
    /// bytes.
    Url,
}

/// The longest URL [`TextRule::Url`] accepts, in bytes.
pub const MAX_URL_LEN: usize = 2048;

/// A byte below a space, or DEL: the control characters of ASCII.
pub(crate) const CONTROL: u8 = 1;
/// A space.
pub(crate) const SPACE: u8 = 1 << 1;
/// `0xC2`, which leads the characters U+0080 to U+00BF, the C1 controls among them (in
/// UTF-8 it is only ever a lead byte).
pub(crate) const LEAD_C2: u8 = 1 << 2;
/// A byte of a character beyond ASCII.
pub(crate) const NOT_ASCII: u8 = 1 << 3;

/// The classes of each byte, so that noting them is one load and one `or` a byte.
pub(crate) const CLASSES: [u8; 256] = byte_table!([u8; 256], 0, |b| {
    if b < b' ' || b == 0x7F {
        CONTROL
    } else if b == b' ' {
        SPACE
    } else if b == 0xC2 {
        LEAD_C2 | NOT_ASCII
    } else if b >= 0x80 {
        NOT_ASCII
    } else {
        0
    }
});

/// The classes of one byte.
fn class_of(byte: u8) -> u8 {
    CLASSES.get(usize::from(byte)).copied().unwrap_or(0)
}

/// The classes of every byte of `bytes`, or-ed together.
pub(crate) fn classes_of(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0, |seen, &byte| seen | class_of(byte))
}

impl TextRule {
    /// Checks `text`, whose bytes' classes are `seen`, naming `field` on failure.
    pub(crate) fn check(self, field: &'static str, text: &str, seen: u8) -> Result<(), Error> {
        match self {
            Self::FreeText => free_text(field, text, seen),
            Self::FreeTextUpTo(max_chars) => {
                free_text(field, text, seen)?;
                // Bytes first: a text no longer in bytes than the limit is no longer in
                // characters either, and only a longer one is counted.
                if text.len() > max_chars {
                    let len = text.chars().count();
                    if len > max_chars {
                        return Err(Error::Length {
                            field,
                            len,
                            min: 1,
                            max: max_chars,
                        });
                    }
                }
                Ok(())
            }
            Self::Url => url(field, text, seen),
        }
    }
}

/// Checks a free-text field (a name, a city, a street): not blank, no control characters.
///
/// # Errors
/// [`Error::Empty`] for blank text, [`Error::InvalidCharacter`] for a control character.
pub(crate) fn check_free_text(field: &'static str, text: &str) -> Result<(), Error> {
    free_text(field, text, classes_of(text.as_bytes()))
}

fn free_text(field: &'static str, text: &str, seen: u8) -> Result<(), Error> {
    if crate::trimmed(text).is_empty() {
        return Err(Error::Empty { field });
    }
    // The controls are the ASCII ones and U+0080 to U+009F, which all start with `0xC2`:
    // text with neither kind of byte has none, and only the rest is walked by character.
    if seen & (CONTROL | LEAD_C2) == 0 {
        return Ok(());
    }
    check_chars(field, text, "no control characters", |c| !c.is_control())
}

fn url(field: &'static str, url: &str, seen: u8) -> Result<(), Error> {
    let malformed = |reason| Err(Error::Malformed { field, reason });
    let bytes = url.as_bytes();
    let Some(rest) = after_scheme(bytes, b"https://").or_else(|| after_scheme(bytes, b"http://"))
    else {
        return malformed("must be an absolute http or https url");
    };
    if url.len() > MAX_URL_LEN {
        return malformed("is longer than 2048 bytes");
    }
    // ASCII white space and controls are all at or below a space, or DEL; other characters
    // are decoded only in the rare URL that is not ASCII.
    if seen & (CONTROL | SPACE) != 0
        || (seen & NOT_ASCII != 0 && url.chars().any(|c| c.is_whitespace() || c.is_control()))
    {
        return malformed("holds a space or a control character");
    }
    // The scheme is ASCII, so `rest` starts on a character boundary.
    let rest = url.get(url.len() - rest.len()..).unwrap_or_default();
    check_authority(rest).or_else(malformed)
}

/// Checks the authority at the start of `after_scheme` (what follows `scheme://`, up to the
/// first `/`, `?` or `#`): a host, no user info (`user:secret@`, which would be sent and
/// shown), and a port, where one is written, of 1 to 65535 digits' worth (a port out of
/// range is refused, never read as the scheme's default). The URL checks of every crate
/// share it.
///
/// ```
/// use paytoken_types::check_authority;
/// assert!(check_authority("127.0.0.1:3000/hooks").is_ok());
/// assert!(check_authority("[::1]").is_ok());
/// assert_eq!(check_authority("127.0.0.1:99999/x"), Err("has a port that is not 1 to 65535"));
/// assert_eq!(check_authority("user:secret@shop.example/"), Err("must not hold user info"));
/// ```
///
/// # Errors
/// What is wrong with it, in words that follow the URL's name.
pub fn check_authority(after_scheme: &str) -> Result<(), &'static str> {
    let end = after_scheme
        .find(['/', '?', '#'])
        .unwrap_or(after_scheme.len());
    let authority = after_scheme.get(..end).unwrap_or_default();
    if authority.contains('@') {
        return Err("must not hold user info");
    }
    let (host, port) = if authority.starts_with('[') {
        let Some(close) = authority.find(']') else {
            return Err("has an unclosed [ in its host");
        };
        let (host, after) = authority.split_at(close + 1);
        match after.strip_prefix(':') {
            Some(port) => (host, Some(port)),
            None if after.is_empty() => (host, None),
            None => return Err("has text after its [host]"),
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    if host.is_empty() || host == "[]" {
        return Err("has no host");
    }
    let in_range = |port: &str| {
        port.len() <= 5
            && !port.is_empty()
            && port.bytes().all(|b| b.is_ascii_digit())
            && port
                .parse::<u32>()
                .is_ok_and(|port| (1..=65_535).contains(&port))
    };
    match port {
        Some(port) if !in_range(port) => Err("has a port that is not 1 to 65535"),
        _ => Ok(()),
    }
}

/// What follows `scheme` (lower case, `://` included) at the start of `url`, its letters
/// compared without regard to case; `None` when `url` does not start with it.
fn after_scheme<'a, const N: usize>(url: &'a [u8], scheme: &[u8; N]) -> Option<&'a [u8]> {
    let (head, rest) = url.split_first_chunk::<N>()?;
    head.iter()
        .zip(scheme)
        .all(|(&byte, &expected)| byte.to_ascii_lowercase() == expected)
        .then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;

    /// The URL rule on a text alone.
    fn check_url(field: &'static str, url: &str) -> Result<(), Error> {
        self::url(field, url, classes_of(url.as_bytes()))
    }

    #[test]
    fn control_characters_are_found_in_the_byte_classes_as_by_character() {
        // Every code point around the three edges, alone and inside text; the oracle is
        // the standard library's `trim` and `char::is_control`.
        for code in (0..0x300_u32).chain([0x2028, 0x2029, 0xFEFF, 0x1_F600]) {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            for text in [format!("{c}"), format!("Zoë {c}x"), format!("\u{c2}{c}")] {
                assert_eq!(
                    check_free_text("f", &text).is_err(),
                    text.trim().is_empty() || text.chars().any(char::is_control),
                    "{code:#x}"
                );
            }
        }
    }

    #[test]
    fn urls_are_checked() {
        assert!(check_url("u", "https://shop.example/return?order=1").is_ok());
        assert!(check_url("u", "HTTP://shop.example").is_ok());
        for bad in [
            "shop.example",
            "https://",
            "https:///path",
            "ftp://shop.example",
            "https://shop example",
            "https://shop.example/\u{7}",
            "https://shop.example/\u{a0}",
            "https://shop.example/\u{85}",
            "https://shop.example/\u{2003}",
        ] {
            assert_eq!(check_url("u", bad).unwrap_err().field(), Some("u"), "{bad}");
        }
        let long = format!("https://shop.example/{}", "a".repeat(MAX_URL_LEN));
        assert!(check_url("u", &long).is_err());
    }

    /// Regression: `:99999` was read as no port, so the scheme's default (80) was used,
    /// and `user:secret@` was sent in the `Host` header and printed.
    #[test]
    fn an_authority_has_a_host_no_user_info_and_a_port_in_range() {
        for good in [
            "shop.example",
            "shop.example:1/x",
            "127.0.0.1:65535?q=1",
            "[::1]",
            "[::1]:8080/hooks",
            "h#frag",
        ] {
            assert_eq!(check_authority(good), Ok(()), "{good}");
        }
        for (bad, reason) in [
            ("127.0.0.1:99999/x", "has a port that is not 1 to 65535"),
            ("127.0.0.1:65536", "has a port that is not 1 to 65535"),
            ("127.0.0.1:0", "has a port that is not 1 to 65535"),
            ("127.0.0.1:", "has a port that is not 1 to 65535"),
            ("127.0.0.1:+80", "has a port that is not 1 to 65535"),
            ("127.0.0.1:000080", "has a port that is not 1 to 65535"),
            ("[::1]:70000", "has a port that is not 1 to 65535"),
            ("user:secret@host/", "must not hold user info"),
            ("user@host", "must not hold user info"),
            (":80/", "has no host"),
            ("/path", "has no host"),
            ("", "has no host"),
            ("[::1", "has an unclosed [ in its host"),
            ("[::1]x", "has text after its [host]"),
        ] {
            assert_eq!(check_authority(bad), Err(reason), "{bad}");
        }
        for bad in [
            "http://127.0.0.1:99999/x",
            "https://user:secret@shop.example/",
        ] {
            assert!(check_url("u", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn free_text_refuses_blanks_and_controls_and_says_where() {
        assert!(check_free_text("customer.givenName", "Zoë").is_ok());
        assert_eq!(
            check_free_text("customer.givenName", " "),
            Err(Error::Empty {
                field: "customer.givenName"
            })
        );
        assert_eq!(
            check_free_text("billing.city", "Zoë\u{85}x"),
            Err(Error::InvalidCharacter {
                field: "billing.city",
                position: 4,
                expected: "no control characters"
            })
        );
        // `0xC2` that leads a character other than a control (a no-break space, `©`).
        assert!(check_free_text("billing.city", "Caf\u{a0}\u{a9}").is_ok());
    }

    #[test]
    fn a_descriptor_is_limited_in_characters_not_bytes() {
        let rule = TextRule::FreeTextUpTo(3);
        let check = |text: &str| rule.check("d", text, classes_of(text.as_bytes()));
        assert!(check("äöü").is_ok());
        assert_eq!(
            check("abcd"),
            Err(Error::Length {
                field: "d",
                len: 4,
                min: 1,
                max: 3
            })
        );
    }
}
