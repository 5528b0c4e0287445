//! Tokens read for what they say: whether they make something public, and tokens written
//! as lines for what cannot be read as Rust.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// Whether `tokens` say `pub` other than `pub(...)`, at any depth.
pub(super) fn says_pub(tokens: &TokenStream) -> bool {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    tokens.iter().enumerate().any(|(at, token)| match token {
        TokenTree::Ident(ident) => {
            ident == "pub"
                && !matches!(tokens.get(at + 1),
                    Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Parenthesis)
        }
        TokenTree::Group(group) => says_pub(&group.stream()),
        _ => false,
    })
}

/// Tokens as lines: a line ends after `;` or `,` and around braces, doc comments left out.
pub(super) fn pretty(tokens: &TokenStream) -> Vec<String> {
    let mut writer = Writer::default();
    writer.walk(tokens.clone(), 0);
    writer.flush(0);
    writer.lines
}

/// What [`pretty`] writes with: the line being written and those done.
#[derive(Default)]
struct Writer {
    line: String,
    /// The last token was a punctuation joined to the next (`=` of `=>`, `'` of `'a`).
    joint: bool,
    lines: Vec<String>,
}

impl Writer {
    fn word(&mut self, word: &str) {
        if !self.line.is_empty() && !self.joint {
            self.line.push(' ');
        }
        self.line.push_str(word);
        self.joint = false;
    }

    fn flush(&mut self, depth: usize) {
        if !self.line.is_empty() {
            self.lines
                .push(format!("{}{}", "    ".repeat(depth), self.line));
            self.line.clear();
        }
        self.joint = false;
    }

    fn walk(&mut self, stream: TokenStream, depth: usize) {
        let tokens: Vec<TokenTree> = stream.into_iter().collect();
        let mut at = 0;
        while let Some(token) = tokens.get(at) {
            at += 1;
            match token {
                TokenTree::Punct(pound) if pound.as_char() == '#' => {
                    if let Some(TokenTree::Group(attr)) = tokens.get(at)
                        && attr.stream().to_string().starts_with("doc")
                    {
                        at += 1;
                        continue;
                    }
                    self.word("#");
                    self.joint = true;
                }
                TokenTree::Group(group) if group.delimiter() == Delimiter::Brace => {
                    self.word("{");
                    self.flush(depth);
                    self.walk(group.stream(), depth + 1);
                    self.flush(depth + 1);
                    self.word("}");
                }
                TokenTree::Group(group) => {
                    let (open, close) = match group.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Bracket => ("[", "]"),
                        _ => ("", ""),
                    };
                    let mut inner = Writer::default();
                    inner.walk(group.stream(), 0);
                    inner.flush(0);
                    let parts: Vec<&str> = inner.lines.iter().map(|part| part.trim()).collect();
                    self.word(&format!("{open}{}{close}", parts.join(" ")));
                }
                TokenTree::Punct(punct) if matches!(punct.as_char(), ';' | ',') => {
                    self.word(&punct.to_string());
                    self.flush(depth);
                }
                TokenTree::Punct(punct) => {
                    self.word(&punct.to_string());
                    self.joint = punct.spacing() == Spacing::Joint;
                }
                other => self.word(&other.to_string()),
            }
        }
    }
}
