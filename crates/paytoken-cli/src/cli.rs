//! The command line: global options, and one subcommand per job.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use paytoken::types::{PaymentType, RecurringType};

use crate::durations::{duration, duration_or_zero};
use crate::examples;

/// paytoken: the demo, the sandbox, and every operation of the card-tokenization gateway.
#[derive(Debug, Parser)]
#[command(name = "paytoken", version, about, max_term_width = 100)]
pub(crate) struct Cli {
    /// Print JSON on stdout: exactly one object, errors included (`invoices --all`: one
    /// invoice a line, then the summary or the error).
    #[arg(long, global = true)]
    pub(crate) json: bool,

    #[command(flatten)]
    pub(crate) gateway: GatewayArgs,

    #[command(subcommand)]
    pub(crate) command: Command,

    /// The operation's name in the JSON output: the subcommand's, in snake case
    /// (`pay_with_token`, `config_show`).
    #[arg(skip)]
    pub(crate) operation: String,
}

/// The heading of the connection options, shared by every operation.
const CONNECTION: &str = "Connection (every operation)";

/// Parses the command line. The connection options are global (they may stand before or
/// after the subcommand), but the commands that call no gateway leave them out of their
/// help (`listen` keeps the secure key's, `config` and `sandbox` the profiles file's).
pub(crate) fn parse(args: &[std::ffi::OsString]) -> Result<Cli, clap::Error> {
    use clap::FromArgMatches as _;
    let matches = command().try_get_matches_from(args)?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    cli.operation = operation(&matches);
    // clap merged flags and variables; a flag beats a profile and so does a variable, but
    // `whoami` says which of the two it was.
    cli.gateway.from_command_line = GatewayArgs::IDS
        .iter()
        .copied()
        .filter(|id| matches.value_source(id) == Some(clap::parser::ValueSource::CommandLine))
        .collect();
    Ok(cli)
}

/// The command line as clap knows it, built, with the connection options hidden where
/// they do nothing: what parses the line, and what completions and man pages are made of.
pub(crate) fn command() -> clap::Command {
    use clap::CommandFactory as _;
    let mut command = Cli::command();
    // Building propagates the global options into the subcommands, where they can be hidden.
    command.build();
    for name in [
        "demo",
        "sandbox",
        "listen",
        "vectors",
        "config",
        "completions",
        "man-pages",
    ] {
        command = command.mut_subcommand(name, |subcommand| {
            subcommand.mut_args(|arg| {
                // `listen` reads the secure key, maybe a profile's; `sandbox` writes one.
                let id = arg.get_id().as_str();
                let needed = match name {
                    "listen" => ["secure_key_file", "profile", "config_file"].contains(&id),
                    "config" => ["profile", "config_file"].contains(&id),
                    "sandbox" => id == "config_file",
                    _ => false,
                };
                if arg.get_help_heading() == Some(CONNECTION) && !needed {
                    arg.hide(true)
                } else {
                    arg
                }
            })
        });
    }
    command
}

/// The operation a parsed line names: its subcommands' names, in snake case.
fn operation(matches: &clap::ArgMatches) -> String {
    let mut names = Vec::new();
    let mut next = matches.subcommand();
    while let Some((name, sub)) = next {
        names.push(name.replace('-', "_"));
        next = sub.subcommand();
    }
    names.join("_")
}

/// The operation a line that does not parse meant, as far as it can be told: the words
/// that name a subcommand (an alias too) and then one of its own, else `paytoken`.
pub(crate) fn operation_named(args: &[std::ffi::OsString]) -> String {
    use clap::CommandFactory as _;
    let mut command = Cli::command();
    let mut names = Vec::new();
    for arg in args.iter().skip(1).filter_map(|arg| arg.to_str()) {
        if let Some(sub) = command.find_subcommand(arg).cloned() {
            names.push(sub.get_name().replace('-', "_"));
            command = sub;
        }
    }
    if names.is_empty() {
        "paytoken".to_owned()
    } else {
        names.join("_")
    }
}

