//! The gateway's own text, kept reachable where paytoken shows it redacted: a method whose
//! name says it is raw (`rawDescription()`, `rawResultDescription()`), defined on the
//! error or answer object as a property that is not enumerable, so that no `util.inspect`,
//! `JSON.stringify`, spread or logger walking the object's keys sees it, and that returns
//! the text only when called.

use napi::bindgen_prelude::{Env, JsObjectValue as _, Object};
use napi::{Property, PropertyAttributes};

/// Defines the method `name` on `object`, returning `text`.
pub(crate) fn attach(
    env: &Env,
    object: &mut Object<'_>,
    name: &str,
    text: String,
) -> napi::Result<()> {
    let method =
        env.create_function_from_closure::<(), String, _>(name, move |_| Ok(text.clone()))?;
    let property = Property::new()
        .with_utf8_name(name)?
        .with_value(&method)
        .with_property_attributes(PropertyAttributes::Writable | PropertyAttributes::Configurable);
    object.define_properties(&[property])
}
