//! # paytoken-cli
//!
//! The `paytoken` command: `paytoken demo` runs the whole tokenization life cycle against
//! a sandbox in-process; `paytoken sandbox` serves the sandbox; every other subcommand
//! calls one operation of a gateway, like the Stripe CLI, with its connection from flags,
//! `PAYTOKEN_*` variables or a profile (`--profile`, `whoami`, `config`); `doctor` checks
//! those settings and the deployment they name, moving no money; `record` keeps a
//! deployment's exchanges in a redacted cassette and `replay --check` reads its answers
//! again; `conform` scores a client in any language against the conformance kit;
//! `completions` and `man-pages` describe the command to a shell and to `man`.
//!
//! **Layer:** the top. It uses the `paytoken` facade (the client) and `paytoken-sandbox`;
//! only the workspace's tests depend on it, for its life-cycle script.
//!
//! ```text
//! cargo run -p paytoken-cli -- demo
//! PAYTOKEN_SECURE_KEY=... paytoken --base-url https://gw.example --member-id 11344 \
//!     --partner-id 100 --username shop.admin cards-and-accounts --json
//! paytoken sandbox --write-profile local     # in one shell; in another:
//! paytoken --profile local whoami
//! ```
//!
//! With `--json` every object names its `operation` and an `outcome`, whose word decides
//! the exit code (README's table of outcomes, which the tests hold every run to). A closed
//! standard output (`| head`) ends the command quietly, with the code of what was done.
//! Each command's shape is a JSON Schema in `schemas/` (`conform`'s report: the kit's).
//!
//! ## The library half
//!
//! The command is built as a library with a thin `main`, so that its life-cycle script,
//! [`life_cycle`], serves both `paytoken demo` and the workspace's end-to-end tests: one
//! script of steps, told once. Its only other public item is [`main`], the command itself.
//!
//! ```no_run
//! # async fn example(client: paytoken::Client, fetch: paytoken::ops::auth_token::FetchAuthToken, key: paytoken::SecureKey) {
//! // With the merchant's secure key, the script ends with 3-D Secure and its notification.
//! let run = paytoken_cli::life_cycle::run(&client, fetch, Some(key)).await;
//! assert!(run.all_ok(), "{:?}", run.steps);
//! # }
//! ```
//!
//! ## Features
//! - `simulation`: exposes `simulation::Relay`, `listen --forward-to`'s relay in the
//!   caller's process, for `paytoken-sim`, and the defect it plants in it (compiled only
//!   with this feature).

#![forbid(unsafe_code)]

mod answers_like;
mod bounded;
mod cli;
mod config;
mod config_command;
mod conform;
mod connection;
mod console;
mod demo;
mod doctor;
mod durations;
mod examples;
pub mod life_cycle;
mod limits;
mod listen;
mod listing;
mod local_server;
mod manual;
mod operations;
mod profile;
mod record;
mod render;
mod replay;
mod report;
mod serve;
mod settings;
mod shapes;
#[cfg(feature = "simulation")]
pub mod simulation;
mod terminal;
mod vectors;

use std::process::ExitCode;

use clap::error::ErrorKind;

use crate::cli::Command;
use paytoken::OperationKind;

use crate::report::{Exit, Failure, Report};

/// The `paytoken` command: reads its arguments, runs what they ask, prints the report
/// and returns the exit code.
#[must_use]
pub fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // `--json` is global, before or after the subcommand; when the line does not parse,
    // it is looked for by hand, so that even a usage error comes out as JSON.
    let json = args.iter().skip(1).any(|arg| arg == "--json");
    let cli = match cli::parse(&args) {
        Ok(cli) => cli,
        Err(error) => return usage(&error, json, &cli::operation_named(&args)),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            return Report::from(Failure::failed(format!("cannot start tokio: {error}")))
                .print(cli.json, &cli.operation);
        }
    };
    let report = runtime.block_on(run(cli.command, &cli.gateway, cli.json));
    // A report with nothing left to print (the sandbox server printed its own line, or the
    // reader went away) prints nothing but its stderr line, if any.
    report.print(cli.json, &cli.operation)
}