/// Where the gateway is and who is calling. The secure key is read from
/// `PAYTOKEN_SECURE_KEY`, `--secure-key-file` or the file or variable a profile names,
/// never from a flag's value.
#[derive(Debug, Args)]
#[command(next_help_heading = CONNECTION)]
pub(crate) struct GatewayArgs {
    /// The profile to use, from the profiles file (otherwise the one called `default`, if
    /// any); flags and variables beat its settings.
    #[arg(long, global = true, env = "PAYTOKEN_PROFILE", value_name = "NAME")]
    pub(crate) profile: Option<String>,
    /// The profiles file (by default config.toml in $XDG_CONFIG_HOME/paytoken or
    /// ~/.config/paytoken).
    #[arg(long, global = true, env = "PAYTOKEN_CONFIG_FILE", value_name = "FILE")]
    pub(crate) config_file: Option<PathBuf>,
    /// The gateway's base URL, such as https://sandbox.gateway.example.
    #[arg(long, global = true, env = "PAYTOKEN_BASE_URL")]
    pub(crate) base_url: Option<String>,
    /// Your merchant account at the gateway (authentication.memberId).
    #[arg(long, global = true, env = "PAYTOKEN_MEMBER_ID")]
    pub(crate) member_id: Option<String>,
    /// The partner the merchant belongs to, or the caller itself without --member-id
    /// (authentication.partnerId).
    #[arg(long, global = true, env = "PAYTOKEN_PARTNER_ID")]
    pub(crate) partner_id: Option<String>,
    /// The back-office login that fetches the auth token (authentication.userName).
    #[arg(long, global = true, env = "PAYTOKEN_USERNAME")]
    pub(crate) username: Option<String>,
    /// The merchant's account to book on, where the gateway gave you one
    /// (authentication.accountId).
    #[arg(long, global = true, env = "PAYTOKEN_ACCOUNT_ID")]
    pub(crate) account_id: Option<String>,
    /// The terminal to book on, where the gateway gave you one (authentication.terminalId).
    #[arg(long, global = true, env = "PAYTOKEN_TERMINAL_ID")]
    pub(crate) terminal_id: Option<String>,
    /// A file holding an auth token to use as it is, or PAYTOKEN_AUTH_TOKEN (never a
    /// flag's value, which the process list shows); otherwise one is fetched with
    /// --partner-id and --username.
    #[arg(long, global = true, value_name = "FILE")]
    pub(crate) auth_token_file: Option<PathBuf>,
    /// A file holding the secure key (instead of PAYTOKEN_SECURE_KEY).
    #[arg(long, global = true)]
    pub(crate) secure_key_file: Option<PathBuf>,
    /// Allow a plain http:// base URL that is not a loopback address.
    #[arg(long, global = true)]
    pub(crate) allow_http: bool,
    /// A PEM file of certificate authorities to trust besides the built-in ones (a gateway
    /// whose certificate a private authority signed).
    #[arg(
        long,
        global = true,
        env = "PAYTOKEN_ROOT_CERTIFICATE",
        value_name = "FILE"
    )]
    pub(crate) root_certificate: Option<PathBuf>,
    /// The largest answer read, in bytes (1 MiB for one call; 16 MiB for `cards-and-accounts` and
    /// `invoices`, tens of thousands of entries). No more is read.
    #[arg(long, global = true, value_name = "BYTES")]
    pub(crate) max_answer_bytes: Option<usize>,
    /// Seconds one attempt of a request may take.
    #[arg(long, global = true, value_name = "SECONDS")]
    pub(crate) timeout: Option<u64>,
    /// The ids of the settings above given as flags rather than variables.
    #[arg(skip)]
    pub(crate) from_command_line: Vec<&'static str>,
}

impl GatewayArgs {
    /// The ids of the settings a flag or a variable may give.
    const IDS: [&'static str; 8] = [
        "profile",
        "config_file",
        "base_url",
        "member_id",
        "partner_id",
        "username",
        "account_id",
        "terminal_id",
    ];
}

