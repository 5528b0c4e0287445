//! A client's settings as Python gives them: from arguments, else from the environment.

use std::io::Read as _;
use std::path::PathBuf;
use std::time::Duration;

use paytoken_hyper::{Proxy, environment};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString};

use crate::errors::{InvalidInput, invalid_field};

/// The most bytes read of a file of root certificates: a whole system bundle is some
/// hundred KiB.
const ROOT_CERTIFICATES_BYTES: u64 = 4 * 1024 * 1024;

/// The variable Python's and OpenSSL's users name a file of root certificates with; read
/// besides the command's own.
const SSL_CERT_FILE: &str = "SSL_CERT_FILE";

/// `value`, else the environment's `variable` when set and not blank.
pub(crate) fn given(value: Option<String>, variable: &str) -> Option<String> {
    value.or_else(|| {
        std::env::var(variable)
            .ok()
            .filter(|set| !set.trim().is_empty())
    })
}

/// `InvalidInput` for a required setting neither given nor in the environment.
pub(crate) fn missing(field: &'static str, variable: &str) -> PyErr {
    let raised = InvalidInput::new_err(format!(
        "{field}: is required: give {field}= or set {variable}"
    ));
    Python::attach(|py| {
        let value = raised.value(py);
        let facts = value
            .setattr("field", field)
            .and_then(|()| value.setattr("may_have_been_processed", false));
        match facts {
            Ok(()) => raised,
            Err(failed) => failed,
        }
    })
}

/// A duration of `seconds`, longer than zero.
pub(crate) fn duration(seconds: f64, field: &'static str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|duration| !duration.is_zero())
        .ok_or_else(|| invalid_field(field, "is a number of seconds above zero"))
}

/// The proxy setting: `None` (the environment's `HTTPS_PROXY` and `NO_PROXY`), `False`
/// (none), or a proxy's URL.
pub(crate) fn proxy(proxy: Option<&Bound<'_, PyAny>>) -> PyResult<Proxy> {
    match proxy {
        None => Ok(Proxy::FromEnvironment),
        Some(off) if off.is_instance_of::<PyBool>() && !off.is_truthy()? => Ok(Proxy::Direct),
        Some(url) => match url.cast::<PyString>() {
            Ok(url) => Ok(Proxy::Url(url.to_cow()?.into_owned())),
            Err(_) => Err(invalid_field(
                "proxy",
                "is a proxy's URL, or False for none",
            )),
        },
    }
}

/// The PEM texts of the root certificates to trust besides the built-in ones: the file
/// given, else the files `PAYTOKEN_ROOT_CERTIFICATE` and `SSL_CERT_FILE` name.
pub(crate) fn root_certificate_files(given: Option<PathBuf>) -> PyResult<Vec<Vec<u8>>> {
    let files: Vec<PathBuf> = match given {
        Some(path) => vec![path],
        None => [environment::ROOT_CERTIFICATE, SSL_CERT_FILE]
            .into_iter()
            .filter_map(|variable| self::given(None, variable))
            .map(PathBuf::from)
            .collect(),
    };
    files
        .into_iter()
        .map(|path| {
            let cannot = |reason: String| {
                InvalidInput::new_err(format!(
                    "root_certificates: cannot read {}: {reason}",
                    path.display()
                ))
            };
            let file = std::fs::File::open(&path).map_err(|error| cannot(error.to_string()))?;
            let mut pem = Vec::new();
            file.take(ROOT_CERTIFICATES_BYTES + 1)
                .read_to_end(&mut pem)
                .map_err(|error| cannot(error.to_string()))?;
            if u64::try_from(pem.len()).unwrap_or(u64::MAX) > ROOT_CERTIFICATES_BYTES {
                return Err(cannot("larger than 4 MiB".to_owned()));
            }
            Ok(pem)
        })
        .collect()
}
