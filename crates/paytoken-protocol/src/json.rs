//! A borrowing reader of JSON text: one pass over an answer's body, in the gateway's order.
//!
//! An answer is read once, front to back. Keys and strings come out as slices of the body,
//! and a string is decoded into a new `String` only when it holds an escape. A number or a
//! literal comes out as its text as written (`50.10`, `true`), so digits are never lost to
//! a float. Values nobody asked for are read past, checked but not kept.
//!
//! What it accepts is RFC 8259 JSON, exactly the texts serde_json accepts (a property
//! test below holds it to that, on valid texts and on broken ones), with two choices of its
//! own:
//! - nesting deeper than [`MAX_DEPTH`] arrays and objects is an error rather than a deep
//!   stack;
//! - a `\u` escape of half a surrogate pair decodes to U+FFFD, so the rest of the text
//!   survives (serde_json refuses such a string).
//!
//! The reader knows syntax only: how a value becomes a field (`null` is absence, a list of
//! one is its element, ...) is `crate::answer`'s business.

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

/// How deeply arrays and objects may nest, counted from the answer's top.
pub(crate) const MAX_DEPTH: usize = 128;

/// Where a body stops being JSON, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct JsonError {
    /// The byte offset of the problem (the body's length when it ends too early).
    pub(crate) at: usize,
    /// What is wrong there.
    pub(crate) problem: Problem,
}

/// What is wrong where a body stops being JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Problem {
    /// The text ends inside a value.
    Eof,
    /// No value starts here.
    ExpectedValue,
    /// A key is not followed by `:`.
    ExpectedColon,
    /// A value inside an array or object is followed by neither `,` nor the closing bracket.
    ExpectedCommaOrEnd,
    /// An object's key is not a string.
    KeyMustBeString,
    /// A string holds a raw control character.
    ControlCharacter,
    /// A backslash starts no escape JSON knows.
    InvalidEscape,
    /// A number breaks JSON's grammar.
    InvalidNumber,
    /// Something other than white space follows the value.
    TrailingCharacters,
    /// Arrays and objects nest deeper than [`MAX_DEPTH`].
    TooDeep,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Eof => "the text ends inside a value",
            Self::ExpectedValue => "expected a value",
            Self::ExpectedColon => "expected `:`",
            Self::ExpectedCommaOrEnd => "expected `,` or the end of the array or object",
            Self::KeyMustBeString => "a key must be a string",
            Self::ControlCharacter => "a control character inside a string",
            Self::InvalidEscape => "an invalid escape",
            Self::InvalidNumber => "an invalid number",
            Self::TrailingCharacters => "trailing characters after the value",
            Self::TooDeep => "arrays and objects nest too deeply",
        })
    }
}

/// What kind of value starts at the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Object,
    Array,
    String,
    Null,
    /// A number, `true` or `false`.
    Scalar,
}

/// A reader over one JSON text.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    text: &'a str,
    at: usize,
    /// Arrays and objects entered through [`object`](Self::object) and
    /// [`array`](Self::array) and not yet left.
    depth: usize,
}