/// What to do.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run the whole tokenization life cycle against a sandbox started in-process.
    #[command(after_long_help = examples::DEMO)]
    Demo(DemoArgs),
    /// Run the sandbox as a server until interrupted.
    #[command(after_long_help = examples::SANDBOX)]
    Sandbox(SandboxArgs),
    /// Receive notifications, verify each with the secure key, print them, until
    /// interrupted.
    #[command(after_long_help = examples::LISTEN)]
    Listen(ListenArgs),
    /// Sign a customer up.
    #[command(
        name = "customer-signup",
        visible_alias = "signup",
        after_long_help = examples::CUSTOMER_SIGNUP
    )]
    Signup(SignupArgs),
    /// Pay with a card, optionally storing it.
    #[command(after_long_help = examples::PAY)]
    Pay(Box<PayArgs>),
    /// Store a card or a bank account without a payment.
    #[command(after_long_help = examples::REGISTER)]
    Register(Box<RegisterArgs>),
    /// Pay with a stored token.
    #[command(
        name = "pay-with-token",
        visible_alias = "charge",
        after_long_help = examples::PAY_WITH_TOKEN
    )]
    Charge(ChargeArgs),
    /// Delete a stored token.
    #[command(after_long_help = examples::DELETE_TOKEN)]
    DeleteToken {
        /// The stored card or account (registrationId).
        registration_id: String,
    },
    /// The installment counts a token may be charged in.
    #[command(after_long_help = examples::INSTALLMENTS)]
    Installments {
        /// The stored card (registrationId).
        registration_id: String,
    },
    /// The stored cards and bank accounts.
    #[command(
        name = "cards-and-accounts",
        visible_alias = "cards",
        after_long_help = examples::CARDS_AND_ACCOUNTS
    )]
    Cards {
        /// Only this customer's, as `customer-signup` gave it (customer.customerId).
        #[arg(long)]
        customer_id: Option<String>,
    },
    /// The invoice list: one page, or all of it.
    #[command(after_long_help = examples::INVOICES)]
    Invoices(InvoicesArgs),
    /// Fetch an auth token and print it.
    #[command(
        name = "fetch-auth-token",
        visible_alias = "auth-token",
        after_long_help = examples::FETCH_AUTH_TOKEN
    )]
    AuthToken,
    /// Exchange the auth token given (--auth-token-file or PAYTOKEN_AUTH_TOKEN), still
    /// valid, for a fresh one and print it.
    #[command(after_long_help = examples::REGENERATE_AUTH_TOKEN)]
    RegenerateAuthToken,
    /// One transaction's stored state.
    #[command(after_long_help = examples::INQUIRY)]
    Inquiry(InquiryArgs),
    /// Capture all or part of a pre-authorisation.
    #[command(after_long_help = examples::CAPTURE)]
    Capture(MoveArgs),
    /// Refund all or part of a captured or debited payment.
    #[command(after_long_help = examples::REFUND)]
    Refund(MoveArgs),
    /// Cancel (void) a pre-authorisation not yet captured.
    #[command(after_long_help = examples::CANCEL)]
    Cancel {
        /// The pre-authorisation, as the gateway gave it (paymentId).
        payment_id: String,
    },
    /// Charge a recurring series again by its first payment's id (a REPEATED payment).
    #[command(
        name = "repeat-payment",
        visible_alias = "repeat",
        after_long_help = examples::REPEAT_PAYMENT
    )]
    Repeat(RepeatArgs),
    /// The profiles file: list its profiles, or show one.
    #[command(subcommand)]
    Config(ConfigCommand),
    #[command(flatten)]
    Console(ConsoleCommand),
    /// Which gateway and merchant a command would use, and where each setting came from
    /// (flag, environment, profile, default). Sends nothing.
    #[command(after_long_help = examples::WHOAMI)]
    Whoami,
    /// Record the exchanges between your code and a gateway into a cassette: a proxy on
    /// this machine forwards each request and answer unchanged, and writes each exchange
    /// redacted (no key, checksum, token, CVV or whole card number; personal data masked).
    #[command(after_long_help = examples::RECORD)]
    Record(RecordArgs),
    /// Read every answer of a cassette with the parser of its operation, as the client
    /// reads them live: the verdict of each, the shapes unlike the samples, and whether
    /// every one was read. Sends nothing.
    #[command(after_long_help = examples::REPLAY)]
    Replay {
        /// The cassette `paytoken record` wrote.
        #[arg(long = "check", value_name = "CASSETTE")]
        cassette: PathBuf,
    },
    /// Score a client of the interface, in any language, against the conformance kit: it
    /// runs as a child process and answers one JSON message a line on stdin and stdout
    /// (sign this text, build this request, decide this answer, verify this notification).
    #[command(after_long_help = examples::CONFORM)]
    Conform(ConformArgs),
    /// Check the settings and the deployment they name, moving no money: the base URL,
    /// TLS, reachability, the gateway's clock, an auth token, a signed read, an inquiry
    /// that finds nothing, an invoice page, and the answer shapes unlike the samples.
    #[command(after_long_help = examples::DOCTOR)]
    Doctor,
    /// Print a shell's completion script.
    ///
    /// Install it where the shell looks, for example `paytoken completions bash >
    /// ~/.local/share/bash-completion/completions/paytoken`.
    #[command(after_long_help = examples::COMPLETIONS)]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Write a man page per command (paytoken.1, paytoken-pay.1, ...) into a folder.
    #[command(after_long_help = examples::MAN_PAGES)]
    ManPages {
        /// The folder (created when missing; pages already there are replaced).
        #[arg(long, value_name = "DIR", default_value = "man")]
        out: PathBuf,
    },
    /// Write the conformance kit for SDK authors in other languages: request, answer,
    /// checksum and notification vectors, their JSON Schemas, an OpenAPI description and
    /// a reference checker in Python.
    #[command(after_long_help = examples::VECTORS)]
    Vectors(VectorsArgs),
}

