//! `Timestamp`: any text either refuses or gives a timestamp that prints back as it read.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paytoken_types::Timestamp;

fuzz_target!(|text: &str| {
    if let Ok(timestamp) = text.parse::<Timestamp>() {
        let printed = timestamp.to_string();
        assert_eq!(printed.parse::<Timestamp>().ok(), Some(timestamp));
    }
});
