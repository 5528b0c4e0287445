//! The duration flags' values (`--latency 250ms`, `--message-timeout 10s`): whole
//! milliseconds or seconds, bounded, read as the sandbox reads its fault directives'.

use std::time::Duration;

use paytoken_sandbox::internal::parse_duration;

/// A duration flag: whole milliseconds (`500ms`) or seconds (`3s`), above zero and at most
/// 300 s.
pub(crate) fn duration(text: &str) -> Result<Duration, String> {
    parse_duration(text)
        .filter(|duration| !duration.is_zero())
        .ok_or_else(|| "a duration such as 3s or 500ms, above zero and at most 300s".to_owned())
}

/// A duration flag that may be zero (`0s`: at once), at most 300 s.
pub(crate) fn duration_or_zero(text: &str) -> Result<Duration, String> {
    parse_duration(text).ok_or_else(|| "a duration such as 10s or 500ms, at most 300s".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_whole_milliseconds_or_seconds_within_bounds() {
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("3s"), Ok(Duration::from_secs(3)));
        assert_eq!(duration("300s"), Ok(Duration::from_secs(300)));
        for bad in [
            "",
            "s",
            "ms",
            "0s",
            "301s",
            "1.5s",
            "-1s",
            "3",
            "3m",
            "+3s",
            "18446744073709551615s",
        ] {
            assert!(duration(bad).is_err(), "{bad}");
        }
        assert_eq!(duration_or_zero("0s"), Ok(Duration::ZERO));
        assert_eq!(duration_or_zero("300s"), Ok(Duration::from_secs(300)));
        assert!(duration_or_zero("301s").is_err());
    }
}