/// The commands that act on a running sandbox through its console, at the base URL the
/// connection settings give.
#[derive(Debug, Subcommand)]
pub(crate) enum ConsoleCommand {
    /// A running sandbox's request log: every request it answered, with the operation,
    /// caller, result code and why a refusal was refused (card numbers masked, no keys).
    #[command(subcommand)]
    Logs(LogsCommand),
    /// The notifications (events) a running sandbox sent, and resending one.
    #[command(subcommand)]
    Events(EventsCommand),
    /// A running sandbox's clock: show it, or move it forward (tokens expire, pending
    /// payments settle, late notifications and retries fire).
    #[command(subcommand)]
    Clock(ClockCommand),
    /// Faults for a running sandbox's next requests, whoever sends them.
    #[command(subcommand)]
    Faults(FaultsCommand),
    /// What a running sandbox holds: payments with their captures and refunds, tokens,
    /// customers, invoices.
    #[command(after_long_help = examples::BOOKS)]
    Books,
}

/// `paytoken logs`.
#[derive(Debug, Subcommand)]
pub(crate) enum LogsCommand {
    /// The request log, then each new request as it comes, until Ctrl-C (`--json`: one
    /// JSON object a line).
    #[command(after_long_help = examples::LOGS_TAIL)]
    Tail {
        /// Print what the log holds now, and stop.
        #[arg(long)]
        once: bool,
    },
}

/// `paytoken events`.
#[derive(Debug, Subcommand)]
pub(crate) enum EventsCommand {
    /// Every notification, numbered, with each delivery attempt.
    #[command(after_long_help = examples::EVENTS_LIST)]
    List,
    /// Send a notification again now: one not yet delivered has its pending retries
    /// replaced; a delivered one is delivered again.
    #[command(after_long_help = examples::EVENTS_RESEND)]
    Resend {
        /// The notification's number, as `events list` shows it.
        number: u64,
    },
}

