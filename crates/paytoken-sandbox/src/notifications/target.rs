//! Where a notification goes: the `notificationUrl` read as an `http` URL, its host
//! resolved, and its addresses held to loopback unless the sandbox may send anywhere,
//! and never the sandbox's own port on an address of this machine.

use std::net::SocketAddr;

use hyper::Uri;
use tokio::net::TcpStream;

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

/// Why the sandbox does not deliver to its own port.
pub(crate) const OWN_PORT: &str = "the notification url is the sandbox's own port on this machine: the sandbox never notifies itself";

/// Reads `url` and resolves its host, allowing only what `targets` allows, and never the
/// port of the sandbox listening at `sandbox` on a loopback, unspecified or its own
/// address.
pub(crate) async fn resolve(
    url: &str,
    targets: NotificationTargets,
    sandbox: SocketAddr,
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
    if addresses.iter().any(|address| {
        let ip = address.ip();
        address.port() == sandbox.port()
            && (ip.is_loopback() || ip.is_unspecified() || ip == sandbox.ip())
    }) {
        return Err(refused(OWN_PORT));
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

/// Whether `stream` reached the sandbox's port on an address of this machine: its two
/// ends share one address, which only a connection to this machine has.
pub(crate) fn is_own(stream: &TcpStream, sandbox: SocketAddr) -> bool {
    match (stream.local_addr(), stream.peer_addr()) {
        (Ok(local), Ok(peer)) => peer.port() == sandbox.port() && local.ip() == peer.ip(),
        // A connection that cannot tell its ends is broken: the request on it fails.
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sandbox listening on a port no test URL names.
    const SANDBOX: &str = "127.0.0.1:1";

    async fn loopback(url: &str) -> Result<Target, Unreachable> {
        resolve(url, NotificationTargets::Loopback, SANDBOX.parse().unwrap()).await
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
        let anywhere = resolve(
            "http://192.0.2.1:8080/x",
            NotificationTargets::Anywhere,
            SANDBOX.parse().unwrap(),
        )
        .await;
        assert_eq!(
            anywhere.unwrap().addresses,
            ["192.0.2.1:8080".parse().unwrap()]
        );
    }
}

#[cfg(test)]
mod own_port {
    use super::*;

    #[tokio::test]
    async fn the_sandbox_s_own_port_is_refused_on_every_local_address() {
        for (sandbox, url) in [
            (
                "127.0.0.1:4242",
                "http://127.0.0.1:4242/sandbox/console/clock",
            ),
            ("127.0.0.1:4242", "http://localhost:4242/"),
            ("127.0.0.1:4242", "http://127.0.0.2:4242/"),
            ("0.0.0.0:4242", "http://[::1]:4242/"),
            ("0.0.0.0:4242", "http://0.0.0.0:4242/"),
            ("192.0.2.7:4242", "http://192.0.2.7:4242/"),
        ] {
            let refusal = resolve(url, NotificationTargets::Anywhere, sandbox.parse().unwrap())
                .await
                .unwrap_err();
            assert_eq!(refusal, Unreachable::Refused(OWN_PORT.to_owned()), "{url}");
        }
        // Another port of this machine, or the port on another machine, is a listener.
        let sandbox = "0.0.0.0:4242".parse().unwrap();
        for url in ["http://127.0.0.1:4243/", "http://192.0.2.1:4242/"] {
            assert!(
                resolve(url, NotificationTargets::Anywhere, sandbox)
                    .await
                    .is_ok(),
                "{url}"
            );
        }
    }

    #[tokio::test]
    async fn a_connection_to_this_machine_s_port_is_known_as_its_own() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let stream = TcpStream::connect(address).await.unwrap();
        let anywhere: SocketAddr = format!("0.0.0.0:{}", address.port()).parse().unwrap();
        assert!(is_own(&stream, anywhere));
        let elsewhere: SocketAddr = format!("0.0.0.0:{}", address.port() ^ 1).parse().unwrap();
        assert!(!is_own(&stream, elsewhere));
    }
}
