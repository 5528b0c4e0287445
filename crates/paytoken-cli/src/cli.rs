//! The command line: global options, and one subcommand per job.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use paytoken::{CustomerId, PaymentId, RegistrationId, environment};

use crate::examples;
use crate::profile::SETTINGS;

mod calls;
mod console;
mod local;

pub(crate) use calls::{
    CardArgs, ChargeArgs, InquiryArgs, InvoicesArgs, MoneyArgs, MoveArgs, PayArgs, PersonArgs,
    RegisterArgs, RepeatArgs, SignupArgs,
};
pub(crate) use console::{
    ClockCommand, ConfigCommand, ConsoleCommand, EventsCommand, FaultsCommand, LogsCommand,
};
pub(crate) use local::{
    BrokenBody, ConformArgs, DemoArgs, DropAt, ListenArgs, RecordArgs, SandboxArgs, VectorsArgs,
};

/// paytoken: the demo, the sandbox, and every operation of the card-tokenization gateway.
#[derive(Debug, Parser)]
#[command(name = "paytoken", version, about, max_term_width = 100)]
pub(crate) struct Cli {
    /// Print JSON on stdout: exactly one object, errors included (a listing that streams
    /// prints one item a line, then its summary or the error).
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
    let ids = ["profile", "config_file"]
        .into_iter()
        .chain(SETTINGS.map(|(id, ..)| id));
    cli.gateway.from_command_line = ids
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
    #[arg(long, global = true, env = environment::BASE_URL)]
    pub(crate) base_url: Option<String>,
    /// Your merchant account at the gateway (authentication.memberId).
    #[arg(long, global = true, env = environment::MEMBER_ID)]
    pub(crate) member_id: Option<String>,
    /// The partner the merchant belongs to, or the caller itself without --member-id
    /// (authentication.partnerId).
    #[arg(long, global = true, env = environment::PARTNER_ID)]
    pub(crate) partner_id: Option<String>,
    /// The back-office login that fetches the auth token (authentication.userName).
    #[arg(long, global = true, env = environment::USERNAME)]
    pub(crate) username: Option<String>,
    /// The merchant's account to book on, where the gateway gave you one
    /// (authentication.accountId).
    #[arg(long, global = true, env = environment::ACCOUNT_ID)]
    pub(crate) account_id: Option<String>,
    /// The terminal to book on, where the gateway gave you one (authentication.terminalId).
    #[arg(long, global = true, env = environment::TERMINAL_ID)]
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
        env = environment::ROOT_CERTIFICATE,
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
        registration_id: RegistrationId,
    },
    /// The installment counts a token may be charged in.
    #[command(after_long_help = examples::INSTALLMENTS)]
    Installments {
        /// The stored card (registrationId).
        registration_id: RegistrationId,
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
        customer_id: Option<CustomerId>,
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
        payment_id: PaymentId,
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

impl Command {
    /// Whether the command reads a list (cards and accounts, invoices), whose answers may
    /// be far larger than one call's.
    pub(crate) const fn lists(&self) -> bool {
        matches!(self, Self::Cards { .. } | Self::Invoices(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// clap's attributes name each setting's flag and variable again: they must be the
    /// ones `whoami` reports.
    #[test]
    fn each_setting_s_flag_and_variable_are_the_command_line_s() {
        let command = command();
        for (id, flag, variable) in SETTINGS {
            let arg = command
                .get_arguments()
                .find(|arg| arg.get_id() == id)
                .unwrap();
            assert_eq!(
                arg.get_long().map(|long| format!("--{long}")).as_deref(),
                Some(flag)
            );
            assert_eq!(arg.get_env(), Some(std::ffi::OsStr::new(variable)), "{id}");
        }
    }
}
