//! The simulated network between the client and the sandbox: the client's [`Transport`],
//! which hands each request to the sandbox in the same process, and on the way draws from
//! the run's seed what goes wrong: the connection refused, the request or the answer lost,
//! the answer stalled past the client's timeout, a proxy's `502` page before or after the
//! gateway acted, the body cut short, the answer late, the sandbox's clock jumped past
//! the auth token's life, or (in runs on a state file) the sandbox killed before or after
//! it acted and restarted from its file.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use paytoken_hyper::{
    Transport, TransportError, TransportErrorKind, TransportRequest, TransportResponse,
};
use paytoken_protocol::AUTH_TOKEN_HEADER;
use paytoken_sandbox::simulation::InProcess;
use paytoken_types::internal::decode;

use crate::clock::VirtualClock;
use crate::history::History;

/// What the network does to one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fault {
    /// Delivered, answered, in time.
    None,
    /// The connection never opened: nothing reached the gateway.
    Refused,
    /// The connection broke before the request arrived.
    RequestLost,
    /// The gateway acted; the connection broke before its answer.
    AnswerLost,
    /// The gateway acted; its answer stalls past the client's timeout.
    Stalled,
    /// A proxy's `502` page; the gateway never saw the request.
    BadGatewayBefore,
    /// The gateway acted; a proxy answers `502` in its place.
    BadGatewayAfter,
    /// The gateway acted; half its answer arrives.
    CutShort,
    /// The gateway acts; its answer arrives late, within the client's timeout.
    Late,
    /// The sandbox's clock jumps an hour and more first: the auth token has expired.
    TokenExpired,
    /// The sandbox is killed before it acts, and restarts from its state file: the
    /// connection breaks. Only in runs on a file; delivered otherwise.
    KilledBefore,
    /// The sandbox acts, is killed before its answer leaves, and restarts from its state
    /// file: the connection breaks. Only in runs on a file; delivered otherwise.
    KilledAfter,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::None => "delivered",
            Self::Refused => "connection refused",
            Self::RequestLost => "request lost",
            Self::AnswerLost => "answer lost",
            Self::Stalled => "answer stalled",
            Self::BadGatewayBefore => "502 before the gateway",
            Self::BadGatewayAfter => "502 after the gateway",
            Self::CutShort => "answer cut short",
            Self::Late => "answer late",
            Self::TokenExpired => "token expired",
            Self::KilledBefore => "sandbox killed before acting",
            Self::KilledAfter => "sandbox killed after acting",
        })
    }
}

/// The faults, each with its base weight (a run's mix multiplies each fault's): most
/// requests pass.
const WEIGHTS: [(Fault, u32); 12] = [
    (Fault::None, 700),
    (Fault::Refused, 30),
    (Fault::RequestLost, 30),
    (Fault::AnswerLost, 50),
    (Fault::Stalled, 30),
    (Fault::BadGatewayBefore, 20),
    (Fault::BadGatewayAfter, 40),
    (Fault::CutShort, 30),
    (Fault::Late, 60),
    (Fault::TokenExpired, 10),
    (Fault::KilledBefore, 30),
    (Fault::KilledAfter, 30),
];

/// A proxy's error page.
const BAD_GATEWAY_PAGE: &str = "<html><body><h1>502 Bad Gateway</h1></body></html>";

/// The network of a run.
#[derive(Debug)]
pub(crate) struct Network {
    gateway: Arc<InProcess>,
    random: Mutex<fastrand::Rng>,
    /// This run's weight of each fault.
    weights: Vec<(Fault, u32)>,
    clock: Arc<VirtualClock>,
    history: History,
    /// Longer than the client waits: a stalled answer is one it never reads.
    stall: Duration,
    /// Whether the sandbox keeps its state in a file, and may be killed.
    on_file: bool,
    /// Why a restart failed, each time one did.
    failed_restarts: Arc<Mutex<Vec<String>>>,
}

