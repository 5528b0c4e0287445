//! Answers shaped like one deployment's own
//! ([`SandboxBuilder::answers_like`](crate::SandboxBuilder::answers_like)): the sandbox
//! learns, from a deployment's recorded answers, the shape of every incidental field and
//! answers in it, the same every time, so that a team tests offline against the shapes its
//! production sends.
//!
//! What is learned and how it is applied, shape by shape, is the manual's table
//! (docs/SANDBOX.md, "Answers in other shapes"). Here: answers are grouped by operation and
//! result-code family (`Group`); each occurrence of a field, known by its path (list items
//! as `[]`), votes for one `Shape`; the most frequent wins, a tie going to the shape seen
//! first. What is learned is bounded, whatever the recording: at most [`MAX_MEMBERS`]
//! fields of an object's path (the first met) and [`MAX_SHAPES`] shapes of a field;
//! learning and applying (`apply.rs`) take time in proportion to an answer's size. No value
//! of the recorded answers is ever written.

mod apply;

use std::collections::{HashMap, HashSet};

use paytoken_types::CodeFamily;
use paytoken_types::internal::{fields, sensitive};

use crate::invoices::InvoiceShape;
use crate::node::{Kind, Node, kind};

/// The shapes of one deployment's answers, learned from its recorded answers (`paytoken
/// record`'s cassettes hold them), for
/// [`SandboxBuilder::answers_like`](crate::SandboxBuilder::answers_like).
///
/// ```
/// use paytoken_sandbox::AnswerShapes;
///
/// let mut shapes = AnswerShapes::default();
/// let learned = shapes.learn(
///     "pay",
///     r#"{"paymentId":"1","result":{"code":"00001"},"amount":50,"descriptor":null}"#,
/// );
/// assert!(learned);
/// assert!(!shapes.learn("pay", "<html>"));
/// assert_eq!(shapes.operations(), [("pay".to_owned(), 1)]);
/// ```
#[derive(Debug, Default, Clone)]
pub struct AnswerShapes {
    groups: HashMap<Group, Votes>,
    answers: HashMap<String, u64>,
    /// Every value read so far: the order ties are broken by.
    seen: u64,
}

/// Answers of one operation whose result codes are of one family.
type Group = (String, Option<CodeFamily>);

/// The most fields learned of one object's path: the fullest answer of the interface has
/// about forty. Fields past it are not learned, so no answer grows by more.
pub(crate) const MAX_MEMBERS: usize = 256;

/// The most shapes counted of one field: a time's patterns are many only in a recording
/// made to be.
pub(crate) const MAX_SHAPES: usize = 16;

impl AnswerShapes {
    /// Learns from one answer of `operation` (named as the sandbox's request log and
    /// `paytoken record` name operations: `pay`, `inquiry`, `invoices`, ...). Only an
    /// answer that is a JSON object teaches anything: whether this one did.
    pub fn learn(&mut self, operation: &str, body: &str) -> bool {
        let Some(Node::Object(fields)) = Node::parse(body) else {
            return false;
        };
        let group = (operation.to_owned(), family(&fields));
        self.seen += 1;
        let at = self.seen;
        let votes = self.groups.entry(group).or_default();
        votes.vote(Tag::Object, at);
        votes.learn_object(&fields, at, &mut self.seen);
        *self.answers.entry(operation.to_owned()).or_default() += 1;
        true
    }

    /// The operations learned, with how many answers each, by name.
    #[must_use]
    pub fn operations(&self) -> Vec<(String, u64)> {
        let mut operations: Vec<(String, u64)> = self
            .answers
            .iter()
            .map(|(name, count)| (name.clone(), *count))
            .collect();
        operations.sort();
        operations
    }

    /// Each group's winning shapes.
    pub(crate) fn decide(&self) -> Likeness {
        Likeness {
            groups: self
                .groups
                .iter()
                .map(|(group, votes)| (group.clone(), votes.decide(Tag::Object)))
                .collect(),
        }
    }
}

/// The family of an answer's result code (`result.code`, or the invoice list's
/// `statusInvoiceResult.code`), when it has one.
fn family(fields: &[(String, Node)]) -> Option<CodeFamily> {
    fields
        .iter()
        .filter(|(key, _)| key == "result" || key == "statusInvoiceResult")
        .find_map(|(_, result)| result.member("code")?.scalar())
        .map(|code| CodeFamily::of(code.trim()))
}

/// The shape of one value, as far as a client can tell it from the value itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Tag {
    Null,
    Bool,
    Number,
    Text(Form),
    Object,
    List,
    /// A value `paytoken record` hid: its shape is not known.
    Hidden,
}

/// The form of a text, by what its field is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Form {
    Empty,
    Any,
    /// An amount with this many decimals.
    Decimals(usize),
    Upper,
    Lower,
    Mixed,
    /// A month or a year of this many digits.
    Digits(usize),
    /// A time: its digits as `9`, its separators as they are.
    Pattern(String),
}

