//! Where a notification goes: the `notificationUrl` read as an `http` URL, its host
//! resolved, and its addresses held to loopback unless the sandbox may send anywhere.

use std::net::SocketAddr;

use hyper::Uri;

use super::NotificationTargets;

/// A place a notification may be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    /// Every address the host resolved to, each allowed.
    pub(crate) addresses: Vec<SocketAddr>,
    /// `host:port` as the URL wrote it, for the `Host` header.
    pub(crate) authority: String,
    /// The path and query.
    pub(crate) path: String,
}

/// Why a notification cannot be sent to a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unreachable {
    /// Never: the URL is not one the sandbox sends to.
    Refused(String),
    /// Not now: the host did not resolve; a later attempt may.
    Unresolved(String),
}

/// Reads `url` and resolves its host, allowing only what `targets` allows.
pub(crate) async fn resolve(
    url: &str,
    targets: NotificationTargets,
) -> Result<Target, Unreachable> {
    let refused = |reason: &str| Unreachable::Refused(reason.to_owned());
    let uri: Uri = url
        .parse()
        .map_err(|_| refused("the notification url cannot be read"))?;
    if !uri
        .scheme_str()
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("http"))
    {
        return Err(refused(
            "the sandbox sends notifications over plain http only: give the http:// url of a local listener",
        ));
    }
    let (Some(authority), Some(host)) = (uri.authority(), uri.host()) else {
        return Err(refused("the notification url has no host"));
    };
    if let Err(reason) = paytoken_types::check_authority(authority.as_str()) {
        return Err(Unreachable::Refused(format!(
            "the notification url {reason}"
        )));
    }
    // Checked above: a port written is 1 to 65535, so only an absent one takes the default.
    let port = uri.port_u16().unwrap_or(80);
    // `[::1]` is how a URL writes an IPv6 host; the resolver wants it bare.
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addresses: Vec<SocketAddr> = tokio::net::lookup_host((bare, port))
        .await
        .map_err(|_| Unreachable::Unresolved(format!("{host} does not resolve")))?
        .collect();
    if addresses.is_empty() {
        return Err(Unreachable::Unresolved(format!("{host} does not resolve")));
    }
    if targets == NotificationTargets::Loopback
        && !addresses.iter().all(|address| address.ip().is_loopback())
    {
        return Err(Unreachable::Refused(format!(
            "{host} is not a loopback address: the sandbox sends notifications to this machine only, unless told otherwise (NotificationTargets::Anywhere)"
        )));
    }
    let path = uri
        .path_and_query()
        .map_or_else(|| "/".to_owned(), |path| path.as_str().to_owned());
    Ok(Target {
        addresses,
        authority: authority.as_str().to_owned(),
        path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn loopback(url: &str) -> Result<Target, Unreachable> {
        resolve(url, NotificationTargets::Loopback).await
    }

    #[tokio::test]
    async fn reads_loopback_urls_with_their_path_and_query() {
        let target = loopback("http://127.0.0.1:4242/hooks/pay?shop=1")
            .await
            .unwrap();
        assert_eq!(target.addresses, ["127.0.0.1:4242".parse().unwrap()]);
        assert_eq!(target.authority, "127.0.0.1:4242");
        assert_eq!(target.path, "/hooks/pay?shop=1");
        let target = loopback("HTTP://[::1]:8/").await.unwrap();
        assert_eq!(target.addresses, ["[::1]:8".parse().unwrap()]);
        assert_eq!(loopback("http://127.0.0.2").await.unwrap().path, "/");
    }

    #[tokio::test]
    async fn refuses_what_it_does_not_send_to() {
        for url in [
            "https://127.0.0.1/",
            "javascript:alert(1)",
            "http://user:pass@127.0.0.1/",
            "http://127.0.0.1:99999/x",
            "http://127.0.0.1:0/",
            "http://10.0.0.1/",
            "http://[2001:db8::1]/",
            "http://192.0.2.1:8080/",
            "not a url",
        ] {
            let refusal = loopback(url).await.unwrap_err();
            assert!(
                matches!(refusal, Unreachable::Refused(_)),
                "{url}: {refusal:?}"
            );
        }
        let anywhere = resolve("http://192.0.2.1:8080/x", NotificationTargets::Anywhere).await;
        assert_eq!(
            anywhere.unwrap().addresses,
            ["192.0.2.1:8080".parse().unwrap()]
        );
    }
}
