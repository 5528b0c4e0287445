//! `paytoken sandbox`: the sandbox as a server, until interrupted. Its first line on stdout
//! is the JSON a script needs to call it.
use paytoken_sandbox::{
    Faults, MerchantConfig, NotificationPolicy, NotificationTargets, Sandbox, SandboxBuilder,
    SandboxConfig,
};
use serde_json::{Value, json};

use crate::answers_like;
use crate::cli::{BrokenBody, DropAt, GatewayArgs, SandboxArgs};
use crate::profile::{self, Profile};
use crate::report::{self, Exit, Failure, Outcome, Report};
use crate::settings;
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
    let mut first = json!({
        "operation": "sandbox",
        "outcome": Outcome::Ok.name(),
        "baseUrl": base_url,
        "console": format!("{base_url}{}", paytoken_sandbox::CONSOLE_PREFIX),
        "dashboardUrl": format!("{base_url}{}", paytoken_sandbox::DASHBOARD_PATH),
    });
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

/// The sandbox the flags ask for, not yet started, and what its first line says of the
/// cassette it answers like.
fn builder(args: &SandboxArgs) -> Result<(SandboxBuilder, Option<Value>), Failure> {
    let config = match &args.config {
        Some(path) => SandboxConfig::from_file(path)
            // The cause (too large, not found) is the part a user acts on.
            .map_err(|error| Failure::usage(report::with_causes(&error)))?,
        None => SandboxConfig::default(),
    };
    let mut builder = Sandbox::builder()
        .config(config)
        .faults(faults(args)?)
        .address(args.addr)
        .notifications(notifications(args));
    if let Some(seed) = args.vary_answers {
        builder = builder.vary_answers(seed);
    }
    let mut answers_like = None;
    if let Some(cassette) = &args.answers_like {
        let learned = answers_like::learn(cassette)?;
        builder = builder.answers_like(&learned.shapes);
        answers_like = Some(learned.summary(cassette));
    }
    if let Some(deadline) = args.request_deadline {
        builder = builder.request_deadline(deadline);
    }
    if let Some(after) = args.settle_pending_after {
        builder = builder.pending_settles_after(Some(after));
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
    if let Some(path) = &args.state {
        builder = builder.state_file(path);
    }
    if args.explain {
        builder = builder.explain(|line| {
            terminal::err_line(&format!("paytoken sandbox: explain: {line}"));
        });
    }
    Ok((builder, answers_like))
}

/// Where notifications may go, and how long an attempt may take.
fn notifications(args: &SandboxArgs) -> NotificationPolicy {
    let mut notifications = NotificationPolicy::default();
    if args.notify_anywhere {
        notifications.targets = NotificationTargets::Anywhere;
    }
    if let Some(timeout) = args.notify_timeout {
        notifications.attempt_timeout = timeout;
    }
    notifications
}

/// Saves the sandbox's address and first merchant as the profile `name`, and says so on
/// stderr.
fn write_profile(sandbox: &Sandbox, name: &str, gateway: &GatewayArgs) -> Result<(), Failure> {
    let Some((path, _)) = settings::config_file(gateway) else {
        return Err(Failure::usage(
            "--write-profile: no config folder: set XDG_CONFIG_HOME or HOME, or give --config-file",
        ));
    };
    let config = sandbox.config();
    let Some((partner, merchant)) = config
        .partners
        .iter()
        .find_map(|partner| Some((partner, partner.merchants.first()?)))
    else {
        return Err(Failure::usage(
            "--write-profile: the sandbox has no merchant",
        ));
    };
    let mut profile = Profile::default();
    let settings = [
        ("base_url", Some(sandbox.base_url().to_owned())),
        ("member_id", Some(merchant.member_id.as_str().to_owned())),
        ("partner_id", Some(partner.partner_id.as_str().to_owned())),
        ("username", Some(merchant.username.as_str().to_owned())),
        ("account_id", merchant.account_id.map(|id| id.to_string())),
        ("terminal_id", merchant.terminal_id.map(|id| id.to_string())),
    ];
    for (key, value) in settings {
        if let Some(value) = value {
            profile.settings.insert(key, value);
        }
    }
    let key = profile::write(&path, name, profile, merchant.secure_key.expose_secret())?;
    terminal::err_line(&format!(
        "paytoken sandbox: profile {name} saved in {} (its key in {}): try `paytoken --profile {name} whoami`",
        path.display(),
        key.display()
    ));
    Ok(())
}

/// Runs the sandbox until Ctrl-C (or SIGTERM's default), then shuts it down.
pub(crate) async fn run(args: &SandboxArgs, gateway: &GatewayArgs) -> Result<Report, Failure> {
    let (builder, answers_like) = builder(args)?;
    let sandbox = builder.start().await.map_err(|error| match error {
        // A state file it cannot use is the user's to fix, as a bad flag is.
        paytoken_sandbox::Error::State { .. } => Failure::usage(report::with_causes(&error)),
        _ => Failure::failed(report::with_causes(&error)),
    })?;
    if let Some(Err(failure)) = args
        .write_profile
        .as_ref()
        .map(|name| write_profile(&sandbox, name, gateway))
    {
        sandbox.shutdown().await;
        return Err(failure);
    }
    let mut first = announcement(sandbox.base_url(), sandbox.config());
    if let (Some(object), Some(summary)) = (first.as_object_mut(), answers_like) {
        object.insert("answersLike".into(), summary);
    }
    let announced = terminal::out(&format!("{first}\n"));
    if let Err(unwritten) = announced {
        // Nobody reads the credentials line: serving on would be serving blind.
        sandbox.shutdown().await;
        return match unwritten {
            terminal::Unwritten::Closed => Err(Failure::failed("standard output is closed")),
            failed @ terminal::Unwritten::Failed(_) => Ok(failed.into()),
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
    Ok(Report {
        exit: Exit::Success,
        json: Value::Null,
        human: String::new(),
        error_line: None,
    })
}
