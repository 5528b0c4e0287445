//! HTTPS for the sandbox (feature `tls`): the caller's certificate, rustls with ring.

use std::fmt;
use std::sync::Arc;

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::TlsAcceptor;

use crate::Error;

/// A certificate chain and its private key, both DER-encoded: what a test makes with a
/// certificate authority of its own (rcgen, say) to try a client over TLS.
#[derive(Clone)]
pub struct TlsIdentity {
    /// The server's certificate first, then any intermediates.
    pub certificate_chain: Vec<Vec<u8>>,
    /// The private key, PKCS#8.
    pub private_key: Vec<u8>,
}

impl fmt::Debug for TlsIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TlsIdentity")
            .field("certificates", &self.certificate_chain.len())
            .field("private_key", &"***")
            .finish()
    }
}

/// The acceptor for `identity`: HTTP/1.1 only, as the sandbox serves.
pub(crate) fn acceptor(identity: &TlsIdentity) -> Result<TlsAcceptor, Error> {
    let tls_error = |error: rustls::Error| Error::Tls {
        source: error.into(),
    };
    let chain = identity
        .certificate_chain
        .iter()
        .map(|der| CertificateDer::from(der.clone()))
        .collect();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(identity.private_key.clone()));
    let mut config = rustls::ServerConfig::builder_with_provider(tls_provider())
        .with_safe_default_protocol_versions()
        .map_err(tls_error)?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(tls_error)?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}

/// The TLS provider: the one the application installed as the process's default (such as
/// aws-lc-rs, with post-quantum key exchange), else *ring*'s, which this crate builds with.
fn tls_provider() -> Arc<rustls::crypto::CryptoProvider> {
    rustls::crypto::CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(ring_provider()))
}

/// *ring*'s provider. rustls 0.23.48 deprecates it for lacking post-quantum key exchange;
/// aws-lc-rs, which has it, is a C build this crate does not impose on every shop, and an
/// application that installs it is served by it ([`tls_provider`]).
#[allow(
    deprecated,
    reason = "ring's provider, deprecated from rustls 0.23.48, is the fallback on purpose"
)]
fn ring_provider() -> rustls::crypto::CryptoProvider {
    rustls::crypto::ring::default_provider()
}
