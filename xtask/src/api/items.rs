//! The lines of one item: its declaration, its public fields, variants or trait items,
//! the public items of an inherent `impl`, a trait implementation, a macro invocation.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::Parser as _;
use syn::{Attribute, Fields, ImplItem, Item, Meta, TraitItem, Type};

use super::tokens::{pretty, says_pub};
use super::{Kind, Line, PLACEHOLDER, Scope, is_pub};

/// Where lines are being listed: the module, what the crate knows, and what each line
/// starts with (a macro's name, for its template).
pub(super) struct At<'a> {
    module: &'a str,
    scope: &'a Scope,
    prefix: String,
}

impl<'a> At<'a> {
    pub(super) fn new(module: &'a str, scope: &'a Scope, prefix: String) -> Self {
        Self {
            module,
            scope,
            prefix,
        }
    }

    fn push(&self, out: &mut Vec<Line>, key: &str, kind: Kind, text: String) {
        out.push(Line {
            module: self.module.to_owned(),
            key: key.to_owned(),
            kind,
            seq: 0,
            text: tidy(&format!("{}{text}", self.prefix)),
        });
    }

    pub(super) fn item(&self, item: &Item, out: &mut Vec<Line>) {
        match item {
            Item::Const(c) if is_pub(&c.vis) => {
                let text = format!(
                    "{}pub const {}: {} = {};",
                    kept(&c.attrs),
                    c.ident,
                    text(&c.ty),
                    text(&c.expr)
                );
                self.push(out, &c.ident.to_string(), Kind::Declaration, text);
            }
            Item::Static(s) if is_pub(&s.vis) => {
                let text = format!("{}pub static {}: {};", kept(&s.attrs), s.ident, text(&s.ty));
                self.push(out, &s.ident.to_string(), Kind::Declaration, text);
            }
            Item::Fn(f) if is_pub(&f.vis) => {
                let text = format!("{}pub {}", kept(&f.attrs), text(&f.sig));
                self.push(out, &f.sig.ident.to_string(), Kind::Declaration, text);
            }
            Item::Type(t) if is_pub(&t.vis) => {
                let text = format!(
                    "{}pub type {}{}{} = {};",
                    kept(&t.attrs),
                    t.ident,
                    text(&t.generics),
                    where_clause(&t.generics),
                    text(&t.ty)
                );
                self.push(out, &t.ident.to_string(), Kind::Declaration, text);
            }
            Item::Mod(m) if is_pub(&m.vis) => {
                let text = format!("{}pub mod {}", kept(&m.attrs), m.ident);
                self.push(out, &m.ident.to_string(), Kind::Declaration, text);
            }
            Item::Use(u) if is_pub(&u.vis) => {
                let tree = tidy(&text(&u.tree)).replace("{ ", "{").replace(" }", "}");
                let text = format!("{}pub use {tree};", kept(&u.attrs));
                self.push(out, "use", Kind::Declaration, text);
            }
            Item::Struct(s) if is_pub(&s.vis) => self.structure(s, out),
            Item::Enum(e) if is_pub(&e.vis) => self.enumeration(e, out),
            Item::Trait(t) if is_pub(&t.vis) => self.tr(t, out),
            Item::Impl(i) => self.implementation(i, out),
            Item::Macro(m) => self.macro_item(m, out),
            _ => {}
        }
    }

