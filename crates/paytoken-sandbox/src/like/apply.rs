//! One answer of the sandbox's put in the learned shapes: each field by its role, no value
//! of the recording ever written.

use std::collections::HashSet;

use super::{Form, Role, Shape, Tag, decimals, labels, role, segment};
use crate::node::{Kind, Node, kind};

/// What the sandbox writes for a text it has no value of its own for.
const MADE_UP_TEXT: &str = "sandbox";

/// Puts the members of an object in `shape`'s shapes, and adds the foreign and
/// informational ones the deployment sends and the sandbox lacks, in the order learned.
pub(super) fn object(fields: &mut Vec<(String, Node)>, shape: &Shape, now: &str) {
    fields.retain_mut(|(name, value)| {
        let role = role(name);
        match (role, shape.member(segment(name))) {
            (Role::Fixed | Role::Foreign, _) => true,
            // Never sent by the deployment: an informational field goes, any other stays.
            (_, None | Some(None)) => role != Role::Informational,
            (Role::Echoed, Some(Some(learned))) => {
                if let Some(equivalent) = equivalent(kind(name), value, &learned.tag) {
                    *value = equivalent;
                }
                true
            }
            (Role::Informational, Some(Some(learned))) => {
                if let Some(made) = make(name, learned, value.scalar(), now) {
                    *value = made;
                }
                true
            }
            (Role::Container, Some(Some(learned))) => {
                container(value, learned, now);
                true
            }
        }
    });
    let present: HashSet<String> = labels(fields);
    for (label, learned) in &shape.members {
        let Some(learned) = learned else { continue };
        let added = matches!(role(label), Role::Foreign | Role::Informational) && label != "#";
        if added
            && !present.contains(label.as_str())
            && let Some(made) = make(label, learned, None, now)
        {
            fields.push((label.clone(), made));
        }
    }
}

/// A container as the one object or a list, as learned (a list of several stays one), its
/// members reshaped.
fn container(value: &mut Node, learned: &Shape, now: &str) {
    match (&learned.tag, &mut *value) {
        (Tag::List, Node::Object(_)) => *value = Node::List(vec![value.clone()]),
        (Tag::Object, Node::List(items)) if items.len() == 1 => {
            if let Some(only) = items.pop() {
                *value = only;
            }
        }
        _ => {}
    }
    match (value, &learned.items) {
        (Node::Object(fields), _) if learned.tag == Tag::Object => object(fields, learned, now),
        (Node::List(items), Some(item_shape)) if item_shape.tag == Tag::Object => {
            for item in items {
                if let Node::Object(fields) = item {
                    object(fields, item_shape, now);
                }
            }
        }
        _ => {}
    }
}

