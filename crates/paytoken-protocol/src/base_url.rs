//! The gateway's base URL: the user's choice, since many brands run this interface.

use core::fmt;

use crate::InvalidValue;

/// An `http` or `https` URL that the interface's paths are appended to, such as
/// `https://sandbox.example-gateway.com` or `https://gw.example/api/`. A trailing `/` is
/// dropped; a query or a fragment is refused, since the gateway refuses query strings.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BaseUrl {
    url: String,
    https: bool,
    host_end: usize,
    /// The authority as the `http` crate holds it, parsed once here rather than in every
    /// request's URI (`None` when that crate refuses it: `to_http` then says so).
    #[cfg(feature = "http")]
    authority: Option<http::uri::Authority>,
}

impl BaseUrl {
    /// Checks and takes a base URL.
    ///
    /// # Errors
    /// [`InvalidValue`] for `baseUrl` when the scheme is not `http` or `https`, the host
    /// is missing, the port is not 1 to 65535, or the URL holds a query, a fragment, user
    /// info, a space or a control character.
    pub fn new(url: &str) -> Result<Self, InvalidValue> {
        let invalid = |reason| InvalidValue {
            field: "baseUrl",
            reason,
        };
        let (https, rest) = if let Some(rest) = strip_prefix_ignore_case(url, "https://") {
            (true, rest)
        } else if let Some(rest) = strip_prefix_ignore_case(url, "http://") {
            (false, rest)
        } else {
            return Err(invalid("must start with https:// or http://"));
        };
        if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(invalid("holds a space or a control character"));
        }
        if url.contains(['?', '#']) {
            return Err(invalid("must not hold a query or a fragment"));
        }
        paytoken_types::check_authority(rest).map_err(invalid)?;
        let authority = rest.split('/').next().unwrap_or_default();
        // Measured before the trailing `/` goes, which `rest` still holds.
        let scheme_len = url.len() - rest.len();
        let url = url.trim_end_matches('/');
        Ok(Self {
            url: url.to_owned(),
            https,
            host_end: scheme_len + authority.len(),
            #[cfg(feature = "http")]
            authority: http::uri::Authority::try_from(authority).ok(),
        })
    }

    /// The URL, without a trailing `/`.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.url
    }

    /// Whether the scheme is `https`.
    #[must_use]
    pub const fn is_https(&self) -> bool {
        self.https
    }

    /// The host, without the port (`[::1]` keeps its brackets).
    #[must_use]
    pub fn host(&self) -> &str {
        let scheme_len = if self.https { 8 } else { 7 };
        let authority = self.url.get(scheme_len..self.host_end).unwrap_or_default();
        if authority.starts_with('[') {
            return authority
                .find(']')
                .and_then(|end| authority.get(..=end))
                .unwrap_or(authority);
        }
        authority.split(':').next().unwrap_or(authority)
    }

    /// The port: the URL's own, or the scheme's (443, 80).
    #[must_use]
    pub fn port(&self) -> u16 {
        let scheme_len = if self.https { 8 } else { 7 };
        let authority = self.url.get(scheme_len..self.host_end).unwrap_or_default();
        let after_host = authority.get(self.host().len()..).unwrap_or_default();
        after_host
            .strip_prefix(':')
            .and_then(|port| port.parse().ok())
            .unwrap_or(if self.https { 443 } else { 80 })
    }

    /// Whether the host is a loopback address (`localhost`, `127.x.x.x`, `[::1]`), where
    /// plain `http` is acceptable.
    #[must_use]
    pub fn is_loopback(&self) -> bool {
        let host = self.host();
        host.eq_ignore_ascii_case("localhost")
            || host == "[::1]"
            || host
                .parse::<core::net::Ipv4Addr>()
                .is_ok_and(|ip| ip.is_loopback())
    }

    /// The path after the host (`/api`, or empty), which every request path follows.
    #[cfg(any(feature = "http", test))]
    pub(crate) fn path_prefix(&self) -> &str {
        self.url.get(self.host_end..).unwrap_or_default()
    }

    /// The authority, parsed by the `http` crate when the base URL was taken.
    #[cfg(feature = "http")]
    pub(crate) const fn http_authority(&self) -> Option<&http::uri::Authority> {
        self.authority.as_ref()
    }

    /// The base URL followed by `path` (which starts with `/`).
    #[must_use]
    pub fn join(&self, path: &str) -> String {
        let mut url = String::with_capacity(self.url.len() + path.len());
        url.push_str(&self.url);
        url.push_str(path);
        url
    }
}

impl fmt::Display for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.url)
    }
}

impl core::str::FromStr for BaseUrl {
    type Err = InvalidValue;

    fn from_str(url: &str) -> Result<Self, InvalidValue> {
        Self::new(url)
    }
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| text.get(prefix.len()..))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_paths_and_knows_its_host() {
        let base = BaseUrl::new("https://gw.example:8443/api/").unwrap();
        assert_eq!(base.as_str(), "https://gw.example:8443/api");
        assert_eq!(base.join("/x/y"), "https://gw.example:8443/api/x/y");
        assert_eq!(base.host(), "gw.example");
        assert!(base.is_https() && !base.is_loopback());
        assert!(BaseUrl::new("http://127.0.0.1:9000").unwrap().is_loopback());
        assert!(BaseUrl::new("http://localhost").unwrap().is_loopback());
        assert!(BaseUrl::new("http://[::1]:80/").unwrap().is_loopback());
    }

    #[test]
    fn knows_its_port_or_its_scheme_s() {
        for (url, port) in [
            ("https://gw.example:8443/api/", 8443),
            ("https://gw.example/api", 443),
            ("http://localhost", 80),
            ("http://[::1]:9000/", 9000),
            ("https://[::1]", 443),
        ] {
            assert_eq!(BaseUrl::new(url).unwrap().port(), port, "{url}");
        }
    }

    #[test]
    fn a_trailing_slash_does_not_cut_the_host() {
        // The host's end was measured after the `/` was dropped: one byte short.
        assert_eq!(
            BaseUrl::new("https://gw.example/").unwrap().host(),
            "gw.example"
        );
        assert!(BaseUrl::new("http://localhost/").unwrap().is_loopback());
        assert_eq!(
            BaseUrl::new("https://gw.example/api/")
                .unwrap()
                .path_prefix(),
            "/api"
        );
        assert_eq!(
            BaseUrl::new("https://gw.example//").unwrap().path_prefix(),
            ""
        );
    }

    #[test]
    fn refuses_what_the_gateway_would() {
        for bad in [
            "ftp://x",
            "https://",
            "https://x/?a=b",
            "https://x/#f",
            "https://u:p@x/",
            "https://x y",
            "gw.example",
            "https://:80",
            "http://127.0.0.1:99999",
            "https://gw.example:0/api",
        ] {
            assert!(BaseUrl::new(bad).is_err(), "{bad}");
        }
    }
}
