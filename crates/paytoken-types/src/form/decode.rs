//! Reading a form body back into its pairs: the sandbox reads requests with it, the
//! protocol notifications posted as forms.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::Error;

/// Decodes a form body into its `(name, value)` pairs, in order.
///
/// Empty pieces (`a=1&&b=2`) are skipped and a piece without `=` is a name with an empty
/// value, as browsers do. Unlike browsers it refuses what it cannot read: a `%` without two
/// hex digits after it is [`Error::MalformedEscape`], text that is not UTF-8 once decoded
/// is [`Error::InvalidUtf8`]. The iterator ends after the first error. It never panics.
pub fn decode(body: &[u8]) -> Decode<'_> {
    Decode {
        body,
        offset: 0,
        failed: false,
    }
}

/// The iterator of [`decode`].
#[derive(Debug, Clone)]
pub struct Decode<'a> {
    body: &'a [u8],
    offset: usize,
    failed: bool,
}

impl<'a> Iterator for Decode<'a> {
    type Item = Result<(Cow<'a, str>, Cow<'a, str>), Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.failed {
                return None;
            }
            let rest = self.body.get(self.offset..)?;
            if rest.is_empty() {
                return None;
            }
            let start = self.offset;
            let piece_len = rest.iter().position(|&b| b == b'&').unwrap_or(rest.len());
            let piece = rest.get(..piece_len).unwrap_or_default();
            self.offset = start + piece_len + 1;
            if piece.is_empty() {
                continue;
            }
            let (name, value, value_offset) = match piece.iter().position(|&b| b == b'=') {
                Some(eq) => (
                    piece.get(..eq).unwrap_or_default(),
                    piece.get(eq + 1..).unwrap_or_default(),
                    start + eq + 1,
                ),
                None => (piece, &[][..], start + piece_len),
            };
            let pair = decode_component(name, start)
                .and_then(|name| Ok((name, decode_component(value, value_offset)?)));
            if pair.is_err() {
                self.failed = true;
            }
            return Some(pair.map_err(|error| match error {
                Error::InvalidUtf8 { .. } => Error::InvalidUtf8 { offset: start },
                other => other,
            }));
        }
    }
}

/// Decodes one name or value that starts at `offset` in the body.
fn decode_component(bytes: &[u8], offset: usize) -> Result<Cow<'_, str>, Error> {
    if !bytes.iter().any(|&b| b == b'%' || b == b'+') {
        return core::str::from_utf8(bytes)
            .map(Cow::Borrowed)
            .map_err(|_| Error::InvalidUtf8 { offset });
    }
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        match byte {
            b'+' => decoded.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(index + 1)
                    .and_then(|&high| Some((hex_value(high)?, hex_value(*bytes.get(index + 2)?)?)));
                let Some((high, low)) = hex else {
                    return Err(Error::MalformedEscape {
                        offset: offset + index,
                    });
                };
                decoded.push(high << 4 | low);
                index += 2;
            }
            other => decoded.push(other),
        }
        index += 1;
    }
    String::from_utf8(decoded)
        .map(Cow::Owned)
        .map_err(|_| Error::InvalidUtf8 { offset })
}

fn hex_value(byte: u8) -> Option<u8> {
    char::from(byte)
        .to_digit(16)
        .and_then(|digit| u8::try_from(digit).ok())
}
