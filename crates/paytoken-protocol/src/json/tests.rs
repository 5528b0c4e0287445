//! The reader's tests: strings, the word scan, blankness, error positions, nesting, and
//! property tests against serde_json.

use super::*;

fn read_string(json: &str) -> Result<Cow<'_, str>, JsonError> {
    let mut reader = Reader::new(json);
    let text = reader.string()?;
    reader.finish()?;
    Ok(text)
}

#[test]
fn strings_are_borrowed_unless_escaped() {
    assert!(matches!(
        read_string(r#""plain""#),
        Ok(Cow::Borrowed("plain"))
    ));
    assert_eq!(
        read_string(r#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#).unwrap(),
        "a\"b\\c/d\né😀"
    );
    assert_eq!(
        read_string(r#""\ud800x\udc00""#).unwrap(),
        "\u{fffd}x\u{fffd}"
    );
    assert_eq!(read_string(r#""\ud800\u0041""#).unwrap(), "\u{fffd}A");
    assert_eq!(
        read_string("\"tab\there\"").unwrap_err().problem,
        Problem::ControlCharacter
    );
    assert_eq!(
        read_string(r#""\x""#).unwrap_err().problem,
        Problem::InvalidEscape
    );
    assert_eq!(read_string(r#""open"#).unwrap_err().problem, Problem::Eof);
}

#[test]
fn the_plain_run_stops_at_the_first_quote_backslash_or_control() {
    let bytes: Vec<u8> = (0..=255).collect();
    for stop in [b'"', b'\\', 0x00, 0x1f, 0x0a] {
        for at in 0..20 {
            let mut text = vec![b'a'; 20];
            text[at] = stop;
            // Bytes above the stop that would fool a careless word scan.
            text.extend_from_slice(&[0x01, b'"', 0xff]);
            assert_eq!(plain_len(&text), at, "{stop:#x} at {at}");
        }
    }
    let plain: Vec<u8> = bytes
        .iter()
        .copied()
        .filter(|&b| !ends_plain_run(b))
        .collect();
    assert_eq!(plain_len(&plain), plain.len());
    for length in 0..bytes.len() {
        let expected = bytes[..length]
            .iter()
            .position(|&b| ends_plain_run(b))
            .unwrap_or(length);
        assert_eq!(plain_len(&bytes[..length]), expected);
    }
}

#[test]
fn skipping_notes_blank_values() {
    for (json, blank) in [
        ("null", true),
        (r#""  ""#, true),
        (r#""\u0020""#, true),
        (r#""\u000b""#, true),
        (r#"{"a":"","b":[null,{}]}"#, true),
        (r#"{"a":0}"#, false),
        ("[false]", false),
        (r#"[" x "]"#, false),
    ] {
        let mut reader = Reader::new(json);
        assert_eq!(reader.skip_noting_blank(true), Ok(blank), "{json}");
        assert_eq!(reader.finish(), Ok(()), "{json}");
    }
}

#[test]
fn errors_in_a_structure_read_past_point_at_their_byte() {
    // The structure loop reads on a copy of the reader, and its rare paths (a `\u`
    // escape, a string that may be blank, a scalar) on copies of their own: each error
    // still names the byte where the text breaks.
    for (json, note_blank, at, problem) in [
        (r#"{"a":{"b":"\u12x4"}}"#, false, 15, Problem::InvalidEscape),
        (r#"{"k":[" \u00zz"]}"#, true, 12, Problem::InvalidEscape),
        ("[1,tru]", false, 6, Problem::ExpectedValue),
        ("[1,-]", true, 4, Problem::InvalidNumber),
        ("[\"a\"", false, 4, Problem::Eof),
    ] {
        let error = Reader::new(json).skip_noting_blank(note_blank).unwrap_err();
        assert_eq!((error.at, error.problem), (at, problem), "{json}");
    }
    let mut reader = Reader::new(r#"[" \u0020", {"x": null}, "\u00e9"] "#);
    assert_eq!(reader.skip_noting_blank(true), Ok(false));
    assert_eq!(reader.position(), 34);
}

#[test]
fn nesting_is_bounded() {
    let deep = |levels: usize| "[".repeat(levels) + &"]".repeat(levels);
    assert_eq!(Reader::new(&deep(MAX_DEPTH)).skip(), Ok(()));
    assert_eq!(
        Reader::new(&deep(MAX_DEPTH + 1))
            .skip()
            .unwrap_err()
            .problem,
        Problem::TooDeep
    );
}

#[test]
fn positions_become_lines_and_columns() {
    assert_eq!(line_and_column(b"{\n  \"a\": x", 9), (2, 8));
    assert_eq!(line_and_column(br#"{"items": ["#, 11), (1, 11));
    assert_eq!(line_and_column(b"", 0), (1, 1));
}

mod properties {
    use super::*;
    use crate::json::arbitrary::{json_text, string_text};
    use proptest::prelude::*;

    /// A text broken in up to three places: characters that matter to JSON inserted,
    /// removed or replaced.
    fn broken_text() -> impl Strategy<Value = String> {
        let edit = (
            0..3_u8,
            any::<prop::sample::Index>(),
            prop::sample::select(
                &[
                    '{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '-', '.', 'e', '+', 'n',
                    't', ' ', '\n', '\u{1}', 'é',
                ][..],
            ),
        );
        (json_text(true), proptest::collection::vec(edit, 1..4)).prop_map(|(text, edits)| {
            let mut chars: Vec<char> = text.chars().collect();
            for (kind, index, with) in edits {
                let at = index.index(chars.len() + 1);
                match kind {
                    0 => chars.insert(at, with),
                    1 if at < chars.len() => {
                        chars.remove(at);
                    }
                    _ if at < chars.len() => chars[at] = with,
                    _ => chars.push(with),
                }
            }
            chars.into_iter().collect()
        })
    }

    fn ours(text: &str) -> bool {
        let mut reader = Reader::new(text);
        reader.skip().and_then(|()| reader.finish()).is_ok()
    }

    fn serde_json_accepts(text: &str) -> bool {
        serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
    }

    #[test]
    fn the_edges_of_the_grammar_agree_with_serde_json() {
        for text in [
            "0",
            "-0",
            "01",
            "-01",
            "00",
            "-",
            "1.",
            ".5",
            "1.e5",
            "1e",
            "1e+",
            "1E-07",
            "+1",
            "0.0e+0",
            "1 2",
            "[1,]",
            "[,1]",
            "[1 2]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{1:2}",
            "{\"a\":}",
            "\"\\u12\"",
            "\"\\u12g4\"",
            "\"\\U0041\"",
            "\"\t\"",
            "\"\u{7f}\"",
            "tru",
            "truex",
            "nul",
            "nulls",
            "[01]",
            "[-]",
            "[]]",
            "{}}",
            "[}",
            "{]",
            "\"a",
            "\"\\",
            " ",
            "",
            "\u{feff}{}",
            "[\"\\ud800\"]",
            "{\"\\ud800\":0}",
        ] {
            assert_eq!(ours(text), serde_json_accepts(text), "{text:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        #[test]
        fn the_word_scan_finds_what_a_byte_scan_finds(
            bytes in proptest::collection::vec(
                prop_oneof![3 => b'a'..=b'z', 1 => any::<u8>()], 0..40)
        ) {
            let expected = bytes.iter().position(|&b| ends_plain_run(b)).unwrap_or(bytes.len());
            prop_assert_eq!(plain_len(&bytes), expected);
        }

        #[test]
        fn valid_texts_are_read_to_their_end(text in json_text(true)) {
            prop_assert!(serde_json_accepts(&text), "the generator made {text:?}");
            let mut reader = Reader::new(&text);
            prop_assert_eq!(reader.skip(), Ok(()));
            prop_assert_eq!(reader.position(), text.trim_end().len());
        }

        #[test]
        fn broken_texts_are_refused_as_serde_json_refuses_them(text in broken_text()) {
            prop_assert_eq!(ours(&text), serde_json_accepts(&text), "{:?}", text);
        }

        #[test]
        fn strings_decode_as_serde_json_decodes_them(text in string_text(true)) {
            // serde_json refuses half a surrogate pair, where the reader keeps U+FFFD.
            if let Ok(expected) = serde_json::from_str::<String>(&text) {
                let mut reader = Reader::new(&text);
                prop_assert_eq!(reader.string().map(Cow::into_owned), Ok(expected));
                prop_assert_eq!(reader.finish(), Ok(()));
            } else {
                let decoded = Reader::new(&text).string().unwrap();
                prop_assert!(decoded.contains(char::REPLACEMENT_CHARACTER));
            }
        }
    }
}
