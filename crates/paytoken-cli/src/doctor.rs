//! `paytoken doctor`: checks the settings and the deployment they name, and moves no
//! money. Each check ([`GATEWAY_CHECKS`], after `settings` and `base_url`; what each does:
//! docs/COMMAND.md, "Your deployment") is a line with a verdict (`pass`, `fail`,
//! `skipped`) and, when it fails, what to do; the checks a failure makes pointless are
//! skipped.
//!
//! The calls are the client's, as every command makes them, over one connection opened
//! step by step (`connection.rs`), so that a failure names its step: the client's
//! transport is that connection (`connection::Link`), and it sends nothing twice.

mod caller;
mod check;

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use paytoken::ops::auth_token::FetchAuthToken;
use paytoken::ops::cards_and_accounts::CardsAndAccounts;
use paytoken::ops::inquiry::Inquiry;
use paytoken::ops::invoice_list::InvoiceList;
use paytoken::protocol::OperationKind;
use paytoken::{BaseUrl, CodeFamily, MerchantTransactionId, RetryPolicy, Username};

use self::caller::{Caller, Failed};
use self::check::{Check, Seen, Verdict, report};
use crate::cli::GatewayArgs;
use crate::config;
use crate::config_command::describe;
use crate::connection::{self, Link, OpenError, Upstream, seconds};
use crate::limits;
use crate::report::{Failure, Report};
use crate::settings::Settings;

/// The most the two clocks may differ before the check fails: the `Date` header counts
/// whole seconds, and a minute is far below anything that matters to an hour's token.
const CLOCK_TOLERANCE: Duration = Duration::from_secs(60);

/// Every gateway check not made yet, skipped for `why`: the ones a failure made pointless.
fn skip_the_rest(checks: &mut Vec<Check>, why: &str) {
    for name in GATEWAY_CHECKS {
        if !checks.iter().any(|check| check.name == name) {
            checks.push(Check::skipped(name, why));
        }
    }
}

/// The checks that talk to the gateway, in the order they are made.
const GATEWAY_CHECKS: [&str; 8] = [
    "reachable",
    "tls",
    "auth_token",
    "clock",
    "signed_read",
    "inquiry",
    "invoices",
    "answer_shapes",
];

/// `paytoken doctor`.
pub(crate) async fn run(args: &GatewayArgs) -> Result<Report, Failure> {
    config::check_bounds(args)?;
    let settings = Settings::resolve(args)?;
    let described = describe(&settings);
    let signing = signing(args, &settings);
    let settings_check = settings_check(
        &settings,
        described.key_problem.as_deref(),
        signing.as_ref().err().map(String::as_str),
    );
    let settings_failed = settings_check.verdict == Verdict::Fail;
    let mut checks = vec![settings_check];
    let mut seen = Vec::new();
    match (signing, config::base_url(args, &settings)) {
        _ if settings_failed => {
            checks.push(Check::skipped("base_url", "the settings are incomplete"));
            skip_the_rest(&mut checks, "the settings are incomplete");
        }
        (_, Err(failure)) => {
            checks.push(Check::fail(
                "base_url",
                failure.message(),
                "use the gateway's https:// URL; plain http is for a sandbox on this machine",
            ));
            skip_the_rest(&mut checks, "the base URL is refused");
        }
        (Ok(signing), Ok(base_url)) => {
            checks.push(Check::pass("base_url", summary(&base_url)));
            gateway_checks(args, &settings, base_url, signing, &mut checks, &mut seen).await;
        }
        // A signing problem failed the settings check above.
        (Err(_), Ok(_)) => {}
    }
    Ok(report(&checks, &seen, described.json))
}

/// What the settings check finds: a caller, a base URL, a key that reads, and settings
/// that make a signing context (`signing_problem`).
fn settings_check(
    settings: &Settings,
    key_problem: Option<&str>,
    signing_problem: Option<&str>,
) -> Check {
    let caller = match (&settings.member_id.value, &settings.partner_id.value) {
        (Some(member), _) => format!("merchant {member}"),
        (None, Some(partner)) => format!("partner {partner}"),
        (None, None) => {
            return Check::fail(
                "settings",
                "no caller: neither a member id nor a partner id is set",
                "give --member-id (or PAYTOKEN_MEMBER_ID, or a profile's member_id); `paytoken whoami` shows what is set and where",
            );
        }
    };
    let Some(base_url) = settings.shown_base_url() else {
        return Check::fail(
            "settings",
            "no base URL is set",
            "give --base-url (or PAYTOKEN_BASE_URL, or a profile's base_url)",
        );
    };
    if let Some(problem) = key_problem {
        return Check::fail(
            "settings",
            format!("the secure key cannot be read: {problem}"),
            "set PAYTOKEN_SECURE_KEY, give --secure-key-file, or name the key in a profile (secure_key_file, chmod 600)",
        );
    }
    if let Some(problem) = signing_problem {
        return Check::fail(
            "settings",
            problem,
            "mend the setting named (`paytoken whoami` shows where each comes from)",
        );
    }
    Check::pass(
        "settings",
        format!(
            "{caller} at {base_url}, base URL from {}, secure key readable",
            settings.base_url.source.describe()
        ),
    )
}

