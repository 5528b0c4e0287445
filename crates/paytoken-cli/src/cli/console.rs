//! The subcommands of a running sandbox's console (`logs`, `events`, `clock`, `faults`,
//! `books`) and of the profiles file (`config`).

use clap::Subcommand;

use crate::examples;

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