/// Whether a byte ends the plain run of a string: a quote, a backslash, or a control
/// character.
const fn ends_plain_run(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// How many bytes of `bytes` are plain string text: the offset of the first quote,
/// backslash or control character, or the length when there is none.
///
/// Eight bytes at a time, in a word: most of an answer is strings, and this scan was the
/// largest part of reading one.
#[inline(always)]
fn plain_len(bytes: &[u8]) -> usize {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    /// Flags (in its high bit) each byte of `word` that is zero. A byte above a flagged
    /// one may be flagged wrongly, never one below it, so the lowest flag is right.
    const fn zero_bytes(word: u64) -> u64 {
        word.wrapping_sub(ONES) & !word & HIGHS
    }
    let mut offset = 0;
    while let Some(chunk) = bytes.get(offset..offset + 8) {
        let Ok(chunk) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let word = u64::from_le_bytes(chunk);
        let stops = zero_bytes(word ^ (ONES * u64::from(b'"')))
            | zero_bytes(word ^ (ONES * u64::from(b'\\')))
            // Bytes below 0x20, by the same borrow: exact for the lowest one.
            | (word.wrapping_sub(ONES * 0x20) & !word & HIGHS);
        if stops != 0 {
            // Invariant: a nonzero word has fewer than 64 trailing zeros, so the byte
            // index is below 8 and the conversion is exact.
            #[allow(clippy::as_conversions)]
            return offset + (stops.trailing_zeros() / 8) as usize;
        }
        offset += 8;
    }
    let rest = bytes.get(offset..).unwrap_or_default();
    offset
        + rest
            .iter()
            .position(|&byte| ends_plain_run(byte))
            .unwrap_or(rest.len())
}

/// Whether a byte is white space between JSON's tokens: one comparison rules out every
/// visible byte, a bit of a mask decides the rest (pretty-printed answers indent each line,
/// so this is asked of many bytes).
const fn is_space(byte: u8) -> bool {
    const SPACES: u64 = 1 << b' ' | 1 << b'\n' | 1 << b'\r' | 1 << b'\t';
    byte <= b' ' && SPACES & (1 << byte) != 0
}

impl<'a> Reader<'a> {
    pub(crate) const fn new(text: &'a str) -> Self {
        Self {
            text,
            at: 0,
            depth: 0,
        }
    }

    /// The byte offset the reader is at.
    pub(crate) const fn position(&self) -> usize {
        self.at
    }

    /// The text from `start` to where the reader is: the raw text of a value just read.
    pub(crate) fn since(&self, start: usize) -> Result<&'a str, JsonError> {
        self.slice(start, self.at)
    }

    /// Checks that nothing but white space follows the value read.
    pub(crate) fn finish(mut self) -> Result<(), JsonError> {
        match self.peek_past_space() {
            // The end, found past the white space.
            Err(_) => Ok(()),
            Ok(_) => Err(self.error(Problem::TrailingCharacters)),
        }
    }

    /// The kind of the next value, after white space; the reader then stands at its first
    /// byte.
    pub(crate) fn kind(&mut self) -> Result<Kind, JsonError> {
        match self.peek()? {
            b'{' => Ok(Kind::Object),
            b'[' => Ok(Kind::Array),
            b'"' => Ok(Kind::String),
            b'n' => Ok(Kind::Null),
            b'-' | b'0'..=b'9' | b't' | b'f' => Ok(Kind::Scalar),
            _ => Err(self.error(Problem::ExpectedValue)),
        }
    }

    /// Reads a string: borrowed from the text, or decoded when it holds an escape.
    pub(crate) fn string(&mut self) -> Result<Cow<'a, str>, JsonError> {
        if self.peek()? != b'"' {
            return Err(self.error(Problem::ExpectedValue));
        }
        self.string_here()
    }

    /// [`string`](Self::string) where the reader stands on the opening quote (as
    /// [`kind`](Self::kind) leaves it). Inlined where an object reads its keys and where a
    /// text value is read: the strings of an answer.
    #[inline(always)]
    pub(crate) fn string_here(&mut self) -> Result<Cow<'a, str>, JsonError> {
        self.at += 1;
        let start = self.at;
        match self.plain_run()? {
            b'"' => {
                let text = self.slice(start, self.at)?;
                self.at += 1;
                Ok(Cow::Borrowed(text))
            }
            _ => self.escaped(start).map(Cow::Owned),
        }
    }

    /// Reads a number, `true`, `false` or `null`: its text as written.
    pub(crate) fn scalar(&mut self) -> Result<&'a str, JsonError> {
        let start = self.at;
        match self.peek()? {
            b't' => self.literal(b"true")?,
            b'f' => self.literal(b"false")?,
            b'n' => self.literal(b"null")?,
            b'-' | b'0'..=b'9' => self.number()?,
            _ => return Err(self.error(Problem::ExpectedValue)),
        }
        self.since(start)
    }

    /// Reads an object, handing each key to `field`, which must read its value.
    pub(crate) fn object<F>(&mut self, mut field: F) -> Result<(), JsonError>
    where
        F: FnMut(&mut Self, &str) -> Result<(), JsonError>,
    {
        self.enter(b'{')?;
        if self.peek()? == b'}' {
            self.leave();
            return Ok(());
        }
        loop {
            if self.peek()? != b'"' {
                return Err(self.error(Problem::KeyMustBeString));
            }
            let key = self.string_here()?;
            self.colon()?;
            field(self, &key)?;
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.leave();
                    return Ok(());
                }
                _ => return Err(self.error(Problem::ExpectedCommaOrEnd)),
            }
        }
    }

    /// Reads an array, calling `element` for each item, which must read it.
    pub(crate) fn array<F>(&mut self, mut element: F) -> Result<(), JsonError>
    where
        F: FnMut(&mut Self) -> Result<(), JsonError>,
    {
        self.enter(b'[')?;
        if self.peek()? == b']' {
            self.leave();
            return Ok(());
        }
        loop {
            element(self)?;
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.leave();
                    return Ok(());
                }
                _ => return Err(self.error(Problem::ExpectedCommaOrEnd)),
            }
        }
    }

    /// Reads past one value, checking it.
    pub(crate) fn skip(&mut self) -> Result<(), JsonError> {
        self.skip_noting_blank(false).map(drop)
    }

    /// Reads past one value, checking it, and says whether it is blank: `null`, a string
    /// of white space, or arrays and objects of nothing else. Blankness is worked out only
    /// when `note_blank` asks for it (else the answer is `false`).
    ///
    /// A string, most of what an answer's skipped and kept members hold, is read here,
    /// inlined where a member is skipped; anything else by the general loop, out of line.
    #[inline(always)]
    pub(crate) fn skip_noting_blank(&mut self, note_blank: bool) -> Result<bool, JsonError> {
        match self.peek()? {
            b'"' if note_blank => self.string_is_blank(),
            b'"' => self.skip_string().map(|()| false),
            _ => self.skip_structure_noting_blank(note_blank),
        }
    }

    /// [`skip_noting_blank`](Self::skip_noting_blank) for any value: the loop over
    /// containers, which also reads scalars and strings inside them.
    ///
    /// The loop reads with a copy of the reader that lives in registers, written back when
    /// it is done: stepping `self.at` through memory made each step wait for the store of
    /// the one before. So every method the loop calls is inlined, and each rare path (a
    /// `\u` escape, a string that may be blank, a scalar) reads on a copy of its own,
    /// out of line. (One generic helper for the three read 3 % slower, measured.)
    #[inline(never)]
    fn skip_structure_noting_blank(&mut self, note_blank: bool) -> Result<bool, JsonError> {
        let mut local = self.detached();
        let read = local.skip_structure_here(note_blank);
        self.at = local.at;
        read
    }

    /// A copy of the reader, to read with and then move this one to where it ended.
    const fn detached(&self) -> Self {
        Self {
            text: self.text,
            at: self.at,
            depth: self.depth,
        }
    }

    /// The loop of [`skip_structure_noting_blank`](Self::skip_structure_noting_blank).
    #[inline(always)]
    fn skip_structure_here(&mut self, note_blank: bool) -> Result<bool, JsonError> {
        // Which of the containers opened here are objects, one bit per level; no stack to
        // grow, since the depth is bounded by the width of the word.
        let mut objects: u128 = 0;
        let mut nesting: usize = 0;
        let mut blank = note_blank;
        loop {
            // A value starts here.
            match self.peek()? {
                open @ (b'{' | b'[') => {
                    if self.depth + nesting >= MAX_DEPTH {
                        return Err(self.error(Problem::TooDeep));
                    }
                    let is_object = open == b'{';
                    objects = (objects << 1) | u128::from(is_object);
                    nesting += 1;
                    self.at += 1;
                    let close = if is_object { b'}' } else { b']' };
                    if self.peek()? == close {
                        self.at += 1;
                        objects >>= 1;
                        nesting -= 1;
                    } else if is_object {
                        self.key_and_colon()?;
                        continue;
                    } else {
                        continue;
                    }
                }
                b'"' if blank => blank = self.string_is_blank()?,
                b'"' => self.skip_string()?,
                _ => blank &= self.scalar_detached()? == "null",
            }
            // After a value: close what ends here, or go on to the next item.
            loop {
                if nesting == 0 {
                    return Ok(blank);
                }
                let in_object = objects & 1 == 1;
                match (self.peek()?, in_object) {
                    (b',', _) => {
                        self.at += 1;
                        if in_object {
                            self.key_and_colon()?;
                        }
                        break;
                    }
                    (b'}', true) | (b']', false) => {
                        self.at += 1;
                        objects >>= 1;
                        nesting -= 1;
                    }
                    _ => return Err(self.error(Problem::ExpectedCommaOrEnd)),
                }
            }
        }
    }

    /// The error of a problem where the reader is.
    pub(crate) const fn error(&self, problem: Problem) -> JsonError {
        JsonError {
            at: self.at,
            problem,
        }
    }

    fn byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// The next byte after white space, not consumed. Compact JSON has no space between
    /// tokens, so the byte at hand is looked at first.
    #[inline(always)]
    fn peek(&mut self) -> Result<u8, JsonError> {
        match self.byte() {
            Some(byte) if !is_space(byte) => Ok(byte),
            _ => self.peek_past_space(),
        }
    }

    /// [`peek`](Self::peek) past white space. A space is asked about first, on its own: it
    /// is what a pretty-printed answer's indentation and `": "` are made of.
    #[inline(always)]
    fn peek_past_space(&mut self) -> Result<u8, JsonError> {
        let bytes = self.text.as_bytes();
        let mut at = self.at;
        loop {
            match bytes.get(at) {
                Some(b' ') => at += 1,
                Some(&byte) if is_space(byte) => at += 1,
                found => {
                    self.at = at;
                    return found.copied().ok_or_else(|| self.error(Problem::Eof));
                }
            }
        }
    }

    fn slice(&self, start: usize, end: usize) -> Result<&'a str, JsonError> {
        // Invariant: every offset the reader keeps is at an ASCII byte or an end of the
        // text, so on a character's boundary; the error is never taken.
        self.text
            .get(start..end)
            .ok_or_else(|| self.error(Problem::ExpectedValue))
    }

    fn enter(&mut self, open: u8) -> Result<(), JsonError> {
        if self.peek()? != open {
            return Err(self.error(Problem::ExpectedValue));
        }
        if self.depth >= MAX_DEPTH {
            return Err(self.error(Problem::TooDeep));
        }
        self.depth += 1;
        self.at += 1;
        Ok(())
    }

    /// Steps past the closing bracket the caller has seen.
    fn leave(&mut self) {
        self.depth -= 1;
        self.at += 1;
    }

    /// Reads past the colon after a key, and the one space a pretty-printed answer puts
    /// after it (`"key": value`), so that the value is found without a walk over white
    /// space.
    #[inline(always)]
    fn colon(&mut self) -> Result<(), JsonError> {
        if self.peek()? != b':' {
            return Err(self.error(Problem::ExpectedColon));
        }
        self.at += 1;
        if self.byte() == Some(b' ') {
            self.at += 1;
        }
        Ok(())
    }

    /// Reads past a key and its colon, in a structure read past. Inlined in that loop's two
    /// places: a kept or skipped object is mostly keys.
    #[inline(always)]
    fn key_and_colon(&mut self) -> Result<(), JsonError> {
        if self.peek()? != b'"' {
            return Err(self.error(Problem::KeyMustBeString));
        }
        self.skip_string()?;
        self.colon()
    }

    /// Moves past plain string bytes to the next quote, backslash or control character,
    /// and returns it (the reader stays on it).
    #[inline(always)]
    fn plain_run(&mut self) -> Result<u8, JsonError> {
        let rest = self.text.as_bytes().get(self.at..).unwrap_or_default();
        let offset = plain_len(rest);
        self.at += offset;
        match rest.get(offset).copied() {
            Some(byte) if byte >= 0x20 => Ok(byte),
            Some(_) => Err(self.error(Problem::ControlCharacter)),
            None => Err(self.error(Problem::Eof)),
        }
    }

    /// Reads the rest of a string that holds an escape, from `start` (just after its
    /// opening quote); the reader stands on the first backslash. Kept out of line, so that
    /// the common string, with no escape, is read by a short function.
    #[cold]
    #[inline(never)]
    fn escaped(&mut self, start: usize) -> Result<String, JsonError> {
        let mut decoded = String::with_capacity(self.at - start + 16);
        decoded.push_str(self.slice(start, self.at)?);
        loop {
            // The reader stands on a backslash.
            self.at += 1;
            let escape = self.byte().ok_or_else(|| self.error(Problem::Eof))?;
            self.at += 1;
            match escape {
                b'"' => decoded.push('"'),
                b'\\' => decoded.push('\\'),
                b'/' => decoded.push('/'),
                b'b' => decoded.push('\u{8}'),
                b'f' => decoded.push('\u{c}'),
                b'n' => decoded.push('\n'),
                b'r' => decoded.push('\r'),
                b't' => decoded.push('\t'),
                b'u' => decoded.push(self.unicode_escape()?),
                _ => {
                    self.at -= 1;
                    return Err(self.error(Problem::InvalidEscape));
                }
            }
            let run = self.at;
            let end = self.plain_run()?;
            decoded.push_str(self.slice(run, self.at)?);
            if end == b'"' {
                self.at += 1;
                return Ok(decoded);
            }
        }
    }

    /// The character of a `\u` escape whose four digits come next: a surrogate pair makes
    /// one character, half of one is U+FFFD.
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let unit = self.hex4()?;
        if !(0xD800..0xDC00).contains(&unit) {
            return Ok(char::from_u32(unit).unwrap_or(char::REPLACEMENT_CHARACTER));
        }
        // A high surrogate: a low one must follow as another escape.
        let bytes = self.text.as_bytes();
        if bytes.get(self.at) == Some(&b'\\') && bytes.get(self.at + 1) == Some(&b'u') {
            let resume = self.at;
            self.at += 2;
            let low = self.hex4()?;
            if (0xDC00..0xE000).contains(&low) {
                let code = 0x1_0000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                return Ok(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            // Not a pair: the second escape is read on its own.
            self.at = resume;
        }
        Ok(char::REPLACEMENT_CHARACTER)
    }

    /// Where four hexadecimal digits end, read on a copy of the reader (for a string read
    /// past).
    #[inline(never)]
    fn past_hex4(mut self) -> Result<usize, JsonError> {
        self.hex4()?;
        Ok(self.at)
    }

    /// Four hexadecimal digits.
    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut value = 0;
        for _ in 0..4 {
            let digit = self
                .byte()
                .and_then(|byte| char::from(byte).to_digit(16))
                .ok_or_else(|| match self.byte() {
                    None => self.error(Problem::Eof),
                    Some(_) => self.error(Problem::InvalidEscape),
                })?;
            value = value * 16 + digit;
            self.at += 1;
        }
        Ok(value)
    }

    /// Reads past a string and says whether it is blank. A string that starts with a
    /// visible ASCII character other than a backslash is not, and is only read past;
    /// any other is read, its escapes decoded, and looked at whole. Inlined: most members
    /// an answer keeps are short strings, read past here.
    #[inline(always)]
    fn string_is_blank(&mut self) -> Result<bool, JsonError> {
        match self.text.as_bytes().get(self.at + 1) {
            Some(&first) if first > b' ' && first.is_ascii() && !matches!(first, b'\\' | b'"') => {
                self.skip_string().map(|()| false)
            }
            _ => {
                let (at, blank) = self.detached().blank_string()?;
                self.at = at;
                Ok(blank)
            }
        }
    }

    /// Reads a string that may be blank, and says where it ends and whether it is: the
    /// rare half of [`string_is_blank`](Self::string_is_blank), on a copy of the reader.
    #[inline(never)]
    fn blank_string(mut self) -> Result<(usize, bool), JsonError> {
        let blank = is_blank_text(&self.string()?);
        Ok((self.at, blank))
    }

    /// [`scalar`](Self::scalar), read on a copy of the reader (a scalar is rare inside
    /// what is read past).
    fn scalar_detached(&mut self) -> Result<&'a str, JsonError> {
        let (text, at) = self.detached().scalar_ending()?;
        self.at = at;
        Ok(text)
    }

    /// The scalar at a copy of the reader, and where it ends.
    #[inline(never)]
    fn scalar_ending(mut self) -> Result<(&'a str, usize), JsonError> {
        let text = self.scalar()?;
        Ok((text, self.at))
    }

    /// Reads past a string, checking its escapes without decoding them.
    #[inline(always)]
    fn skip_string(&mut self) -> Result<(), JsonError> {
        self.at += 1;
        loop {
            if self.plain_run()? == b'"' {
                self.at += 1;
                return Ok(());
            }
            self.at += 1;
            match self.byte() {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => self.at += 1,
                Some(b'u') => {
                    self.at += 1;
                    self.at = self.detached().past_hex4()?;
                }
                Some(_) => return Err(self.error(Problem::InvalidEscape)),
                None => return Err(self.error(Problem::Eof)),
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> Result<(), JsonError> {
        let end = self.at + word.len();
        match self.text.as_bytes().get(self.at..end) {
            Some(found) if found == word => {
                self.at = end;
                Ok(())
            }
            _ => {
                // Point at the first byte that differs, or the end.
                let rest = self.text.as_bytes().get(self.at..).unwrap_or_default();
                let same = rest.iter().zip(word).take_while(|(a, b)| a == b).count();
                self.at += same;
                Err(self.error(if self.at == self.text.len() {
                    Problem::Eof
                } else {
                    Problem::ExpectedValue
                }))
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Result<(), JsonError> {
        if self.byte() == Some(b'-') {
            self.at += 1;
        }
        match self.byte() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.number_error()),
        }
        if self.byte() == Some(b'.') {
            self.at += 1;
            self.some_digits()?;
        }
        if matches!(self.byte(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.byte(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            self.some_digits()?;
        }
        Ok(())
    }

    fn digits(&mut self) {
        while self.byte().is_some_and(|byte| byte.is_ascii_digit()) {
            self.at += 1;
        }
    }

    fn some_digits(&mut self) -> Result<(), JsonError> {
        if !self.byte().is_some_and(|byte| byte.is_ascii_digit()) {
            return Err(self.number_error());
        }
        self.digits();
        Ok(())
    }

    fn number_error(&self) -> JsonError {
        self.error(match self.byte() {
            None => Problem::Eof,
            Some(_) => Problem::InvalidNumber,
        })
    }
}

/// Whether `text` is empty or white space only, answered from its first byte when that is
/// a visible ASCII character (`is_ascii_whitespace` would not do: it leaves out the
/// vertical tab, which `trim` counts).
pub(crate) fn is_blank_text(text: &str) -> bool {
    match text.as_bytes().first() {
        Some(&first) if first > b' ' && first.is_ascii() => false,
        _ => text.trim().is_empty(),
    }
}

/// The line and column (both from 1, the column in bytes) of a byte offset; an offset at
/// the end is shown on the last byte.
pub(crate) fn line_and_column(text: &[u8], at: usize) -> (usize, usize) {
    let at = at.min(text.len().saturating_sub(1));
    let before = text.get(..at).unwrap_or_default();
    let line = 1 + before.iter().filter(|&&byte| byte == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&byte| byte == b'\n')
        .map_or(0, |newline| newline + 1);
    (line, at - line_start + 1)
}

/// Strategies for JSON texts, for the property tests of the reader and of `crate::answer`.
#[cfg(test)]
pub(crate) mod arbitrary {
    use proptest::prelude::*;

    /// A JSON string's text: plain characters, every escape, surrogate pairs, and halves of
    /// pairs when `halves` asks for them.
    pub(crate) fn string_text(halves: bool) -> impl Strategy<Value = String> {
        if halves {
            r#""([ a-zA-Z0-9é😀]|\\["\\/bfnrt]|\\u00[0-9a-fA-F]{2}|\\ud83d\\ude00|\\udc00|\\ud800)*""#
        } else {
            r#""([ a-zA-Z0-9é😀]|\\["\\/bfnrt]|\\u00[0-9a-fA-F]{2}|\\ud83d\\ude00)*""#
        }
    }

    /// Any JSON text, with white space between its tokens.
    pub(crate) fn json_text(halves: bool) -> impl Strategy<Value = String> {
        let space = "[ \\t\\r\\n]{0,2}";
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            Just("false".to_owned()),
            "-?(0|[1-9][0-9]{0,4})(\\.[0-9]{1,3})?([eE][+-]?[0-9]{1,2})?",
            string_text(halves),
        ];
        leaf.prop_recursive(5, 40, 5, move |inner| {
            prop_oneof![
                (proptest::collection::vec(inner.clone(), 0..5), space)
                    .prop_map(|(items, space)| format!("[{space}{}]", items.join(","))),
                (
                    proptest::collection::vec((string_text(halves), inner), 0..5),
                    space
                )
                    .prop_map(|(pairs, space)| {
                        let pairs: Vec<String> = pairs
                            .into_iter()
                            .map(|(key, value)| format!("{key}{space}:{value}"))
                            .collect();
                        format!("{{{}{space}}}", pairs.join(&format!(",{space}")))
                    }),
            ]
        })
    }
}

#[cfg(test)]
mod tests;
