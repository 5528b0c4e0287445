//! The form decoder: never panics, and what it decodes encodes back to a body that decodes
//! to the same pairs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paytoken_types::form::{FormWriter, decode};

fuzz_target!(|body: &[u8]| {
    let pairs: Vec<(String, String)> = decode(body)
        .map_while(Result::ok)
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    let mut again = Vec::new();
    let mut form = FormWriter::new(&mut again);
    for (name, value) in &pairs {
        form.field(name, value);
    }
    let decoded: Vec<(String, String)> = decode(&again)
        .map(|pair| pair.expect("our own encoding decodes"))
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    assert_eq!(decoded, pairs);
});
