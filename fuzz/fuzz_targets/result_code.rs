//! `ResultCode`: any text is kept as it came; its codes, family and pairing with
//! descriptions never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paytoken_types::{GatewayResult, ResultCode};

fuzz_target!(|input: (&str, &str)| {
    let (code, description) = input;
    let result = GatewayResult {
        code: ResultCode::new(code),
        description: description.to_owned(),
    };
    assert_eq!(result.code.as_str(), code);
    let _ = result.code.family();
    let _ = result.code.is_success();
    let _ = result.code.codes().count();
    let _ = result.entries().count();
});
