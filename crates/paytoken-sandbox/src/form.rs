//! The request's form fields, read with the types crate's decoder, and the checks every
//! handler shares.

use std::borrow::Cow;
use std::collections::HashSet;
use std::str::FromStr;

use crate::codes;
use crate::explain;
use crate::problem::{Problem, Problems};

/// The most fields a form may have: the fullest payment sends about 40.
pub(crate) const MAX_FIELDS: usize = 200;

/// The longest field name, in bytes: the interface's longest is 27. A name is no value, so
/// a longer one is a malformed body, not a field too long.
pub(crate) const MAX_NAME: usize = 128;

/// The longest value of a URL field or a token, in characters.
const MAX_LONG_VALUE: usize = 2048;
/// The longest value of any other field, in characters.
const MAX_VALUE: usize = 255;

/// The decoded fields of one request, in order. A field sent twice is refused: the gateway
/// could not know which one was signed. Reading is linear in the body, and bounded: at
/// most [`MAX_FIELDS`] fields, each name within [`MAX_NAME`] and each value within its
/// length.
#[derive(Debug)]
pub(crate) struct Form<'a> {
    fields: Vec<(Cow<'a, str>, Cow<'a, str>)>,
}

impl<'a> Form<'a> {
    pub(crate) fn parse(body: &'a [u8]) -> Result<Self, Problems> {
        let mut fields: Vec<(Cow<'a, str>, Cow<'a, str>)> = Vec::with_capacity(48);
        let mut names: HashSet<Cow<'a, str>> = HashSet::with_capacity(48);
        for pair in paytoken_types::internal::decode(body) {
            let (name, value) = pair.map_err(|_| {
                Problems::from(codes::MALFORMED_BODY).explained(format!(
                    "{}: a percent escape does not decode to UTF-8 text",
                    explain::refusal(
                        codes::MALFORMED_BODY.code,
                        codes::MALFORMED_BODY.description
                    )
                ))
            })?;
            if name.len() > MAX_NAME {
                return Err(Problems::from(codes::MALFORMED_BODY).explained(format!(
                    "{}: a field name of {} bytes, past the {MAX_NAME} a name may have (it begins {})",
                    explain::refusal(codes::MALFORMED_BODY.code, codes::MALFORMED_BODY.description),
                    name.len(),
                    explain::visible(explain::clip(&name, 32).as_ref())
                )));
            }
            if fields.len() == MAX_FIELDS {
                return Err(codes::TOO_MANY_FIELDS.into());
            }
            let longest = if name.ends_with("Url") || name.ends_with("authToken") {
                MAX_LONG_VALUE
            } else {
                MAX_VALUE
            };
            if value.len() > longest && value.chars().count() > longest {
                return Err(codes::FIELD_TOO_LONG.into());
            }
            if !names.insert(name.clone()) {
                return Err(Problems::from(codes::MALFORMED_BODY).explained(format!(
                    "{}: the field {} is sent twice; send each field once (a gateway cannot know which one was signed)",
                    explain::refusal(codes::MALFORMED_BODY.code, codes::MALFORMED_BODY.description),
                    explain::visible(&name)
                )));
            }
            fields.push((name, value));
        }
        Ok(Self { fields })
    }

    /// Every field, in the order sent.
    pub(crate) fn fields(&self) -> impl Iterator<Item = (&str, &str)> {
        self.fields
            .iter()
            .map(|(name, value)| (name.as_ref(), value.as_ref()))
    }

    /// The field's value; an empty value counts as absent.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(field, _)| field == name)
            .map(|(_, value)| value.as_ref())
            .filter(|value| !value.is_empty())
    }

    /// The field's value, or a "missing" problem.
    pub(crate) fn required(&self, name: &'static str, problems: &mut Problems) -> Option<&str> {
        let value = self.get(name);
        if value.is_none() {
            problems.push(Problem::missing(name));
        }
        value
    }

    /// Every one of `names`, or a "missing" problem for each one absent.
    pub(crate) fn required_all<const N: usize>(
        &self,
        names: [&'static str; N],
    ) -> Result<[&str; N], Problems> {
        let mut problems = Problems::default();
        let values = names.map(|name| self.required(name, &mut problems).unwrap_or_default());
        problems.into_result().map(|()| values)
    }

    /// The field read as `T` when present; `problem` when it does not read.
    pub(crate) fn parsed<T: FromStr>(
        &self,
        name: &'static str,
        problem: impl Into<Problem>,
        problems: &mut Problems,
    ) -> Option<T> {
        let value = self.get(name)?;
        let parsed = value.parse().ok();
        if parsed.is_none() {
            problems.push(problem);
        }
        parsed
    }

    /// The field read as `T`; a "missing" or an "invalid" problem otherwise.
    pub(crate) fn parsed_required<T: FromStr>(
        &self,
        name: &'static str,
        problems: &mut Problems,
    ) -> Option<T> {
        self.required(name, problems)?;
        self.parsed(name, Problem::invalid(name), problems)
    }

    /// `true`, `false` or absent (false).
    pub(crate) fn flag(&self, name: &'static str, problems: &mut Problems) -> bool {
        match self.get(name) {
            None | Some("false") => false,
            Some("true") => true,
            Some(_) => {
                problems.push(Problem::invalid(name));
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_field_sent_twice_and_a_broken_escape() {
        assert!(Form::parse(b"amount=1.00&amount=2.00").is_err());
        assert!(Form::parse(b"amount=%G1").is_err());
        let form = Form::parse(b"a=&b=x+y%21").unwrap();
        assert_eq!(form.get("a"), None);
        assert_eq!(form.get("b"), Some("x y!"));
    }

    #[test]
    fn refuses_too_many_fields_and_too_long_values() {
        let many: String = (0..=MAX_FIELDS).map(|i| format!("f{i}=x&")).collect();
        assert_eq!(
            Form::parse(many.as_bytes()).unwrap_err().code(),
            codes::TOO_MANY_FIELDS.code
        );
        let long = format!("orderDescriptor={}", "x".repeat(256));
        assert_eq!(
            Form::parse(long.as_bytes()).unwrap_err().code(),
            codes::FIELD_TOO_LONG.code
        );
        let url = format!(
            "merchantRedirectUrl=https://shop.example/{}",
            "x".repeat(1500)
        );
        assert!(Form::parse(url.as_bytes()).is_ok());
        // Regression: a name of 64,000 bytes was taken, and kept in the request log.
        let long_name = format!("{}=x", "n".repeat(64_000));
        let refused = Form::parse(long_name.as_bytes()).unwrap_err();
        assert_eq!(refused.code(), codes::MALFORMED_BODY.code);
        let said = refused.explanation().unwrap();
        assert!(said.contains("64000 bytes") && said.len() < 300, "{said}");
        let longest = format!("{}=x", "n".repeat(MAX_NAME));
        assert!(Form::parse(longest.as_bytes()).is_ok());
        // 255 characters of two bytes each are within the bound.
        let wide = format!("card.holder={}", "ü".repeat(255));
        assert!(Form::parse(wide.as_bytes()).is_ok());
    }
}
