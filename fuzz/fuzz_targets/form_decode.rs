//! The form decoder: never panics, and what it decodes encodes back to a body that decodes
//! to the same pairs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paytoken_types::internal::{decode, encode_into};

fuzz_target!(|body: &[u8]| {
    let pairs: Vec<(String, String)> = decode(body)
        .map_while(Result::ok)
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    // Written pair by pair with the encoder every name and value goes through (a
    // `FormWriter` takes `'static` names, the interface's constants).
    let mut again = Vec::new();
    for (index, (name, value)) in pairs.iter().enumerate() {
        if index > 0 {
            again.push(b'&');
        }
        encode_into(&mut again, name.as_bytes());
        again.push(b'=');
        encode_into(&mut again, value.as_bytes());
    }
    let decoded: Vec<(String, String)> = decode(&again)
        .map(|pair| pair.expect("our own encoding decodes"))
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    assert_eq!(decoded, pairs);
});
