//! Reading what comes from outside (a key file, the profiles file, standard input) to its
//! end, with a bound, into memory that is wiped when dropped.

use zeroize::Zeroizing;

use crate::report::Failure;

/// Reads `source` to its end as UTF-8, at most `limit` bytes and no further, into a string
/// that is wiped when dropped (it may hold a key or card data); a longer source is the
/// usage error `{what}: {too_long}`.
pub(crate) fn read_bounded(
    source: impl std::io::Read,
    limit: u64,
    what: &str,
    too_long: &str,
) -> Result<Zeroizing<String>, Failure> {
    use std::io::Read as _;
    let mut text = Zeroizing::new(String::new());
    source
        .take(limit.saturating_add(1))
        .read_to_string(&mut text)
        .map_err(|error| Failure::usage(format!("{what}: {error}")))?;
    if u64::try_from(text.len()).map_or(true, |len| len > limit) {
        return Err(Failure::usage(format!("{what}: {too_long}")));
    }
    Ok(text)
}