/// What the checks sign with and whom they trust, checked in the settings before any
/// connection.
struct Signing {
    roots: Vec<Vec<u8>>,
    fetch: Option<FetchAuthToken>,
    given_token: bool,
}

/// `https, host gw.example`.
fn summary(base_url: &BaseUrl) -> String {
    let scheme = if base_url.is_https() {
        "https"
    } else {
        "plain http on loopback"
    };
    format!("{scheme}, host {}", base_url.host())
}

/// The trust and the way to an auth token, or what in the settings stops the client's
/// signing.
fn signing(args: &GatewayArgs, settings: &Settings) -> Result<Signing, String> {
    let message = |failure: Failure| failure.message().to_owned();
    config::credentials(settings).map_err(message)?;
    let roots = config::root_certificates(args).map_err(message)?;
    if let Some(account) = &settings.account_id.value {
        config::parse::<paytoken::AccountId>(account, "--account-id").map_err(message)?;
    }
    if let Some(terminal) = &settings.terminal_id.value {
        config::parse::<paytoken::TerminalId>(terminal, "--terminal-id").map_err(message)?;
    }
    let given_token = config::auth_token(args).map_err(message)?.is_some();
    let fetch = match (&settings.partner_id.value, &settings.username.value) {
        (Some(partner), Some(username)) if !given_token => Some(FetchAuthToken::new(
            config::parse(partner, "--partner-id").map_err(message)?,
            Username::new(username.as_str()).map_err(|error| format!("--username: {error}"))?,
        )),
        _ => None,
    };
    Ok(Signing {
        roots,
        fetch,
        given_token,
    })
}

/// The client every command would make of the settings, on `link`: sending nothing twice,
/// each call within `timeout`, each answer read up to `limit`; with `token` when one was
/// fetched.
fn client_on(
    link: &Link,
    args: &GatewayArgs,
    settings: &Settings,
    bounds: (Duration, usize),
    token: Option<paytoken::AuthToken>,
) -> Result<paytoken::Client<Link>, String> {
    let (timeout, limit) = bounds;
    let mut builder = config::builder(args, settings, true)
        .map_err(|failure| failure.message().to_owned())?
        .retry_policy(RetryPolicy::NEVER)
        .request_timeout(timeout)
        .body_limit(limit);
    if let Some(token) = token {
        builder = builder.auth_token(token);
    }
    builder
        .build_with_transport(link.clone())
        .map_err(|error| error.to_string())
}

async fn gateway_checks(
    args: &GatewayArgs,
    settings: &Settings,
    base_url: BaseUrl,
    mut signing: Signing,
    checks: &mut Vec<Check>,
    seen: &mut Vec<Seen>,
) {
    let timeout = args
        .timeout
        .map_or(limits::DOCTOR_STEP, Duration::from_secs);
    let limit = args.max_answer_bytes.unwrap_or(limits::LIST_ANSWER_BYTES);
    let trust = match connection::trust(&signing.roots) {
        Ok(trust) => trust,
        Err(problem) => {
            checks.push(Check::fail(
                "reachable",
                problem,
                "give a PEM file of CA certificates",
            ));
            return skip_the_rest(checks, "no connection was opened");
        }
    };
    let opened = match connection::open(&base_url, Arc::clone(&trust), timeout).await {
        Ok(opened) => opened,
        Err(OpenError::Connect(trouble)) => {
            checks.push(Check::trouble("reachable", trouble));
            return skip_the_rest(checks, "the gateway is not reachable");
        }
        Err(OpenError::Tls(trouble)) => {
            checks.push(Check::pass("reachable", "a TCP connection opened"));
            checks.push(Check::trouble("tls", trouble));
            return skip_the_rest(checks, "no TLS connection");
        }
        Err(OpenError::Http(trouble)) => {
            checks.push(Check::trouble("reachable", trouble));
            return skip_the_rest(checks, "no HTTP connection");
        }
    };
    checks.push(Check::pass(
        "reachable",
        format!("connected in {}", seconds(opened.connected_in)),
    ));
    checks.push(match &opened.tls {
        Some(agreed) => Check::pass(
            "tls",
            format!(
                "{}, certificate trusted for {}, {} chosen by ALPN",
                agreed.version,
                base_url.host(),
                agreed.alpn.as_deref().unwrap_or("no protocol")
            ),
        ),
        None => Check::skipped("tls", "plain http on this machine"),
    });
    let link = Link::new(
        Upstream::with(base_url, trust, timeout, opened.connection),
        "paytoken-doctor",
    );
    let client = match client_on(&link, args, settings, (timeout, limit), None) {
        Ok(client) => client,
        Err(problem) => {
            checks.push(Check::fail("auth_token", problem, CALLER_ADVICE));
            return skip_the_rest(checks, "no client could be made of the settings");
        }
    };
    let mut call = Caller {
        client,
        link,
        first_date: None,
    };

    // The auth token, and the clock from the first answer.
    let token_check = match signing.fetch.take() {
        Some(fetch) => match call.read(
            OperationKind::AuthToken,
            call.client.fetch_auth_token(&fetch).await,
            seen,
        ) {
            Ok((grant, took)) => {
                // The calls after go with it, as a client that fetched it goes.
                if let Ok(client) =
                    client_on(&call.link, args, settings, (timeout, limit), Some(grant.token))
                {
                    call.client = client;
                }
                Check::pass(
                    "auth_token",
                    format!(
                        "fetched for partner {} as {} in {}",
                        settings.partner_id.value.as_deref().unwrap_or("-"),
                        settings.username.value.as_deref().unwrap_or("-"),
                        seconds(took)
                    ),
                )
            }
            Err(failed) => failed.check(
                "auth_token",
                "check the partner id, the user name and the secure key (`paytoken whoami` shows where each comes from)",
            ),
        },
        None if signing.given_token => Check::skipped("auth_token", "an auth token is given"),
        None => Check::skipped(
            "auth_token",
            "no partner id and user name: the calls go without a token",
        ),
    };
    checks.push(token_check);
    let listed = call
        .client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await;
    let read = call.read(OperationKind::CardsAndAccounts, listed, seen);
    checks.push(clock_check(call.first_date));
    checks.push(match read {
        Ok((list, took)) => Check::pass(
            "signed_read",
            format!(
                "the caller and its secure key are accepted: {} card(s), {} bank account(s), in {}",
                list.cards.len(),
                list.bank_accounts.len(),
                seconds(took)
            ),
        ),
        Err(failed) => failed.check("signed_read", CALLER_ADVICE),
    });
    checks.push(inquiry_check(&mut call, seen).await);
    let page = call.client.invoice_page(&InvoiceList::new(1, 10)).await;
    checks.push(match call.read(OperationKind::InvoiceList, page, seen) {
        Ok((page, took)) => Check::pass(
            "invoices",
            format!(
                "page 1 read: {} invoice(s), in {}",
                page.invoices.len(),
                seconds(took)
            ),
        ),
        Err(failed) => failed.check("invoices", CALLER_ADVICE),
    });
    if seen.is_empty() {
        checks.push(Check::skipped(
            "answer_shapes",
            "no answer was read: there is no shape to tell",
        ));
        return;
    }
    let unusual: usize = seen.iter().map(|seen| seen.shapes.len()).sum();
    checks.push(Check::pass(
        "answer_shapes",
        if unusual == 0 {
            "every answer has the samples' shapes".to_owned()
        } else {
            format!("{unusual} shape(s) unlike the interface's samples, all read (listed below)")
        },
    ));
}

