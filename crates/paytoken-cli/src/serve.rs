//! `paytoken sandbox`: the sandbox as a server, until interrupted. Its first line on stdout
//! is the JSON a script needs to call it.

use paytoken_sandbox::{
    Faults, MerchantConfig, NotificationPolicy, NotificationTargets, Sandbox, SandboxConfig,
};
use serde_json::{Value, json};

use crate::cli::{BrokenBody, DropAt, SandboxArgs};
use crate::report::{self, Exit, Failure, Report};
use crate::terminal;

/// The fault directives of the flags, as the sandbox reads them.
fn faults(args: &SandboxArgs) -> Result<Faults, Failure> {
    let mut directives = Vec::new();
    if let Some(latency) = &args.latency {
        directives.push(format!("latency={latency}"));
    }
    if let Some(stall) = &args.stall {
        directives.push(format!("stall={stall}"));
    }
    if let Some(drop) = args.drop {
        directives.push(match drop {
            DropAt::Before => "drop=before".to_owned(),
            DropAt::After => "drop=after".to_owned(),
        });
    }
    if let Some(status) = &args.status {
        directives.push(format!("status={status}"));
    }
    if let Some(body) = args.body {
        directives.push(
            match body {
                BrokenBody::Malformed => "body=malformed",
                BrokenBody::Truncated => "body=truncated",
                BrokenBody::Oversized => "body=oversized",
            }
            .to_owned(),
        );
    }
    if directives.is_empty() {
        return Ok(Faults::NONE);
    }
    Faults::parse(&directives.join(", ")).map_err(|error| Failure::usage(error.to_string()))
}

fn merchant(merchant: &MerchantConfig) -> Value {
    json!({
        "memberId": merchant.member_id.as_str(),
        "username": merchant.username.as_str(),
        // Sandbox credentials, made to be printed.
        "secureKey": merchant.secure_key.expose_secret(),
        "accountId": merchant.account_id.map(|id| id.to_string()),
        "terminalId": merchant.terminal_id.map(|id| id.to_string()),
    })
}

/// The first line: where the sandbox is and the credentials of its merchants.
fn announcement(base_url: &str, config: &SandboxConfig) -> Value {
    let mut first = json!({ "baseUrl": base_url });
    let merchants: Vec<(&str, &MerchantConfig)> = config
        .partners
        .iter()
        .flat_map(|partner| {
            partner
                .merchants
                .iter()
                .map(move |m| (partner.partner_id.as_str(), m))
        })
        .collect();
    if let (Some(object), Some((partner_id, first_merchant))) =
        (first.as_object_mut(), merchants.first())
    {
        object.insert("partnerId".into(), (*partner_id).into());
        if let Some(fields) = merchant(first_merchant).as_object() {
            object.extend(fields.clone());
        }
    }
    if let Some(object) = first.as_object_mut() {
        let list: Vec<Value> = merchants.iter().map(|(_, m)| merchant(m)).collect();
        object.insert("merchants".into(), list.into());
    }
    first
}

/// Runs the sandbox until Ctrl-C (or SIGTERM's default), then shuts it down.
pub(crate) async fn run(args: &SandboxArgs) -> Report {
    let config = match &args.config {
        Some(path) => match SandboxConfig::from_file(path) {
            Ok(config) => config,
            // The cause (too large, not found) is the part a user acts on.
            Err(error) => return Report::from(Failure::usage(report::with_causes(&error))),
        },
        None => SandboxConfig::default(),
    };
    let faults = match faults(args) {
        Ok(faults) => faults,
        Err(failure) => return Report::from(failure),
    };
    let mut builder = Sandbox::builder()
        .config(config)
        .faults(faults)
        .address(args.addr);
    if let Some(seed) = args.vary_answers {
        builder = builder.vary_answers(seed);
    }
    if let Some(deadline) = &args.request_deadline {
        match Faults::parse(&format!("latency={deadline}")).map(|faults| faults.latency) {
            Ok(Some(deadline)) if !deadline.is_zero() => {
                builder = builder.request_deadline(deadline);
            }
            _ => {
                return Report::from(Failure::usage(
                    "--request-deadline: a duration such as 30s or 500ms, above zero and at most 300s",
                ));
            }
        }
    }
    if let Some(max) = args.max_connections {
        builder = builder.max_connections(max);
    }
    if let Some(max) = args.max_records {
        builder = builder.max_records(max);
    }
    if let Some(max) = args.max_tokens {
        builder = builder.max_tokens(max);
    }
    if let Some(after) = &args.settle_pending_after {
        match Faults::parse(&format!("latency={after}")).map(|faults| faults.latency) {
            Ok(Some(after)) => builder = builder.pending_settles_after(Some(after)),
            _ => {
                return Report::from(Failure::usage(
                    "--settle-pending-after: a duration such as 10s or 500ms, at most 300s",
                ));
            }
        }
    }
    if let Some(path) = &args.state {
        builder = builder.state_file(path);
    }
    if args.explain {
        builder = builder.explain(|line| {
            terminal::err_line(&format!("paytoken sandbox: explain: {line}"));
        });
    }
    let mut notifications = NotificationPolicy::default();
    if args.notify_anywhere {
        notifications.targets = NotificationTargets::Anywhere;
    }
    if let Some(timeout) = args.notify_timeout {
        notifications.attempt_timeout = timeout;
    }
    builder = builder.notifications(notifications);
    let sandbox = match builder.start().await {
        Ok(sandbox) => sandbox,
        // A state file it cannot use is the user's to fix, as a bad flag is.
        Err(error @ paytoken_sandbox::Error::State { .. }) => {
            return Report::from(Failure::usage(error.to_string()));
        }
        Err(error) => return Report::from(Failure::failed(report::with_causes(&error))),
    };
    let announced = terminal::out(&format!(
        "{}\n",
        announcement(sandbox.base_url(), sandbox.config())
    ));
    if let Err(unwritten) = announced {
        // Nobody reads the credentials line: serving on would be serving blind.
        sandbox.shutdown().await;
        return match unwritten {
            terminal::Unwritten::Closed => {
                Report::from(Failure::failed("standard output is closed"))
            }
            terminal::Unwritten::Failed(error) => Report::unwritten(&error),
        };
    }
    if !sandbox.address().ip().is_loopback() {
        terminal::err_line(&format!(
            "paytoken sandbox: warning: listening on {} beyond loopback: anyone who can reach it gets the sandbox's well-known keys and test data",
            sandbox.address()
        ));
    }
    let _ = tokio::signal::ctrl_c().await;
    sandbox.shutdown().await;
    Report {
        exit: Exit::Success,
        json: Value::Null,
        human: String::new(),
        error_line: None,
    }
}