/// `paytoken clock`.
#[derive(Debug, Subcommand)]
pub(crate) enum ClockCommand {
    /// The time on the sandbox's clock, and how far it was moved.
    #[command(after_long_help = examples::CLOCK_SHOW)]
    Show,
    /// Move the clock forward (never back); the move is kept in a state file.
    #[command(after_long_help = examples::CLOCK_ADVANCE)]
    Advance {
        /// How far: whole seconds, minutes, hours or days, such as 90s, 15m, 2h or 3d.
        by: String,
    },
}

/// `paytoken faults`.
#[derive(Debug, Subcommand)]
pub(crate) enum FaultsCommand {
    /// The faults waiting for the next requests.
    #[command(after_long_help = examples::FAULTS_LIST)]
    List,
    /// Fault the next requests that move money (or those `--for` names): `drop=after`
    /// (the payment is made, its answer lost), `status=502`, `latency=2s`,
    /// `body=truncated`, `notify=late`, ...
    #[command(after_long_help = examples::FAULTS_NEXT)]
    Next {
        /// The directives, as the sandbox's fault header takes them.
        directives: String,
        /// How many requests, from 1 to 100.
        #[arg(long, default_value_t = 1)]
        count: u64,
        /// Which requests: `money-moving` (payments, token payments, repeats, captures,
        /// refunds, cancels; not the auth-token fetch before them), `any`, or one
        /// operation as `logs tail` names it (`pay`, `capture`, `inquiry`,
        /// `fetch_auth_token`, ...).
        #[arg(long = "for", value_name = "TARGET", default_value = "money-moving")]
        target: String,
    },
    /// No fault for the next requests after all.
    #[command(after_long_help = examples::FAULTS_CLEAR)]
    Clear,
}

/// `paytoken config`.
#[derive(Debug, Subcommand)]
pub(crate) enum ConfigCommand {
    /// The profiles in the profiles file, the one in use marked.
    #[command(after_long_help = examples::CONFIG_LIST)]
    List,
    /// One profile's settings (the one in use when no name is given); keys are named by
    /// where they are, never shown.
    #[command(after_long_help = examples::CONFIG_SHOW)]
    Show {
        /// The profile.
        name: Option<String>,
    },
}

/// `paytoken vectors`.
#[derive(Debug, Args)]
pub(crate) struct VectorsArgs {
    /// The folder to write the kit into (created when missing; files of the kit already
    /// there are replaced).
    #[arg(long, value_name = "DIR", default_value = "paytoken-conformance")]
    pub(crate) out: PathBuf,
}

/// `paytoken capture` and `paytoken refund`.
#[derive(Debug, Args)]
pub(crate) struct MoveArgs {
    /// The payment's id, as the gateway gave it (paymentId).
    pub(crate) payment_id: String,
    /// How much, with two decimals, such as 50.00 (amount).
    #[arg(long)]
    pub(crate) amount: String,
    /// The payment's currency, three letters, such as EUR (currency).
    #[arg(long)]
    pub(crate) currency: String,
}

