//! The one door of the values JavaScript hands in. Every exported function, method and
//! constructor takes each parameter as a [`Given`] (the value, when it has the type the
//! definitions declare; else the value as it came, never read) and reads it here: its
//! type, its range and an options object's keys checked, a wrong one thrown as
//! `PAYTOKEN_INVALID_INPUT` naming the parameter and the type it takes, never the value.
//!
//! Left to itself, napi-rs converts a parameter before the function runs, and its message
//! quotes the value (a card passed where a string belongs, a key's bytes) under a code
//! that is not paytoken's; an integer it wraps; an options object's unknown keys it
//! ignores; and a constructor called without `new` wraps whatever `this` was. Each
//! parameter's TypeScript type is spelled beside it (`ts_arg_type`), as napi-rs would
//! have written it.

use std::collections::HashMap;

use napi::JsValue as _;
use napi::bindgen_prelude::{
    Array, ClassInstance, Either, Either3, Env, JavaScriptClassExt, Object, This, Uint8Array,
    Unknown,
};
use paytoken_protocol::Error;
use paytoken_protocol::redact;

use crate::errors::{invalid_field, thrown_saying};

/// What JavaScript passed for a parameter of type `T`: the value, when it is one; else the
/// value as it came, which this module refuses without reading it.
pub(crate) type Given<'v, T> = Either<T, Unknown<'v>>;

/// A body as it may come: a string, the bytes (a `Uint8Array`, such as a `Buffer`), or
/// anything else, refused.
pub(crate) type GivenBody<'v> = Either3<String, Uint8Array, Unknown<'v>>;

/// The most entries a `Record` or an array of pairs is read with: a form or a set of
/// checksum parts has a few dozen.
const MAX_ENTRIES: usize = 1_000;

/// The refusal of a value of the wrong type for `field`, which takes `expected`.
fn wrong(env: &Env, field: &'static str, expected: &'static str) -> napi::Error {
    invalid_field(env, field, expected)
}

/// A string.
pub(crate) fn text(
    env: &Env,
    given: Given<'_, String>,
    field: &'static str,
) -> napi::Result<String> {
    match given {
        Either::A(text) => Ok(text),
        Either::B(_) => Err(wrong(env, field, "expected a string")),
    }
}

/// A string, or nothing (`undefined` or `null`).
pub(crate) fn optional_text(
    env: &Env,
    given: Option<Given<'_, String>>,
    field: &'static str,
) -> napi::Result<Option<String>> {
    given.map(|given| text(env, given, field)).transpose()
}

/// A whole number from 0 to `N`'s largest: an HTTP status, a page number.
pub(crate) fn whole<N: TryFrom<u32>>(
    env: &Env,
    given: Given<'_, f64>,
    field: &'static str,
    expected: &'static str,
) -> napi::Result<N> {
    let Either::A(number) = given else {
        return Err(wrong(env, field, expected));
    };
    if number.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&number) {
        return Err(wrong(env, field, expected));
    }
    #[expect(
        clippy::as_conversions,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a whole number from 0 to u32's largest, checked above, converts exactly"
    )]
    let number = number as u32;
    N::try_from(number).map_err(|_| wrong(env, field, expected))
}

/// An HTTP status, as `parse` and `readAnswer` take it.
pub(crate) fn status(env: &Env, given: Given<'_, f64>) -> napi::Result<u16> {
    whole(
        env,
        given,
        "status",
        "expected an HTTP status: a whole number from 0 to 65535",
    )
}

/// A body: a string (`await response.text()`) or the bytes (`Buffer`, `Uint8Array`).
pub(crate) fn body(env: &Env, given: GivenBody<'_>, field: &'static str) -> napi::Result<Body> {
    match given {
        Either3::A(text) => Ok(Body::Text(text)),
        Either3::B(bytes) => Ok(Body::Bytes(bytes)),
        Either3::C(_) => Err(wrong(env, field, "expected a string or a Uint8Array")),
    }
}

/// A body handed in, as it came.
pub(crate) enum Body {
    /// A string.
    Text(String),
    /// Bytes.
    Bytes(Uint8Array),
}

impl Body {
    /// The body's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Self::Text(text) => text.as_bytes(),
            Self::Bytes(bytes) => bytes,
        }
    }
}

/// An instance of the class `T`, made by its constructor or a factory.
pub(crate) fn instance<'v, T: 'v>(
    env: &Env,
    given: Given<'v, ClassInstance<'v, T>>,
    field: &'static str,
    expected: &'static str,
) -> napi::Result<ClassInstance<'v, T>> {
    match given {
        Either::A(instance) => Ok(instance),
        Either::B(_) => Err(wrong(env, field, expected)),
    }
}