impl Network {
    pub(crate) fn new(
        gateway: Arc<InProcess>,
        seed: u64,
        clock: Arc<VirtualClock>,
        history: History,
        client_timeout: Duration,
        on_file: bool,
        failed_restarts: Arc<Mutex<Vec<String>>>,
    ) -> Self {
        let mut random = fastrand::Rng::with_seed(seed);
        let weights = crate::mix::swarm(&mut random, &WEIGHTS);
        history.note(crate::mix::described("network", &weights));
        Self {
            gateway,
            random: Mutex::new(random),
            weights,
            clock,
            history,
            stall: client_timeout.saturating_mul(2),
            on_file,
            failed_restarts,
        }
    }

    /// Kills the sandbox and starts it again from its file.
    fn restart(&self) {
        if let Err(error) = self.gateway.restart() {
            self.failed_restarts
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(error.to_string());
        }
        self.history.note(crate::RESTARTED);
    }

    /// The fault for the next request, how long its trip takes, and how much later than
    /// that its answer comes back.
    fn draw(&self) -> (Fault, Duration, Duration) {
        let mut random = self.random.lock().unwrap_or_else(PoisonError::into_inner);
        let mut fault = crate::weighted(&mut random, &self.weights, Fault::None);
        if !self.on_file && matches!(fault, Fault::KilledBefore | Fault::KilledAfter) {
            fault = Fault::None;
        }
        let trip = Duration::from_millis(random.u64(1..20));
        let late = if fault == Fault::Late {
            Duration::from_millis(random.u64(100..900))
        } else {
            Duration::ZERO
        };
        (fault, trip, late)
    }
}

impl Transport for Network {
    async fn send(&self, sent: TransportRequest<'_>) -> Result<TransportResponse, TransportError> {
        let request = sent.request;
        let (fault, trip, late) = self.draw();
        let what = described(
            request.operation().name(),
            request.path(),
            request.body().as_bytes(),
        );
        self.history.note(format_args!("{what}: {fault}"));
        tokio::time::sleep(trip).await;
        match fault {
            Fault::Refused => return Err(TransportError::new(TransportErrorKind::Connect)),
            Fault::RequestLost => return Err(TransportError::new(TransportErrorKind::Broken)),
            Fault::BadGatewayBefore => return Ok(page(502, BAD_GATEWAY_PAGE)),
            Fault::KilledBefore => {
                self.restart();
                return Err(TransportError::new(TransportErrorKind::Broken));
            }
            Fault::TokenExpired => self
                .clock
                .skip(paytoken_protocol::TOKEN_LIFETIME + Duration::from_secs(60)),
            _ => {}
        }
        let (status, body) = self.gateway.handle(
            request.path(),
            request.header(AUTH_TOKEN_HEADER),
            request.body().as_bytes(),
        );
        self.history.note(format_args!(
            "{what}: answered {status} {}",
            result_code(&body)
        ));
        match fault {
            Fault::AnswerLost => Err(TransportError::new(TransportErrorKind::Broken)),
            Fault::KilledAfter => {
                self.restart();
                Err(TransportError::new(TransportErrorKind::Broken))
            }
            Fault::Stalled => {
                // The client gives up first; this attempt's future is dropped with it.
                tokio::time::sleep(self.stall).await;
                Ok(page(status, &body))
            }
            Fault::BadGatewayAfter => Ok(page(502, BAD_GATEWAY_PAGE)),
            Fault::Late => {
                tokio::time::sleep(late).await;
                Ok(page(status, &body))
            }
            Fault::CutShort => {
                let half = body.len() / 2;
                Ok(page(status, body.get(..half).unwrap_or_default()))
            }
            _ => Ok(page(status, &body)),
        }
    }
}

fn page(status: u16, body: &str) -> TransportResponse {
    TransportResponse {
        status,
        body: Bytes::copy_from_slice(body.as_bytes()),
    }
}

/// A request as the history shows it: its operation, path and order id.
fn described(operation: &str, path: &str, body: &[u8]) -> String {
    let order = decode(body)
        .filter_map(Result::ok)
        .find(|(name, _)| name == "merchantTransactionId")
        .map(|(_, value)| format!(" order {value}"))
        .unwrap_or_default();
    format!("{operation} {path}{order}")
}

/// The result code an answer carries, for the history.
fn result_code(body: &str) -> &str {
    body.split("\"code\":\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("-")
}