/// `paytoken repeat-payment`.
#[derive(Debug, Args)]
pub(crate) struct RepeatArgs {
    /// The series' first payment: an approved INITIAL payment that stored its card
    /// (paymentId).
    pub(crate) first_payment_id: String,
    /// How much, with two decimals, such as 9.99 (amount).
    #[arg(long)]
    pub(crate) amount: String,
    /// Three letters, such as EUR (currency).
    #[arg(long)]
    pub(crate) currency: String,
    /// Take the money now (DB, debit, the default) or only reserve it (PA,
    /// preauthorization) (paymentType).
    #[arg(long = "type", value_enum, default_value = "DB")]
    pub(crate) payment_type: PaymentKind,
    /// Your own order id for this payment; one is made up when left out
    /// (merchantTransactionId).
    #[arg(long)]
    pub(crate) merchant_transaction_id: Option<String>,
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
    /// `platform-observed`, `sandbox-choice`).
    #[arg(long, value_name = "KIND")]
    pub(crate) source: Vec<String>,
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

impl Command {
    /// Whether the command reads a list (cards and accounts, invoices), whose answers may
    /// be far larger than one call's.
    pub(crate) const fn lists(&self) -> bool {
        matches!(self, Self::Cards { .. } | Self::Invoices(_))
    }
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

/// `paytoken customer-signup`.
#[derive(Debug, Args)]
pub(crate) struct SignupArgs {
    /// The customer's first name (customer.givenName).
    #[arg(long)]
    pub(crate) given_name: String,
    /// The customer's last name (customer.surname).
    #[arg(long)]
    pub(crate) surname: String,
    /// The customer's email address (customer.email).
    #[arg(long)]
    pub(crate) email: String,
    /// M or F (customer.sex).
    #[arg(long)]
    pub(crate) sex: Option<String>,
    /// The customer's telephone number (customer.phone).
    #[arg(long)]
    pub(crate) phone: Option<String>,
    /// The customer's date of birth, yyyyMMdd (customer.birthDate).
    #[arg(long)]
    pub(crate) birth_date: Option<String>,
    /// The customer's country, two letters such as DE (shipping.country).
    #[arg(long)]
    pub(crate) country: Option<String>,
    /// The customer's postcode (shipping.postcode).
    #[arg(long)]
    pub(crate) postcode: Option<String>,
}

/// The card of `pay` and `register`.
#[derive(Debug, Args)]
pub(crate) struct CardArgs {
    /// The card number (card.number). Prefer PAYTOKEN_CARD_NUMBER or --card-stdin: a flag
    /// shows in `ps` and the shell history.
    #[arg(long, env = "PAYTOKEN_CARD_NUMBER", hide_env_values = true)]
    pub(crate) card_number: Option<String>,
    /// The month the card expires, 01 to 12 (card.expiryMonth).
    #[arg(long)]
    pub(crate) expiry_month: Option<String>,
    /// The year the card expires, four digits (card.expiryYear).
    #[arg(long)]
    pub(crate) expiry_year: Option<String>,
    /// The three or four digits on the card's back (card.cvv). Prefer PAYTOKEN_CVV or
    /// --card-stdin: a flag shows in `ps` and the shell history.
    #[arg(long, env = "PAYTOKEN_CVV", hide_env_values = true)]
    pub(crate) cvv: Option<String>,
    /// Read the card number, then the CVV, one a line, from standard input (what a flag or
    /// the environment gives wins).
    #[arg(long)]
    pub(crate) card_stdin: bool,
    /// The card's brand, such as VISA or MASTERCARD, told from the number when left out
    /// (a number no brand's range holds is refused: name its brand here); sent as the
    /// platform's code, such as MC (paymentBrand).
    #[arg(long)]
    pub(crate) brand: Option<String>,
    /// How the customer pays: CC, a card, by default (paymentMode).
    #[arg(long)]
    pub(crate) mode: Option<String>,
}

/// The customer and shipping flags of `pay` and `register`.
#[derive(Debug, Args)]
pub(crate) struct PersonArgs {
    /// The customer's first name (customer.givenName).
    #[arg(long)]
    pub(crate) given_name: Option<String>,
    /// The customer's last name (customer.surname).
    #[arg(long)]
    pub(crate) surname: Option<String>,
    /// The customer's email address (customer.email).
    #[arg(long)]
    pub(crate) email: Option<String>,
    /// The customer's telephone number (customer.phone).
    #[arg(long)]
    pub(crate) phone: Option<String>,
    /// The telephone number's country code, such as +49 (customer.telnocc).
    #[arg(long)]
    pub(crate) telnocc: Option<String>,
    /// The IP address the customer pays from (customer.ip).
    #[arg(long)]
    pub(crate) ip: Option<String>,
    /// The customer's date of birth, yyyyMMdd (customer.birthDate).
    #[arg(long)]
    pub(crate) birth_date: Option<String>,
    /// The country to ship to, two letters such as DE (shipping.country).
    #[arg(long)]
    pub(crate) country: Option<String>,
    /// The city to ship to (shipping.city).
    #[arg(long)]
    pub(crate) city: Option<String>,
    /// The state or region to ship to (shipping.state).
    #[arg(long)]
    pub(crate) state: Option<String>,
    /// The postcode to ship to (shipping.postcode).
    #[arg(long)]
    pub(crate) postcode: Option<String>,
    /// The street to ship to (shipping.street1).
    #[arg(long)]
    pub(crate) street: Option<String>,
}

/// `paytoken pay`.
#[derive(Debug, Args)]
pub(crate) struct PayArgs {
    /// How much, with two decimals, such as 50.00 (amount).
    #[arg(long)]
    pub(crate) amount: String,
    /// Three letters, such as EUR (currency).
    #[arg(long)]
    pub(crate) currency: String,
    /// Your own order id for this payment, free text (spaces, hyphens, slashes, UUIDs),
    /// up to 255 characters; `inquiry` finds the payment by it (merchantTransactionId).
    #[arg(long)]
    pub(crate) merchant_transaction_id: String,
    #[command(flatten)]
    pub(crate) card: CardArgs,
    /// Take the money now (DB, debit, the default) or only reserve it for a later
    /// `capture` (PA, preauthorization) (paymentType).
    #[arg(long = "type", value_enum, default_value = "DB")]
    pub(crate) payment_type: PaymentKind,
    /// Keep the card as a token for later payments (createRegistration=true), as the
    /// library's `Payment::store_card` does.
    #[arg(long, visible_alias = "register")]
    pub(crate) store_card: bool,
    /// Open a recurring series, charged again with `repeat-payment` or
    /// `pay-with-token --recurring repeated` (recurringType=INITIAL).
    #[arg(long, value_enum)]
    pub(crate) recurring: Option<FirstOfSeries>,
    /// The customer, as `customer-signup` gave it (customer.customerId).
    #[arg(long)]
    pub(crate) customer_id: Option<String>,
    /// The name on the card (card.holder).
    #[arg(long)]
    pub(crate) holder: Option<String>,
    /// Where the gateway posts the outcome when it comes later (3-D Secure, pending),
    /// such as the address of `paytoken listen` (notificationUrl).
    #[arg(long, value_name = "URL")]
    pub(crate) notification_url: Option<String>,
    /// Where the cardholder's browser returns after 3-D Secure (merchantRedirectUrl).
    #[arg(long, value_name = "URL")]
    pub(crate) redirect_url: Option<String>,
    #[command(flatten)]
    pub(crate) person: PersonArgs,
}

/// `paytoken register`.
#[derive(Debug, Args)]
pub(crate) struct RegisterArgs {
    #[command(flatten)]
    pub(crate) card: CardArgs,
    /// A bank account to store instead of a card (bankAccount.iban).
    #[arg(long, conflicts_with_all = ["card_number", "expiry_month", "expiry_year", "cvv"], requires = "bic")]
    pub(crate) iban: Option<String>,
    /// The bank account's BIC, with --iban (bankAccount.bic).
    #[arg(long, requires = "iban")]
    pub(crate) bic: Option<String>,
    /// The customer, as `customer-signup` gave it (customer.customerId).
    #[arg(long)]
    pub(crate) customer_id: Option<String>,
    #[command(flatten)]
    pub(crate) person: PersonArgs,
}

/// `paytoken pay-with-token`.
#[derive(Debug, Args)]
pub(crate) struct ChargeArgs {
    /// The stored card or account, as `pay --store-card` or `register` gave it
    /// (registrationId).
    pub(crate) registration_id: String,
    /// How much, with two decimals, such as 50.00 (amount).
    #[arg(long)]
    pub(crate) amount: String,
    /// Three letters, such as EUR (currency).
    #[arg(long)]
    pub(crate) currency: String,
    /// Take the money now (DB, debit, the default) or only reserve it (PA,
    /// preauthorization) (paymentType).
    #[arg(long = "type", value_enum, default_value = "DB")]
    pub(crate) payment_type: PaymentKind,
    /// The first payment of a recurring series (initial) or a later one (repeated)
    /// (recurringType).
    #[arg(long, value_enum)]
    pub(crate) recurring: Option<Recurring>,
    /// Pay in this many instalments, one of the counts `installments` lists
    /// (installment).
    #[arg(long)]
    pub(crate) installment: Option<u16>,
    /// The card's three or four digits, where the gateway asks for them again (card.cvv).
    /// Prefer PAYTOKEN_CVV: a flag shows in `ps` and the shell history.
    #[arg(long, env = "PAYTOKEN_CVV", hide_env_values = true)]
    pub(crate) cvv: Option<String>,
    /// Your own order id for this payment; one is made up when left out
    /// (merchantTransactionId).
    #[arg(long)]
    pub(crate) merchant_transaction_id: Option<String>,
}

/// `paytoken invoices`.
#[derive(Debug, Args)]
pub(crate) struct InvoicesArgs {
    /// The page to fetch, from 1 (page).
    #[arg(long, conflicts_with = "all")]
    pub(crate) page: Option<u32>,
    /// Invoices per page (records).
    #[arg(long, default_value_t = 100)]
    pub(crate) records: u32,
    /// Every page from the first until a short or empty one, printed as each arrives
    /// (with --json: one invoice a line, then a summary line).
    #[arg(long)]
    pub(crate) all: bool,
    /// With --all: stop with an error after this many pages (a list that never ends).
    #[arg(long, default_value_t = 1000, requires = "all")]
    pub(crate) max_pages: u32,
}

/// `paytoken inquiry`.
#[derive(Debug, Args)]
pub(crate) struct InquiryArgs {
    /// The payment's id, as the gateway gave it (paymentId, idType=PID).
    #[arg(required_unless_present = "merchant_transaction_id")]
    pub(crate) payment_id: Option<String>,
    /// Your own order id of the payment instead, as you sent it (merchantTransactionId,
    /// idType=MID).
    #[arg(long, conflicts_with = "payment_id")]
    pub(crate) merchant_transaction_id: Option<String>,
}

/// `--type`: what a payment does with the money.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum PaymentKind {
    /// A debit.
    #[value(name = "DB", alias = "debit")]
    Debit,
    /// A pre-authorisation.
    #[value(name = "PA", alias = "preauthorization")]
    PreAuthorization,
}

impl From<PaymentKind> for PaymentType {
    fn from(kind: PaymentKind) -> Self {
        match kind {
            PaymentKind::Debit => Self::Debit,
            PaymentKind::PreAuthorization => Self::PreAuthorization,
        }
    }
}

/// `--recurring` of a card payment, which can only open a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FirstOfSeries {
    /// The first payment of a series.
    Initial,
}

impl From<FirstOfSeries> for RecurringType {
    fn from(FirstOfSeries::Initial: FirstOfSeries) -> Self {
        Self::Initial
    }
}

/// `--recurring` of a token payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Recurring {
    /// The first payment of a series.
    Initial,
    /// A later payment of the series.
    Repeated,
}

impl From<Recurring> for RecurringType {
    fn from(recurring: Recurring) -> Self {
        match recurring {
            Recurring::Initial => Self::Initial,
            Recurring::Repeated => Self::Repeated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_are_whole_milliseconds_or_seconds_within_bounds() {
        assert_eq!(duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(duration("3s"), Ok(Duration::from_secs(3)));
        assert_eq!(duration("300s"), Ok(Duration::from_secs(300)));
        for bad in [
            "",
            "s",
            "ms",
            "0s",
            "301s",
            "1.5s",
            "-1s",
            "3",
            "3m",
            "+3s",
            "18446744073709551615s",
        ] {
            assert!(duration(bad).is_err(), "{bad}");
        }
        assert_eq!(duration_or_zero("0s"), Ok(Duration::ZERO));
        assert_eq!(duration_or_zero("300s"), Ok(Duration::from_secs(300)));
        assert!(duration_or_zero("301s").is_err());
    }
}