    fn structure(&self, s: &syn::ItemStruct, out: &mut Vec<Line>) {
        let key = s.ident.to_string();
        let head = format!(
            "{}pub struct {}{}",
            kept(&s.attrs),
            s.ident,
            text(&s.generics)
        );
        let wc = where_clause(&s.generics);
        match &s.fields {
            Fields::Named(named) => {
                let private = named.named.iter().any(|field| !is_pub(&field.vis));
                let body = if private {
                    "{ private fields }"
                } else {
                    "{ public fields only }"
                };
                self.push(out, &key, Kind::Declaration, format!("{head}{wc} {body}"));
                for field in named.named.iter().filter(|field| is_pub(&field.vis)) {
                    let name = field.ident.as_ref().map(ToString::to_string);
                    let text = format!(
                        "pub struct {} {{ {}pub {}: {} }}",
                        s.ident,
                        kept(&field.attrs),
                        name.unwrap_or_default(),
                        text(&field.ty)
                    );
                    self.push(out, &key, Kind::Member, text);
                }
            }
            Fields::Unnamed(unnamed) => {
                let fields: Vec<String> = unnamed
                    .unnamed
                    .iter()
                    .map(|field| {
                        if is_pub(&field.vis) {
                            format!("pub {}", text(&field.ty))
                        } else {
                            String::from("_")
                        }
                    })
                    .collect();
                let text = format!("{head}({}){wc};", fields.join(", "));
                self.push(out, &key, Kind::Declaration, text);
            }
            Fields::Unit => self.push(out, &key, Kind::Declaration, format!("{head};")),
        }
    }

    fn enumeration(&self, e: &syn::ItemEnum, out: &mut Vec<Line>) {
        let key = e.ident.to_string();
        let head = format!(
            "{}pub enum {}{}{}",
            kept(&e.attrs),
            e.ident,
            text(&e.generics),
            where_clause(&e.generics)
        );
        self.push(out, &key, Kind::Declaration, head);
        for variant in &e.variants {
            let fields = match &variant.fields {
                Fields::Named(named) => {
                    let fields: Vec<String> = named
                        .named
                        .iter()
                        .map(|field| {
                            let name = field.ident.as_ref().map(ToString::to_string);
                            format!("{}: {}", name.unwrap_or_default(), text(&field.ty))
                        })
                        .collect();
                    format!(" {{ {} }}", fields.join(", "))
                }
                Fields::Unnamed(unnamed) => {
                    let fields: Vec<String> = unnamed
                        .unnamed
                        .iter()
                        .map(|field| text(&field.ty))
                        .collect();
                    format!("({})", fields.join(", "))
                }
                Fields::Unit => String::new(),
            };
            let discriminant = variant
                .discriminant
                .as_ref()
                .map(|(_, value)| format!(" = {}", text(value)))
                .unwrap_or_default();
            let text = format!(
                "pub enum {} {{ {}{}{fields}{discriminant} }}",
                e.ident,
                kept(&variant.attrs),
                variant.ident
            );
            self.push(out, &key, Kind::Member, text);
        }
    }

