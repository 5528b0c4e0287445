//! The arguments of the commands that serve or run on this machine: `sandbox`, `demo`,
//! `listen`, `record`, `conform`, `vectors`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::durations::{duration, duration_or_zero};

/// `paytoken vectors`.
#[derive(Debug, Args)]
pub(crate) struct VectorsArgs {
    /// The folder to write the kit into (created when missing; files of the kit already
    /// there are replaced).
    #[arg(long, value_name = "DIR", default_value = "paytoken-conformance")]
    pub(crate) out: PathBuf,
}

/// `paytoken listen`.
#[derive(Debug, Args)]
pub(crate) struct ListenArgs {
    /// Where to listen: give this address's URL as the payment's --notification-url.
    #[arg(long, default_value = "127.0.0.1:8090")]
    pub(crate) addr: SocketAddr,
    /// Relay each verified notification, once, to this http:// endpoint of yours (body
    /// and content type as received).
    #[arg(long, value_name = "URL")]
    pub(crate) forward_to: Option<String>,
    /// How long a relay to --forward-to may take (`3s` by default: less than a gateway
    /// waits for this endpoint's answer, so a failed relay is answered 502 and retried).
    #[arg(long, value_name = "DURATION", value_parser = duration, default_value = "3s")]
    pub(crate) relay_timeout: Duration,
}

/// `paytoken conform`.
#[derive(Debug, Args)]
pub(crate) struct ConformArgs {
    /// The client under test: a command line, run by `sh -c`.
    #[arg(long, value_name = "COMMAND")]
    pub(crate) client: String,
    /// How long the client may take over one message before it is stopped (`10s` by
    /// default); no time is judged otherwise.
    #[arg(long, value_name = "DURATION", value_parser = duration, default_value = "10s")]
    pub(crate) message_timeout: Duration,
    /// Only the vectors of these sources (`specification`, `platform-docs`,
    /// `platform-observed`, `sandbox-choice`); the kit's safety rules always run.
    #[arg(long, value_name = "KIND")]
    pub(crate) source: Vec<String>,
    /// Only the vectors of these levels (`must`, `optional`, `tolerate`).
    #[arg(long, value_name = "LEVEL")]
    pub(crate) level: Vec<String>,
    /// Only these vectors: a group (`checksum`, `request`, `answer`, `notification`,
    /// `negative`), a vector's id, or an id prefix ending in `/` (`answer/payment/`).
    #[arg(long, value_name = "GROUP|ID")]
    pub(crate) only: Vec<String>,
    /// The vectors the client is known to fail, one id a line (`#` starts a comment): their
    /// failures do not fail the run, and one that passes is reported.
    #[arg(long, value_name = "FILE")]
    pub(crate) expect: Option<PathBuf>,
    /// Run the kit's scenarios instead: whole flows the client performs over HTTP against
    /// a sandbox the command starts, every request it sends held to the kit's rules.
    #[arg(long)]
    pub(crate) http: bool,
}

/// `paytoken record`.
#[derive(Debug, Args)]
pub(crate) struct RecordArgs {
    /// The gateway to record: its base URL, as your code would use it.
    #[arg(long, value_name = "URL")]
    pub(crate) upstream: String,
    /// Where to listen: give this address's URL to your code as the gateway's base URL.
    #[arg(long, default_value = "127.0.0.1:8070")]
    pub(crate) addr: SocketAddr,
    /// The cassette, appended to (created with mode 0600); a regular file, never a link,
    /// a FIFO or a folder.
    #[arg(long, value_name = "FILE", default_value = "paytoken-cassette.jsonl")]
    pub(crate) cassette: PathBuf,
    /// The most the cassette may grow by, in bytes; past it, proxying goes on and
    /// recording stops.
    #[arg(long, value_name = "BYTES", default_value_t = 64 * 1024 * 1024)]
    pub(crate) max_bytes: u64,
    /// Write names, addresses, emails, phone numbers, IP addresses and birth dates as they
    /// were sent, instead of masked.
    #[arg(long)]
    pub(crate) keep_personal_data: bool,
}

