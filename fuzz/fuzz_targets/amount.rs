//! `Amount`: any text either refuses or gives an amount whose one wire text reads back as
//! the same amount, equal to the text it came from.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paytoken_types::Amount;

fuzz_target!(|text: &str| {
    if let Ok(amount) = text.parse::<Amount>() {
        let wire = amount.to_wire();
        assert_eq!(wire.as_str(), text, "only the canonical text is accepted");
        assert_eq!(wire.as_str().parse::<Amount>().ok(), Some(amount));
    }
});