/// An echoed value in the learned form, when it has one that means the same: `None` keeps
/// the sandbox's own.
fn equivalent(kind: Kind, value: &Node, tag: &Tag) -> Option<Node> {
    let text = match value {
        Node::Text(text) => text.as_str(),
        Node::Raw(_) | Node::Object(_) | Node::List(_) => return None,
    };
    match (kind, tag) {
        (Kind::Money, Tag::Number) => Some(Node::Raw(with_decimals(text, 0)?)),
        (Kind::Money, Tag::Text(Form::Decimals(wanted))) => {
            Some(Node::Text(with_decimals(text, *wanted)?))
        }
        (Kind::Code, Tag::Text(Form::Upper)) => Some(Node::Text(text.to_ascii_uppercase())),
        (Kind::Code, Tag::Text(Form::Lower)) => Some(Node::Text(text.to_ascii_lowercase())),
        (Kind::Month | Kind::Year | Kind::Id, Tag::Number) if is_number(text) => {
            let trimmed = text.trim_start_matches('0');
            Some(Node::Raw(
                if trimmed.is_empty() { "0" } else { trimmed }.to_owned(),
            ))
        }
        (Kind::Month, Tag::Text(Form::Digits(1))) if is_number(text) => {
            let trimmed = text.trim_start_matches('0');
            (trimmed.len() == 1).then(|| Node::Text(trimmed.to_owned()))
        }
        (Kind::Month, Tag::Text(Form::Digits(2))) if text.len() == 1 && is_number(text) => {
            Some(Node::Text(format!("0{text}")))
        }
        (Kind::Year, Tag::Text(Form::Digits(2))) if text.len() == 4 && is_number(text) => {
            Some(Node::Text(text.get(2..)?.to_owned()))
        }
        _ => None,
    }
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// The amount `text` with `wanted` decimals, or with as many as its value needs: never
/// another amount. `None` when `text` is no amount.
fn with_decimals(text: &str, wanted: usize) -> Option<String> {
    decimals(text)?;
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let needed = fraction.trim_end_matches('0');
    let places = wanted.max(needed.len());
    if places == 0 {
        return Some(whole.to_owned());
    }
    let padded: String = needed
        .chars()
        .chain(std::iter::repeat('0'))
        .take(places)
        .collect();
    Some(format!("{whole}.{padded}"))
}

/// A value of the learned shape for the field `name`, made from the sandbox's own
/// `source` (a scalar's text) where there is one: `None` when nothing of the shape can be
/// made (a hidden value the sandbox has none of).
fn make(name: &str, learned: &Shape, source: Option<&str>, now: &str) -> Option<Node> {
    let source = source.filter(|text| !matches!(*text, "null" | "true" | "false"));
    Some(match &learned.tag {
        Tag::Hidden => Node::Text(source?.to_owned()),
        Tag::Null => Node::Raw("null".to_owned()),
        Tag::Bool => Node::Raw("false".to_owned()),
        Tag::Number => Node::Raw(
            source
                .filter(|text| is_number(text) && !text.starts_with('0'))
                .unwrap_or("0")
                .to_owned(),
        ),
        Tag::Text(form) => Node::Text(text(kind(name), form, source, now)),
        Tag::Object => Node::Object(
            learned
                .members
                .iter()
                .filter(|(label, _)| {
                    matches!(role(label), Role::Foreign | Role::Informational) && label != "#"
                })
                .filter_map(|(label, shape)| {
                    Some((label.clone(), make(label, shape.as_ref()?, source, now)?))
                })
                .collect(),
        ),
        Tag::List => Node::List(
            learned
                .items
                .as_ref()
                .and_then(|item| make(name, item, source, now))
                .into_iter()
                .collect(),
        ),
    })
}

/// A text of the learned form, from the sandbox's own text where there is one.
fn text(kind: Kind, form: &Form, source: Option<&str>, now: &str) -> String {
    let own = source
        .filter(|text| !text.is_empty())
        .unwrap_or(MADE_UP_TEXT);
    match form {
        Form::Empty => String::new(),
        Form::Any | Form::Mixed => own.to_owned(),
        Form::Upper => own.to_ascii_uppercase(),
        Form::Lower => own.to_ascii_lowercase(),
        Form::Decimals(places) => source
            .and_then(|text| with_decimals(text, *places))
            .unwrap_or_else(|| with_decimals("0", *places).unwrap_or_default()),
        Form::Digits(count) => "0".repeat(*count),
        Form::Pattern(pattern) if kind == Kind::Time => {
            let time = source.unwrap_or(now);
            retime(time, pattern).unwrap_or_else(|| time.to_owned())
        }
        Form::Pattern(_) => own.to_owned(),
    }
}

/// The time `time` (year first: `2026-11-22 10:15:00`) written in `pattern` (`9999-99-99T
/// 99:99:99.9`): its digits in the pattern's places, missing ones as zeros. `None` when the
/// pattern's runs of digits do not begin with a year or do not fit the time's.
pub(super) fn retime(time: &str, pattern: &str) -> Option<String> {
    let parts: Vec<&str> = time
        .split(|c: char| !c.is_ascii_digit())
        .filter(|part| !part.is_empty())
        .collect();
    let mut out = String::with_capacity(pattern.len());
    let mut runs = 0;
    let mut rest = pattern;
    while let Some(start) = rest.chars().next() {
        let length = if start == '9' {
            rest.len() - rest.trim_start_matches('9').len()
        } else {
            let separators = rest.len() - rest.trim_start_matches(|c| c != '9').len();
            out.push_str(rest.get(..separators)?);
            rest = rest.get(separators..)?;
            continue;
        };
        match parts.get(runs) {
            // Past the seconds, a fraction: as many digits as the pattern has.
            _ if runs >= 6 => out.extend(std::iter::repeat_n('0', length)),
            Some(part) if part.len() == length => out.push_str(part),
            Some(_) | None => return None,
        }
        runs += 1;
        rest = rest.get(length..)?;
    }
    (parts.first().is_some_and(|year| year.len() == 4) && runs >= 3).then_some(out)
}