const CALLER_ADVICE: &str = "check the member id, the secure key and the auth token (`paytoken whoami` shows where each comes from)";

/// An inquiry of a merchant transaction id no one made: the gateway must not find it.
async fn inquiry_check(call: &mut Caller, seen: &mut Vec<Seen>) -> Check {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    let Ok(made_up) = MerchantTransactionId::new(&format!("paytoken-doctor-{nanos}")) else {
        return Check::skipped("inquiry", "no made-up id could be written");
    };
    let inquired = call
        .client
        .inquiry(&Inquiry::ByMerchantTransactionId(made_up))
        .await;
    match call.read(OperationKind::Inquiry, inquired, seen) {
        Ok((found, _)) => Check::fail(
            "inquiry",
            format!(
                "a merchant transaction id no one made was found (payment {})",
                found.payment_id.as_str()
            ),
            "ask the gateway: an inquiry should find only what was made",
        ),
        Err(Failed::Refused {
            code,
            description,
            family: CodeFamily::Validation,
            took,
        }) => Check::pass(
            "inquiry",
            format!(
                "a made-up merchant transaction id is not found, as it should be ({code} {description}), in {}",
                seconds(took)
            ),
        ),
        Err(failed) => failed.check("inquiry", CALLER_ADVICE),
    }
}

fn clock_check(date: Option<SystemTime>) -> Check {
    let Some(theirs) = date else {
        return Check::skipped("clock", "no answer carried a Date header");
    };
    let ours = SystemTime::now();
    let (ahead, by) = match theirs.duration_since(ours) {
        Ok(by) => (true, by),
        Err(behind) => (false, behind.duration()),
    };
    if by <= CLOCK_TOLERANCE {
        return Check::pass(
            "clock",
            format!(
                "the gateway's clock is within {} of this machine's",
                seconds(CLOCK_TOLERANCE)
            ),
        );
    }
    Check::fail(
        "clock",
        format!(
            "the gateway's clock is {} {} this machine's",
            minutes(by),
            if ahead { "ahead of" } else { "behind" }
        ),
        "check this machine's time (NTP): an auth token lives an hour by the gateway's clock, and answers' timestamps are the gateway's",
    )
}

/// `1 h 0 min`, `12 min`, to the nearest minute (a `Date` counts whole seconds).
fn minutes(duration: Duration) -> String {
    let total = duration.as_secs().saturating_add(30) / 60;
    match (total / 60, total % 60) {
        (0, minutes) => format!("{minutes} min"),
        (hours, minutes) => format!("{hours} h {minutes} min"),
    }
}
