//! What a crate's own `macro_rules!` writes: each arm's template read as Rust, and tokens
//! written as lines for the macros (and invocations) that cannot be read so.

use std::collections::BTreeMap;

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};

use super::items::At;
use super::tokens::says_pub;
use super::{Kind, Line, PLACEHOLDER, Scope};

/// The public items a `macro_rules!` definition writes, read from each arm's template as
/// Rust with the macro's variables as placeholders. A template that is not items (an
/// expression macro) writes none, unless it says `pub`: then it is listed as written.
pub(super) fn template(module: &str, mac: &syn::ItemMacro, scope: &Scope) -> Vec<Line> {
    let name = mac
        .ident
        .as_ref()
        .map(ToString::to_string)
        .unwrap_or_default();
    let at = At::new(module, scope, format!("macro_rules! {name} => "));
    let mut lines = Vec::new();
    let tokens: Vec<TokenTree> = mac.mac.tokens.clone().into_iter().collect();
    // Arms: (matcher) => {template} ;
    let mut rest = tokens.as_slice();
    while let [
        TokenTree::Group(matcher),
        TokenTree::Punct(_),
        TokenTree::Punct(_),
        TokenTree::Group(body),
        tail @ ..,
    ] = rest
    {
        let fragments = fragments(&matcher.stream());
        let written = substitute(&body.stream(), &fragments);
        match syn::parse2::<syn::File>(written) {
            Ok(file) => {
                for item in &file.items {
                    at.item(item, &mut lines);
                }
            }
            Err(_) if says_pub(&body.stream()) => {
                at.push_sequence(&mut lines, &format!("{name}!"), "template", &body.stream());
            }
            Err(_) => {}
        }
        rest = match tail {
            [TokenTree::Punct(semi), after @ ..] if semi.as_char() == ';' => after,
            after => after,
        };
    }
    // A template's call of its own macro (an arm choosing another) writes what that arm
    // lists already.
    let own = format!("{name}!");
    lines.retain(|line| !(line.kind == Kind::Invocation && line.key == own));
    for line in &mut lines {
        line.key.clone_from(&own);
        line.kind = Kind::Macro;
    }
    lines
}

/// Each variable of a matcher and its fragment kind: `$name:ident` gives `name => ident`.
fn fragments(matcher: &TokenStream) -> BTreeMap<String, String> {
    let tokens: Vec<TokenTree> = matcher.clone().into_iter().collect();
    let mut found = BTreeMap::new();
    for window in tokens.windows(4) {
        if let [
            TokenTree::Punct(dollar),
            TokenTree::Ident(name),
            TokenTree::Punct(colon),
            TokenTree::Ident(kind),
        ] = window
            && dollar.as_char() == '$'
            && colon.as_char() == ':'
        {
            found.insert(name.to_string(), kind.to_string());
        }
    }
    for token in &tokens {
        if let TokenTree::Group(group) = token {
            found.extend(fragments(&group.stream()));
        }
    }
    found
}

/// A template as Rust: `$name` becomes a placeholder identifier (nothing for a `vis`),
/// `$crate` becomes `crate`, and a repetition `$( ... ) sep op` is written once.
fn substitute(stream: &TokenStream, fragments: &BTreeMap<String, String>) -> TokenStream {
    let tokens: Vec<TokenTree> = stream.clone().into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::new();
    let mut at = 0;
    while let Some(token) = tokens.get(at) {
        at += 1;
        match token {
            TokenTree::Punct(dollar) if dollar.as_char() == '$' => match tokens.get(at) {
                Some(TokenTree::Ident(name)) => {
                    at += 1;
                    let name = name.to_string();
                    let name = name.trim_start_matches("r#");
                    if name == "crate" {
                        out.push(Ident::new("crate", Span::call_site()).into());
                    } else if fragments.get(name).is_none_or(|kind| kind != "vis") {
                        let placeholder = format!("{PLACEHOLDER}{name}");
                        out.push(Ident::new(&placeholder, Span::call_site()).into());
                    }
                }
                Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Parenthesis => {
                    at += 1;
                    out.extend(substitute(&group.stream(), fragments));
                    let is_op = |token: Option<&TokenTree>| matches!(token, Some(TokenTree::Punct(op)) if matches!(op.as_char(), '*' | '+' | '?'));
                    if is_op(tokens.get(at)) {
                        at += 1;
                    } else if is_op(tokens.get(at + 1)) {
                        at += 2;
                    }
                }
                _ => out.push(token.clone()),
            },
            TokenTree::Group(group) => {
                let inner = substitute(&group.stream(), fragments);
                out.push(Group::new(group.delimiter(), inner).into());
            }
            other => out.push(other.clone()),
        }
    }
    out.into_iter().collect()
}