/// What `paytoken record` writes for a value it hides: its shape is not the deployment's.
const HIDDEN: [&str; 2] = [sensitive::REDACTED, sensitive::PERSONAL];

/// The shape of `value`, a field of `kind`.
pub(crate) fn tag(kind: Kind, value: &Node) -> Tag {
    match value {
        Node::Object(_) => Tag::Object,
        Node::List(_) => Tag::List,
        Node::Raw(raw) => match raw.as_str() {
            "null" => Tag::Null,
            "true" | "false" => Tag::Bool,
            _ => Tag::Number,
        },
        Node::Text(text) if HIDDEN.contains(&text.as_str()) => Tag::Hidden,
        Node::Text(text) => Tag::Text(form(kind, text)),
    }
}

fn form(kind: Kind, text: &str) -> Form {
    if text.is_empty() {
        return Form::Empty;
    }
    match kind {
        Kind::Money => decimals(text).map_or(Form::Any, Form::Decimals),
        Kind::Code => {
            let upper = text.bytes().any(|b| b.is_ascii_uppercase());
            let lower = text.bytes().any(|b| b.is_ascii_lowercase());
            match (upper, lower) {
                (true, false) => Form::Upper,
                (false, true) => Form::Lower,
                _ => Form::Mixed,
            }
        }
        Kind::Month | Kind::Year if text.bytes().all(|b| b.is_ascii_digit()) => {
            Form::Digits(text.len())
        }
        Kind::Time if text.bytes().any(|b| b.is_ascii_digit()) => Form::Pattern(
            text.chars()
                .map(|c| if c.is_ascii_digit() { '9' } else { c })
                .collect(),
        ),
        _ => Form::Any,
    }
}

/// How many decimals an amount such as `50.00` has; `None` when it is not one.
pub(crate) fn decimals(text: &str) -> Option<usize> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    (!whole.is_empty() && digits(whole) && digits(fraction)).then_some(fraction.len())
}

/// A field's name as a path knows it: position labels (`"0 "`, `" 1"`) are one label.
pub(crate) fn segment(name: &str) -> &str {
    let trimmed = name.trim();
    if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) {
        "#"
    } else {
        name
    }
}

/// What a field is to the learning and its application.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Decides an outcome, or is the sandbox's own and not named: never touched.
    Fixed,
    /// Not the sandbox's: may be added, in its learned shape, when the sandbox lacks it.
    Foreign,
    /// Echoed or read back (amounts, codes, expiry, member ids): only equivalent forms.
    Echoed,
    /// Informational: any learned shape, or gone.
    Informational,
    /// Holds other fields: a list of one or the one object, and its members reshaped.
    Container,
}

pub(crate) fn role(name: &str) -> Role {
    // What a client decides on, or what echoes its request as text, no answer ever gets
    // from a recording; nor a secret (the answer's own signature, a token).
    let field = fields::find(name);
    if sensitive::is_secret(name)
        || field.is_some_and(|field| {
            matches!(field.role, fields::Role::Deciding | fields::Role::Echoed)
                && field.form == fields::Form::Text
        })
    {
        return Role::Fixed;
    }
    match kind(name) {
        Kind::Money | Kind::Code | Kind::Month | Kind::Year | Kind::Id => Role::Echoed,
        Kind::Informational | Kind::Time => Role::Informational,
        Kind::Card | Kind::Container => Role::Container,
        Kind::Deciding => Role::Foreign,
    }
}

/// The votes of every occurrence of one field (of one path, in one group).
#[derive(Debug, Default, Clone)]
struct Votes {
    /// Each shape seen, how often, and when first.
    tags: Vec<(Tag, u64, u64)>,
    /// How many objects around this field held it.
    present: u64,
    /// When first an object around it lacked it.
    first_absent: Option<u64>,
    /// While an object: how many there were, and when the first was seen.
    objects: u64,
    first_object: u64,
    /// Its members in the order first seen, at most [`MAX_MEMBERS`], and where each is.
    members: Vec<(String, Votes)>,
    index: HashMap<String, usize>,
    /// When last an object around it held it.
    last_present: u64,
    /// While a list: its items'.
    items: Option<Box<Votes>>,
}

impl Votes {
    fn vote(&mut self, tag: Tag, at: u64) {
        let full = self.tags.len() >= MAX_SHAPES;
        match self.tags.iter_mut().find(|(seen, _, _)| *seen == tag) {
            Some((_, count, _)) => *count += 1,
            None if !full => self.tags.push((tag, 1, at)),
            None => {}
        }
    }