    fn tr(&self, t: &syn::ItemTrait, out: &mut Vec<Line>) {
        let key = t.ident.to_string();
        let supertraits = if t.supertraits.is_empty() {
            String::new()
        } else {
            format!(": {}", text(&t.supertraits))
        };
        let head = format!(
            "{}pub {}trait {}{}{supertraits}{}",
            kept(&t.attrs),
            if t.unsafety.is_some() { "unsafe " } else { "" },
            t.ident,
            text(&t.generics),
            where_clause(&t.generics)
        );
        self.push(out, &key, Kind::Declaration, head);
        for item in &t.items {
            let member = match item {
                TraitItem::Fn(f) => {
                    let provided = if f.default.is_some() {
                        "; // provided"
                    } else {
                        ";"
                    };
                    format!("{}{}{provided}", kept(&f.attrs), text(&f.sig))
                }
                TraitItem::Type(ty) => {
                    let bounds = if ty.bounds.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", text(&ty.bounds))
                    };
                    format!("{}type {}{bounds};", kept(&ty.attrs), ty.ident)
                }
                TraitItem::Const(c) => {
                    format!("{}const {}: {};", kept(&c.attrs), c.ident, text(&c.ty))
                }
                other => text(other),
            };
            let text = format!("pub trait {} {{ {member} }}", t.ident);
            self.push(out, &key, Kind::Member, text);
        }
    }

    fn implementation(&self, i: &syn::ItemImpl, out: &mut Vec<Line>) {
        let Some(self_name) = last_name(&i.self_ty) else {
            return;
        };
        let head = format!(
            "{}{}impl{} ",
            kept(&i.attrs),
            if i.unsafety.is_some() { "unsafe " } else { "" },
            text(&i.generics)
        );
        let self_ty = text(&i.self_ty);
        let wc = where_clause(&i.generics);
        let Some((trait_path, _)) = &i.trait_ else {
            for item in &i.items {
                let member = match item {
                    ImplItem::Fn(f) if is_pub(&f.vis) => {
                        format!("{}pub {}", kept(&f.attrs), text(&f.sig))
                    }
                    ImplItem::Macro(m)
                        if m.mac
                            .path
                            .segments
                            .last()
                            .is_some_and(|last| last.ident == "setters") =>
                    {
                        for (attrs, setter) in setters(&m.mac.tokens) {
                            let (kept, setter) = (kept(&attrs), text(&setter));
                            let text = format!("{head}{self_ty}{wc} {{ {kept}pub {setter} }}");
                            self.push(out, &self_name, Kind::Method, text);
                        }
                        continue;
                    }
                    ImplItem::Const(c) if is_pub(&c.vis) => format!(
                        "{}pub const {}: {} = {};",
                        kept(&c.attrs),
                        c.ident,
                        text(&c.ty),
                        text(&c.expr)
                    ),
                    ImplItem::Type(t) if is_pub(&t.vis) => {
                        format!("{}pub type {} = {};", kept(&t.attrs), t.ident, text(&t.ty))
                    }
                    _ => continue,
                };
                let text = format!("{head}{self_ty}{wc} {{ {member} }}");
                self.push(out, &self_name, Kind::Method, text);
            }
            return;
        };
        let trait_name = trait_path
            .segments
            .last()
            .map(|segment| segment.ident.to_string())
            .unwrap_or_default();
        let ours = self.scope.public.contains(&self_name)
            || self.scope.public_traits.contains(&trait_name)
            || self_name.starts_with(PLACEHOLDER);
        if !ours || self.scope.private_traits.contains(&trait_name) {
            return;
        }
        let associated: Vec<String> = i
            .items
            .iter()
            .filter_map(|item| match item {
                ImplItem::Type(t) => Some(format!("type {} = {};", t.ident, text(&t.ty))),
                _ => None,
            })
            .collect();
        let associated = if associated.is_empty() {
            String::new()
        } else {
            format!(" {{ {} }}", associated.join(" "))
        };
        let text = format!("{head}{} for {self_ty}{wc}{associated}", text(trait_path));
        self.push(out, &self_name, Kind::TraitImpl, text);
    }

    /// An exported macro is listed whole, unless hidden (a macro for the workspace's own
    /// crates, listed by what it writes); an invocation of one of the crate's own macros
    /// that writes public items is listed as written, one line per statement.
    fn macro_item(&self, m: &syn::ItemMacro, out: &mut Vec<Line>) {
        if let Some(name) = &m.ident {
            let exported = m
                .attrs
                .iter()
                .any(|attr| attr.path().is_ident("macro_export"));
            if exported && !m.attrs.iter().any(is_doc_hidden) {
                let key = format!("{name}!");
                self.push_sequence(out, &key, &format!("macro_rules! {name}"), &m.mac.tokens);
            }
            return;
        }
        let name = m
            .mac
            .path
            .segments
            .last()
            .map(|segment| segment.ident.to_string())
            .unwrap_or_default();
        let writes_api = self
            .scope
            .macros
            .get(&name)
            .is_some_and(|lines| !lines.is_empty());
        if writes_api || says_pub(&m.mac.tokens) {
            let key = format!("{name}!");
            self.push_sequence(out, &key, &key, &m.mac.tokens);
        }
    }

    /// Lines of `tokens` in their source order, each starting with `label`.
    pub(super) fn push_sequence(
        &self,
        out: &mut Vec<Line>,
        key: &str,
        label: &str,
        tokens: &TokenStream,
    ) {
        let start = out.len();
        for (seq, line) in pretty(tokens).into_iter().enumerate() {
            out.push(Line {
                module: self.module.to_owned(),
                key: key.to_owned(),
                kind: Kind::Invocation,
                // Invocations of one macro in one module keep their order.
                seq: start + seq,
                text: tidy(&format!("{}{label} | {line}", self.prefix)),
            });
        }
    }
}