/// `paytoken sandbox`.
#[derive(Debug, Args)]
pub(crate) struct SandboxArgs {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub(crate) addr: SocketAddr,
    /// Partners and merchants, as JSON (see `SandboxConfig::from_file`).
    #[arg(long)]
    pub(crate) config: Option<PathBuf>,
    /// Wait this long before handling each request (`250ms`, `2s`).
    #[arg(long)]
    pub(crate) latency: Option<String>,
    /// Send the headers, then wait this long before the body.
    #[arg(long)]
    pub(crate) stall: Option<String>,
    /// Close the connection before or after handling each request.
    #[arg(long, value_enum)]
    pub(crate) drop: Option<DropAt>,
    /// Answer every request with this status and an HTML page.
    #[arg(long, value_parser = ["500", "502"])]
    pub(crate) status: Option<String>,
    /// Answer 200 with a broken body.
    #[arg(long, value_enum)]
    pub(crate) body: Option<BrokenBody>,
    /// Serve the incidental fields of answers in the varied shapes other deployments send
    /// (JSON numbers, `null`, `""`, lower case, ISO dates, one-element lists, unknown
    /// fields), chosen from this seed; deciding fields never change. For testing a client's
    /// tolerance.
    #[arg(long, value_name = "SEED", num_args = 0..=1, default_missing_value = "1")]
    pub(crate) vary_answers: Option<u64>,
    /// Answer like one deployment: in the shapes of the answers in this cassette of
    /// `paytoken record` (which incidental fields appear, their JSON types, amount, case and
    /// date formats, extra fields, lists of one, the invoice list), the same every time;
    /// deciding fields stay the sandbox's, and no recorded value is ever copied.
    #[arg(long, value_name = "CASSETTE", conflicts_with = "vary_answers")]
    pub(crate) answers_like: Option<PathBuf>,
    /// How long a client has to send a request, headers and body (`30s` by default).
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub(crate) request_deadline: Option<Duration>,
    /// How many connections are served at once (4096 by default).
    #[arg(long, value_name = "COUNT")]
    pub(crate) max_connections: Option<usize>,
    /// How many payments, registrations and customers are kept, of each (50000 by
    /// default); past that, calls that would add one are refused (90020), reads still
    /// answered.
    #[arg(long, value_name = "COUNT")]
    pub(crate) max_records: Option<usize>,
    /// How many live auth tokens are kept (10000 by default); past that, a new one lets go
    /// of the one that expires first.
    #[arg(long, value_name = "COUNT")]
    pub(crate) max_tokens: Option<usize>,
    /// How long a payment with the pending test card stays pending before the sandbox
    /// approves it and notifies it (`10s` by default; at most 300s).
    #[arg(long, value_name = "DURATION", value_parser = duration_or_zero)]
    pub(crate) settle_pending_after: Option<Duration>,
    /// Let the sandbox send notifications beyond loopback addresses.
    #[arg(long)]
    pub(crate) notify_anywhere: bool,
    /// How long the sandbox waits for a notification's receiver to answer one attempt
    /// before it gives up on it and tries again later (`5s` by default).
    #[arg(long, value_name = "DURATION", value_parser = duration)]
    pub(crate) notify_timeout: Option<Duration>,
    /// Keep everything the sandbox remembers in this SQLite file (created when missing),
    /// so that tokens, payments and invoices survive a restart or a crash.
    #[arg(long, value_name = "FILE")]
    pub(crate) state: Option<PathBuf>,
    /// Explain each refusal, on stderr and in a `paytoken-sandbox-explain` header beside the
    /// gateway's answer: for a checksum mismatch, the rule and its parts in order, the joined
    /// text with the key masked, and the usual mistake that matches what was sent.
    #[arg(long)]
    pub(crate) explain: bool,
    /// Save this sandbox's address and its first merchant as a profile of this name in the
    /// profiles file, its secure key in NAME.key beside it (mode 0600); then
    /// `paytoken --profile NAME ...` calls this sandbox.
    #[arg(long, value_name = "NAME")]
    pub(crate) write_profile: Option<String>,
}

/// `paytoken demo`.
#[derive(Debug, Args)]
pub(crate) struct DemoArgs {
    /// Let the sandbox vary its answers' incidental fields (numbers, nulls, lower case,
    /// ISO dates, ...) from this seed, as other deployments send them: the demo's verdicts
    /// must not change.
    #[arg(long, value_name = "SEED", num_args = 0..=1, default_missing_value = "1")]
    pub(crate) vary_answers: Option<u64>,
    /// Let the sandbox answer in the shapes of the answers in this cassette of `paytoken
    /// record`, as the deployment it was recorded from does: the demo's verdicts must not
    /// change.
    #[arg(long, value_name = "CASSETTE", conflicts_with = "vary_answers")]
    pub(crate) answers_like: Option<PathBuf>,
}

/// `--drop`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum DropAt {
    /// Nothing happens.
    Before,
    /// The request takes effect, the answer is lost.
    After,
}

/// `--body`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum BrokenBody {
    /// Not JSON.
    Malformed,
    /// The first half of the answer.
    Truncated,
    /// 2 MiB of JSON.
    Oversized,
}
