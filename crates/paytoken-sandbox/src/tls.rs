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
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(tls_error)?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(tls_error)?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
