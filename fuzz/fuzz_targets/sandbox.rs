//! The sandbox's request handling, without the network: any path, token and body get an
//! answer (200, 404 or 405, a JSON body for 200), never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use paytoken_sandbox::fuzzing::Target;

fuzz_target!(|input: (u8, bool, &[u8])| {
    thread_local! {
        static TARGET: Target = Target::new();
    }
    let (path, with_token, body) = input;
    TARGET.with(|target| {
        let (status, answer) = target.handle(path, with_token, body);
        assert!(matches!(status, 200 | 404 | 405), "{status}");
        if status == 200 {
            assert!(
                answer.starts_with('{') || answer.starts_with('<'),
                "{answer}"
            );
        }
    });
});