async fn run(command: Command, gateway: &cli::GatewayArgs, json: bool) -> Report {
    let report = match command {
        Command::Demo(args) => demo::run(&args).await,
        Command::Sandbox(args) => serve::run(&args, gateway).await,
        Command::Listen(args) => listen::run(&args, gateway, json).await,
        Command::Vectors(args) => vectors::run(&args),
        Command::Completions { shell } => Ok(manual::completions(shell)),
        Command::ManPages { out } => manual::man_pages(&out),
        Command::Whoami => config_command::whoami(gateway),
        Command::Doctor => doctor::run(gateway).await,
        Command::Record(args) => record::run(&args, gateway, json).await,
        Command::Replay { cassette } => replay::run(&cassette),
        Command::Conform(args) => conform::run(&args),
        Command::Config(command) => config_command::config(&command, gateway),
        Command::Console(command) => console::run(&command, gateway, json).await,
        operation => call(operation, gateway, json).await,
    };
    report.unwrap_or_else(Report::from)
}

/// Runs an operation of the gateway with the resolved settings.
async fn call(
    operation: Command,
    gateway: &cli::GatewayArgs,
    json: bool,
) -> Result<Report, Failure> {
    let settings = settings::Settings::resolve(gateway)?;
    match operation {
        Command::AuthToken => grant(OperationKind::AuthToken, gateway, &settings).await,
        Command::RegenerateAuthToken => {
            grant(OperationKind::RegenerateAuthToken, gateway, &settings).await
        }
        operation => {
            let client = config::client(gateway, &settings, operation.lists())?;
            Ok(operations::run(&client, operation, json).await)
        }
    }
}

/// Fetches (`AuthToken`) or regenerates an auth token, and reports the grant.
async fn grant(
    kind: OperationKind,
    gateway: &cli::GatewayArgs,
    settings: &settings::Settings,
) -> Result<Report, Failure> {
    let client = config::client(gateway, settings, false)?;
    let answer = if kind == OperationKind::AuthToken {
        let fetch = config::token_request(settings)?;
        client.fetch_auth_token(&fetch).await
    } else {
        let regenerate = config::regenerate_request(gateway, settings)?;
        client.regenerate_auth_token(&regenerate).await
    };
    let grant = answer.map_err(|error| Failure::from_error(kind, &error))?;
    Ok(operations::ok_report(kind, render::grant(&grant)))
}

/// A command line that does not parse: clap's own help and version go out as they are;
/// anything else is a usage error, exit 2: clap's message on stderr, or with `--json` the
/// JSON object on stdout and one line on stderr. A value the line held (a card number typed
/// in the wrong place) is masked as error excerpts are.
fn usage(error: &clap::Error, json: bool, operation: &str) -> ExitCode {
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        // A closed standard output is a quiet success, as for every command.
        return match terminal::out(&error.to_string()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(unwritten) => Report::from(unwritten).print(json, operation),
        };
    }
    let message: String = refused_value(error)
        .unwrap_or_else(|| error.to_string())
        .lines()
        .map(|line| paytoken::protocol::redact::redact(line, 4096) + "\n")
        .collect();
    if !json {
        terminal::err(&message);
        return Exit::Usage.into();
    }
    Report::from(Failure::usage(summary(&message))).print(json, operation)
}

/// A value a flag's type refused (`--amount 1.5x`), said as [`config::refused`] says it:
/// clap's own message would quote the value whole, however long.
fn refused_value(error: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let (Some(ContextValue::String(arg)), Some(ContextValue::String(value))) = (
        error.get(ContextKind::InvalidArg),
        error.get(ContextKind::InvalidValue),
    ) else {
        return None;
    };
    let flag = arg.split_whitespace().next().unwrap_or(arg);
    let why = std::error::Error::source(error)?;
    Some(format!("error: {}", config::refused(flag, value, why)))
}

/// clap's message on one line: its first line with the lines that belong to it (the
/// missing flags, the offending value), up to the usage line or a blank one.
fn summary(message: &str) -> String {
    let mut lines = message
        .lines()
        .take_while(|line| !line.trim().is_empty() && !line.starts_with("Usage:"));
    let first = lines
        .next()
        .unwrap_or("invalid command line")
        .trim_start_matches("error: ")
        .trim_end_matches(':');
    let rest: Vec<&str> = lines.map(str::trim).collect();
    if rest.is_empty() {
        first.to_owned()
    } else {
        format!("{first}: {}", rest.join(", "))
    }
}