    /// Learns from one object at this path, seen at `at`.
    fn learn_object(&mut self, fields: &[(String, Node)], at: u64, seen: &mut u64) {
        if self.objects == 0 {
            self.first_object = at;
        }
        let earlier = self.objects;
        self.objects += 1;
        for (name, value) in fields {
            if role(name) == Role::Fixed {
                continue;
            }
            let label = segment(name);
            let index = match self.index.get(label) {
                Some(index) => *index,
                None if self.members.len() < MAX_MEMBERS => {
                    // Every object before this one lacked it.
                    let first_absent = (earlier > 0).then_some(self.first_object);
                    self.members.push((
                        label.to_owned(),
                        Votes {
                            first_absent,
                            ..Votes::default()
                        },
                    ));
                    self.index.insert(label.to_owned(), self.members.len() - 1);
                    self.members.len() - 1
                }
                None => continue,
            };
            let Some((_, member)) = self.members.get_mut(index) else {
                continue;
            };
            if member.last_present != at {
                member.last_present = at;
                member.present += 1;
            }
            member.learn_value(name, value, seen);
        }
        for (_, member) in &mut self.members {
            if member.last_present != at && member.first_absent.is_none() {
                member.first_absent = Some(at);
            }
        }
    }

    fn learn_value(&mut self, name: &str, value: &Node, seen: &mut u64) {
        *seen += 1;
        let at = *seen;
        self.vote(tag(kind(name), value), at);
        match value {
            Node::Object(fields) => self.learn_object(fields, at, seen),
            Node::List(items) => {
                let votes = self.items.get_or_insert_with(Box::default);
                for item in items {
                    votes.learn_value(name, item, seen);
                }
            }
            Node::Text(_) | Node::Raw(_) => {}
        }
    }

    /// The winning shape of this field, whose own shape won as `tag`.
    fn decide(&self, tag: Tag) -> Shape {
        let members: Vec<(String, Option<Shape>)> = self
            .members
            .iter()
            .map(|(label, member)| (label.clone(), member.winner(self.objects)))
            .collect();
        let index = self.index.clone();
        let items = self.items.as_ref().and_then(|items| {
            items
                .tags
                .iter()
                .min_by_key(|(_, count, at)| (std::cmp::Reverse(*count), *at))
                .map(|(tag, _, _)| Box::new(items.decide(tag.clone())))
        });
        Shape {
            tag,
            members,
            index,
            items,
        }
    }

    /// This member's winning shape among the `objects` around it, `None` when its absence
    /// won.
    fn winner(&self, objects: u64) -> Option<Shape> {
        let absent = objects.saturating_sub(self.present);
        let best = self
            .tags
            .iter()
            .min_by_key(|(_, count, at)| (std::cmp::Reverse(*count), *at))?;
        let (tag, count, at) = best;
        let absence_wins = absent > *count
            || (absent == *count && self.first_absent.is_some_and(|first| first < *at));
        (!absence_wins).then(|| self.decide(tag.clone()))
    }
}

/// The shape a field takes: its own, and its members' (`None`: not sent).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Shape {
    pub(crate) tag: Tag,
    /// In the order learned.
    pub(crate) members: Vec<(String, Option<Shape>)>,
    /// Where each member is in `members`.
    index: HashMap<String, usize>,
    pub(crate) items: Option<Box<Shape>>,
}

impl Shape {
    /// A member's shape: `None` when no object here held it, `Some(None)` when its absence
    /// won.
    pub(crate) fn member(&self, label: &str) -> Option<Option<&Self>> {
        let index = *self.index.get(label)?;
        self.members.get(index).map(|(_, shape)| shape.as_ref())
    }
}

/// The labels of an object's fields, for finding one in a single step.
pub(crate) fn labels(fields: &[(String, Node)]) -> HashSet<String> {
    fields
        .iter()
        .map(|(name, _)| segment(name).to_owned())
        .collect()
}

/// The winning shapes of every group: what a sandbox answering like a deployment applies.
#[derive(Debug)]
pub(crate) struct Likeness {
    groups: HashMap<Group, Shape>,
}

impl Likeness {
    /// `body`, an answer to `operation`, in the learned shapes; `now` is the sandbox's time,
    /// for a time the deployment sends and the answer lacks. A body that is not a JSON
    /// object, or of a group not learned, stays as it is.
    pub(crate) fn apply(&self, operation: &str, body: &str, now: &str) -> String {
        let Some(Node::Object(mut fields)) = Node::parse(body) else {
            return body.to_owned();
        };
        let group = (operation.to_owned(), family(&fields));
        let Some(shape) = self.groups.get(&group) else {
            return body.to_owned();
        };
        apply::object(&mut fields, shape, now);
        Node::Object(fields).to_json(body.len() + 64)
    }

    /// How invoice pages are written, when the deployment's are the documentation's map of
    /// positions (which only the writer of the page can make).
    pub(crate) fn invoice_shape(&self) -> Option<InvoiceShape> {
        let positions = self
            .groups
            .iter()
            .filter(|((operation, family), _)| {
                operation == "invoices" && *family == Some(CodeFamily::Success)
            })
            .filter_map(|(_, shape)| shape.member("invoiceList").flatten())
            .any(|list| list.tag == Tag::Object && list.member("#").is_some());
        positions.then_some(InvoiceShape::PositionMap)
    }
}

#[cfg(test)]
mod tests;