/// Refuses a constructor of `T` called without `new`: napi-rs would wrap the native value
/// in whatever `this` was (the module's exports, for `paytoken.Card(...)`).
pub(crate) fn constructed<T: JavaScriptClassExt>(
    env: &Env,
    this: &This<'_>,
    class: &'static str,
) -> napi::Result<()> {
    if T::instance_of(env, &this.object)? {
        Ok(())
    } else {
        Err(wrong(env, class, "is a class: call it with new"))
    }
}

/// An options object, or nothing (`undefined` or `null`): its keys each one of `keys`.
pub(crate) fn options<'v>(
    env: &'v Env,
    given: Option<Given<'v, Object<'v>>>,
    field: &'static str,
    keys: &'static [&'static str],
) -> napi::Result<Option<Options<'v>>> {
    let Some(given) = given else { return Ok(None) };
    let object = plain_object(env, given, field, "expected an object of options")?;
    for key in Object::keys(&object)? {
        if !keys.contains(&key.as_str()) {
            let message = format!(
                "{field}: {} is not one of its keys ({})",
                redact::name(&key),
                keys.join(", ")
            );
            let error = Error::Invalid {
                field,
                reason: "has a key that is not one of its options",
            };
            return Err(thrown_saying(env, &error, message));
        }
    }
    Ok(Some(Options { env, object }))
}

/// An object that is neither an array nor bytes.
fn plain_object<'v>(
    env: &Env,
    given: Given<'v, Object<'v>>,
    field: &'static str,
    expected: &'static str,
) -> napi::Result<Object<'v>> {
    match given {
        Either::A(object) if !object.is_array()? && !object.is_typedarray()? => Ok(object),
        _ => Err(wrong(env, field, expected)),
    }
}

/// An options object whose keys were checked: its values read by key.
pub(crate) struct Options<'v> {
    env: &'v Env,
    object: Object<'v>,
}

impl Options<'_> {
    /// The string at `key`, or nothing.
    pub(crate) fn text(&self, key: &'static str) -> napi::Result<Option<String>> {
        let given = self.object.get::<Option<Given<'_, String>>>(key)?.flatten();
        optional_text(self.env, given, key)
    }

    /// The boolean at `key`, or nothing.
    pub(crate) fn flag(&self, key: &'static str) -> napi::Result<Option<bool>> {
        match self.object.get::<Option<Given<'_, bool>>>(key)?.flatten() {
            None => Ok(None),
            Some(Either::A(flag)) => Ok(Some(flag)),
            Some(Either::B(_)) => Err(wrong(self.env, key, "expected a boolean")),
        }
    }
}

/// A `Record<string, string>`: fields by name.
pub(crate) fn record(
    env: &Env,
    given: Given<'_, Object<'_>>,
    field: &'static str,
) -> napi::Result<HashMap<String, String>> {
    const EXPECTED: &str = "expected an object of strings";
    let object = plain_object(env, given, field, EXPECTED)?;
    let keys = Object::keys(&object)?;
    if keys.len() > MAX_ENTRIES {
        return Err(wrong(env, field, "has more than 1000 keys"));
    }
    let mut read = HashMap::with_capacity(keys.len());
    for key in keys {
        let Some(Either::A(value)) = object.get::<Given<'_, String>>(&key)? else {
            return Err(wrong(env, field, EXPECTED));
        };
        read.insert(key, value);
    }
    Ok(read)
}

/// An `Array<[string, string]>`: fields in order.
pub(crate) fn pairs(
    env: &Env,
    given: Given<'_, Array<'_>>,
    field: &'static str,
) -> napi::Result<Vec<(String, String)>> {
    const EXPECTED: &str = "expected an array of [name, value] pairs of strings";
    let Either::A(array) = given else {
        return Err(wrong(env, field, EXPECTED));
    };
    let length = usize::try_from(array.len()).unwrap_or(usize::MAX);
    if length > MAX_ENTRIES {
        return Err(wrong(env, field, "has more than 1000 pairs"));
    }
    let mut read = Vec::with_capacity(length);
    for index in 0..array.len() {
        let Some(Either::A(pair)) = array.get::<Given<'_, Array<'_>>>(index)? else {
            return Err(wrong(env, field, EXPECTED));
        };
        let name = pair.get::<Given<'_, String>>(0)?;
        let value = pair.get::<Given<'_, String>>(1)?;
        match (pair.len(), name, value) {
            (2, Some(Either::A(name)), Some(Either::A(value))) => read.push((name, value)),
            _ => return Err(wrong(env, field, EXPECTED)),
        }
    }
    Ok(read)
}
