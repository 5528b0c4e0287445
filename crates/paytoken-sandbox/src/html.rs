//! HTML escaping for the sandbox's pages: every value a page shows or carries goes through
//! [`escape`], so that no payment field, URL or id can close an attribute or open a tag.

/// `text` with `&`, `<`, `>`, `"` and `'` written as character references: safe in text
/// and in a quoted attribute value.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The reverse of `escape`, written separately: the oracle the property checks against.
    fn unescape(text: &str) -> String {
        text.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&")
    }

    #[test]
    fn escapes_the_five_characters() {
        assert_eq!(
            escape(r#"<a href="x" onclick='y'>&</a>"#),
            "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        );
        assert_eq!(escape("plain text, é"), "plain text, é");
    }

    proptest! {
        #[test]
        fn leaves_no_markup_and_loses_nothing(text in any::<String>()) {
            let escaped = escape(&text);
            prop_assert!(!escaped.contains(['<', '>', '"', '\'']));
            prop_assert_eq!(unescape(&escaped), text);
        }
    }
}
