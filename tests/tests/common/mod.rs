//! What the client tests share: a client for a sandbox, test values, a certificate
//! authority made at test time, and a tracing subscriber that keeps everything.

use std::fmt::{self, Write as _};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use paytoken::ClientBuilder;
use paytoken_sandbox::{Sandbox, TlsIdentity};

pub(crate) mod life_cycle;

/// A client builder for the sandbox's default merchant: its credentials, account and
/// terminal, and a token fetched with its login name.
pub(crate) fn client_for(sandbox: &Sandbox) -> ClientBuilder {
    paytoken::sandbox::client_builder(sandbox).unwrap().0
}

pub(crate) use paytoken_test_support::samples::{card, order_id};

/// Fast retries, so that a test does not wait on backoff.
pub(crate) const QUICK: paytoken::RetryPolicy = paytoken::RetryPolicy {
    max_attempts: 3,
    initial_backoff: std::time::Duration::from_millis(5),
    max_backoff: std::time::Duration::from_millis(20),
};

/// `builder`'s client after a first read (the cards list), which fetched its auth token:
/// the next request a sandbox sees is the test's own.
pub(crate) async fn signed_in_client(builder: ClientBuilder) -> paytoken::Client {
    let client = builder.build().unwrap();
    client
        .cards_and_accounts(&paytoken::ops::cards_and_accounts::CardsAndAccounts::all())
        .await
        .unwrap();
    client
}

/// A 25.00 EUR payment with the test card `number`, under an order id of its own.
pub(crate) fn payment_with(number: &str) -> paytoken::ops::payment::Payment {
    paytoken::ops::payment::Payment::new(
        order_id(),
        "25.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(number),
    )
}

/// A certificate authority made now, and a certificate it signed for `127.0.0.1`,
/// `localhost` and `gateway.test` (a name only a test's proxy resolves): the CA's
/// certificate (DER) to trust, and the server's identity. Each has a name of its own:
/// OpenSSL (Python's ssl) takes a certificate whose subject is its issuer's for a
/// self-signed one.
pub(crate) fn test_ca() -> (Vec<u8>, TlsIdentity) {
    let (ca, identity, _) = test_ca_with_pem();
    (ca, identity)
}

/// [`test_ca`], with the CA's certificate as a PEM text too.
pub(crate) fn test_ca_with_pem() -> (Vec<u8>, TlsIdentity, String) {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "paytoken test CA");
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    let server_key = KeyPair::generate().unwrap();
    let mut server_params = CertificateParams::new(vec![
        "127.0.0.1".to_owned(),
        "localhost".to_owned(),
        "gateway.test".to_owned(),
    ])
    .unwrap();
    server_params
        .distinguished_name
        .push(DnType::CommonName, "localhost");
    let server = server_params.signed_by(&server_key, &ca).unwrap();
    let identity = TlsIdentity {
        certificate_chain: vec![server.der().to_vec()],
        private_key: server_key.serialize_der(),
    };
    (ca.der().to_vec(), identity, ca.pem())
}

/// Runs `work` to its end on a runtime of one thread, so that every task the client and
/// hyper spawn reports to `dispatch`, the thread's subscriber meanwhile.
pub(crate) fn run_traced<T>(dispatch: &tracing::Dispatch, work: impl Future<Output = T>) -> T {
    let _guard = tracing::dispatcher::set_default(dispatch);
    // `tracing` caches each callsite's interest for the whole process, and while a
    // single dispatcher is registered it asks only the default of the thread that
    // reaches the callsite first: another test's thread, with no subscriber, could cache
    // the client's span as never wanted, and the capture would see no span (a test
    // failed so, once, under the parallel run). A second registered dispatcher makes
    // the cache ask every registered one; the rebuild mends what was cached before it.
    let _anchor = tracing::Dispatch::new(tracing::subscriber::NoSubscriber::default());
    tracing::callsite::rebuild_interest_cache();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(work)
}

/// Asserts that `text` (what `shown` names: logs, errors, spans) holds no secret the
/// client was given, no test card, no part of one beyond its first six and last four
/// digits, and no field that carries one.
pub(crate) fn assert_no_secret(shown: &str, text: &str) {
    let merchant = paytoken_sandbox::SandboxConfig::default()
        .merchant(paytoken_sandbox::DEFAULT_MERCHANT_ID)
        .unwrap()
        .clone();
    let cards = [
        paytoken_sandbox::cards::APPROVED,
        paytoken_sandbox::cards::INSTALLMENTS,
        paytoken_sandbox::cards::DECLINED,
    ];
    for secret in [
        merchant.secure_key.expose_secret(),
        cards[0],
        cards[1],
        cards[2],
        &cards[0][..10],
        &cards[0][6..],
        "card.number",
        "card.cvv",
        "authentication.sKey",
        "authentication.checksum",
        // The sandbox's auth tokens are JWT-shaped: base64url of `{"`.
        "eyJ",
    ] {
        assert!(!text.contains(secret), "{shown} show {secret:?}:\n{text}");
    }
}

/// A tracing subscriber that writes every span (with its fields, as they are recorded) and
/// every event, at every level, into one text.
#[derive(Clone, Default)]
pub(crate) struct Capture(Arc<Mutex<String>>);

impl Capture {
    /// Runs `work` with this capture as the thread's subscriber ([`run_traced`]).
    pub(crate) fn run<T>(&self, work: impl Future<Output = T>) -> T {
        run_traced(&tracing::Dispatch::new(self.clone()), work)
    }

    pub(crate) fn text(&self) -> String {
        self.0.lock().unwrap().clone()
    }

    fn push(&self, line: &str) {
        let mut text = self.0.lock().unwrap();
        text.push_str(line);
        text.push('\n');
    }
}

struct Fields(String);

impl tracing::field::Visit for Fields {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn fmt::Debug) {
        let _ = write!(self.0, " {}={value:?}", field.name());
    }
}

impl tracing::Subscriber for Capture {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }

    fn new_span(&self, span: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let mut fields = Fields(format!("span {}", span.metadata().name()));
        span.record(&mut fields);
        self.push(&fields.0);
        tracing::span::Id::from_u64(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    fn record(&self, _: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        let mut fields = Fields("record".to_owned());
        values.record(&mut fields);
        self.push(&fields.0);
    }

    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}

    fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = Fields(format!(
            "event {} {}",
            event.metadata().level(),
            event.metadata().target()
        ));
        event.record(&mut fields);
        self.push(&fields.0);
    }

    fn enter(&self, _: &tracing::span::Id) {}

    fn exit(&self, _: &tracing::span::Id) {}
}
