//! Reading what comes from outside (a key file, the profiles file, standard input) to its
//! end, with a bound, into memory that is wiped when dropped; files opened only when they
//! are regular files, never waiting on a FIFO.

use std::path::Path;

use zeroize::Zeroizing;

use crate::report::Failure;

/// Opens the regular file at `path` to read (through a symbolic link too): a FIFO, a
/// device, a socket or a folder is refused, and the opening never waits for a FIFO's
/// writer; `what` names the file in a refusal.
pub(crate) fn open_regular(path: &Path, what: &str) -> Result<std::fs::File, Failure> {
    open_regular_if_present(path, what)?
        .ok_or_else(|| Failure::usage(format!("{what}: no such file")))
}

/// [`open_regular`], with `None` when nothing is at `path`.
pub(crate) fn open_regular_if_present(
    path: &Path,
    what: &str,
) -> Result<Option<std::fs::File>, Failure> {
    use std::os::unix::fs::OpenOptionsExt as _;
    let file = match std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
    {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(Failure::usage(format!("{what}: {error}"))),
    };
    if !file.metadata().is_ok_and(|found| found.is_file()) {
        return Err(Failure::usage(format!(
            "{what}: not a regular file (a FIFO, a device or a folder)"
        )));
    }
    Ok(Some(file))
}

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
