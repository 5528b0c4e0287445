//! The sandbox's one error type: what can go wrong configuring and starting it. Requests
//! never produce an `Error`: the sandbox answers them, as the gateway would.

use std::io;

/// Why the sandbox could not be configured or started.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The configuration names something twice, leaves something out, or holds a value of
    /// the wrong form. `what` names the place; secure keys are never repeated.
    #[error("invalid sandbox configuration: {what}: {reason}")]
    Config {
        /// Where in the configuration, such as `partners[0].merchants[1].memberId`; `the
        /// file` for a value of the wrong form, whose field, line and column `reason` says.
        what: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The configuration file could not be read, or is larger than
    /// [`MAX_CONFIG_FILE_BYTES`](crate::MAX_CONFIG_FILE_BYTES).
    #[error("cannot read the sandbox configuration file {path}")]
    ConfigFile {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The listening socket could not be opened.
    #[error("cannot listen on {address}")]
    Bind {
        /// The address asked for.
        address: String,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A fault directive (builder or `paytoken-sandbox-fault` header) could not be read.
    #[error("invalid fault directive {directive:?}: {reason}")]
    Fault {
        /// The directive as given.
        directive: String,
        /// What was expected.
        reason: &'static str,
    },
    /// A fault target ([`FaultTarget::parse`](crate::FaultTarget::parse), the console's
    /// `target`) names no operation the sandbox knows.
    #[error(
        "invalid fault target {target:?}: expected money-moving, any, or an operation as the request log names it (pay, pay_with_token, repeat_payment, capture, refund, cancel, inquiry, fetch_auth_token, ...)"
    )]
    FaultTarget {
        /// The target as given.
        target: String,
    },
    /// An advance of the clock past [`MAX_CLOCK_ADVANCE`](crate::MAX_CLOCK_ADVANCE) in all
    /// (`Sandbox::advance_clock`, the console's `clock/advance`): nothing moved.
    #[error(
        "the sandbox's clock moves at most a century in all; {} s of advance are left",
        left.as_secs()
    )]
    ClockBound {
        /// How much the clock may still move.
        left: std::time::Duration,
    },
    /// The TLS certificate or key of `SandboxBuilder::tls` (feature `tls`)
    /// was refused by rustls.
    #[error("cannot serve tls with this certificate and key")]
    Tls {
        /// rustls's error (it never holds the key).
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The state file of `SandboxBuilder::state_file` (feature `sqlite`) cannot be used:
    /// not a sandbox's state file, of a newer schema, damaged, naming a merchant the
    /// configuration does not, in use by another sandbox, or not writable. It is never
    /// overwritten.
    #[error("cannot use the state file {path}: {reason}")]
    State {
        /// The file.
        path: String,
        /// Why, in the sandbox's words.
        reason: String,
        /// SQLite's error, when SQLite's refusal is the cause.
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn every_error_says_itself_once_and_hands_its_cause_to_source() {
        let io_error = || io::Error::new(io::ErrorKind::PermissionDenied, "denied by the test");
        let errors = [
            Error::Config {
                what: String::from("partners[0].secureKey"),
                reason: String::from("is empty"),
            },
            Error::ConfigFile {
                path: String::from("sandbox.json"),
                source: io_error(),
            },
            Error::Bind {
                address: String::from("127.0.0.1:1"),
                source: io_error(),
            },
            Error::Fault {
                directive: String::from("latency=forever"),
                reason: "a duration in milliseconds",
            },
            Error::FaultTarget {
                target: String::from("payment"),
            },
            Error::ClockBound {
                left: std::time::Duration::from_secs(60),
            },
            Error::Tls {
                source: "no private key".into(),
            },
            Error::State {
                path: String::from("sandbox.db"),
                reason: String::from("it is damaged"),
                source: None,
            },
            Error::State {
                path: String::from("sandbox.db"),
                reason: String::from("in use by another sandbox"),
                source: Some("database is locked".into()),
            },
        ];
        for error in &errors {
            // A new variant fails to compile here until it is in the list above.
            let has_source = match error {
                Error::ConfigFile { .. } | Error::Bind { .. } | Error::Tls { .. } => true,
                Error::State { source, .. } => source.is_some(),
                Error::Config { .. }
                | Error::Fault { .. }
                | Error::FaultTarget { .. }
                | Error::ClockBound { .. } => false,
            };
            let message = error.to_string();
            assert!(message.starts_with(char::is_lowercase), "{message}");
            assert_eq!(error.source().is_some(), has_source, "{message}");
            if let Some(source) = error.source() {
                assert!(!message.contains(&source.to_string()), "{message}");
            }
        }
    }
}