/// The methods a `setters!` invocation writes (`paytoken_types::setters`), with their
/// attributes: its line `#[attrs] pub fn name(args) => field = value;` is
/// `#[attrs] pub fn name(mut self, args) -> Self`.
fn setters(tokens: &TokenStream) -> Vec<(Vec<Attribute>, syn::Signature)> {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let is_semicolon =
        |token: &TokenTree| matches!(token, TokenTree::Punct(p) if p.as_char() == ';');
    tokens
        .split(is_semicolon)
        .filter_map(|line| {
            let at = line.windows(2).position(|pair| {
                matches!(pair, [TokenTree::Ident(a), TokenTree::Ident(b)] if a == "pub" && b == "fn")
            })?;
            let (head, rest) = line.split_at(at);
            let [_, _, TokenTree::Ident(name), TokenTree::Group(args), ..] = rest else {
                return None;
            };
            let attrs = Attribute::parse_outer
                .parse2(head.iter().cloned().collect())
                .ok()?;
            let args = args.stream();
            let comma = if args.is_empty() {
                quote::quote!()
            } else {
                quote::quote!(,)
            };
            let signature = syn::parse2(quote::quote!(fn #name(mut self #comma #args) -> Self));
            Some((attrs, signature.ok()?))
        })
        .collect()
}

/// The attributes that change what a user may do with an item, as written.
fn kept(attrs: &[Attribute]) -> String {
    attrs
        .iter()
        .filter(|attr| {
            let path = attr.path();
            [
                "derive",
                "non_exhaustive",
                "cfg",
                "repr",
                "deprecated",
                "macro_export",
            ]
            .iter()
            .any(|name| path.is_ident(name))
                || is_doc_hidden(attr)
        })
        .map(|attr| format!("{} ", text(attr)))
        .collect()
}

fn is_doc_hidden(attr: &Attribute) -> bool {
    matches!(&attr.meta, Meta::List(list)
        if list.path.is_ident("doc") && list.tokens.to_string() == "hidden")
}

fn where_clause(generics: &syn::Generics) -> String {
    generics
        .where_clause
        .as_ref()
        .map(|clause| format!(" {}", text(clause)))
        .unwrap_or_default()
}

/// The name a type is known by: `Amount` for `Amount`, `crate::Amount` or `Page<'a>`.
fn last_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(path) => path
            .path
            .segments
            .last()
            .map(|segment| segment.ident.to_string()),
        Type::Reference(reference) => last_name(&reference.elem),
        _ => None,
    }
}

pub(super) fn text(tokens: &impl ToTokens) -> String {
    tokens.to_token_stream().to_string()
}

/// Token text as a person writes it: `Result<Self, Error>`, not `Result < Self , Error >`.
fn tidy(text: &str) -> String {
    let mut text = text.replace(PLACEHOLDER, "$");
    for (from, to) in [
        (" :: ", "::"),
        (":: ", "::"),
        (" ,", ","),
        (" ;", ";"),
        (" :", ":"),
        ("( ", "("),
        (" )", ")"),
        ("[ ", "["),
        (" ]", "]"),
        ("< ", "<"),
        (" <", "<"),
        (" >", ">"),
        ("& ", "&"),
        ("# [", "#["),
        ("! (", "!("),
        (" !(", "!("),
        (",)", ")"),
        (", }", " }"),
        ("(* ", "(*"),
        ("! [", "!["),
        ("? ", "?"),
        ("$ ", "$"),
        (" .", "."),
        (". ", "."),
    ] {
        text = text.replace(from, to);
    }
    // `new (value: &str)` reads `new(value: &str)`; `-> (A, B)` keeps its space.
    let mut out = String::with_capacity(text.len());
    let mut previous = ' ';
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let joins = c == ' '
            && chars.peek() == Some(&'(')
            && (previous.is_alphanumeric() || previous == '_');
        if !joins {
            out.push(c);
        }
        previous = c;
    }
    out
}
