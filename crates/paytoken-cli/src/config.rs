//! The client from the resolved settings (flags, environment, profile).

use std::time::Duration;

use paytoken::{AuthToken, BaseUrl, Client, ClientBuilder, Credentials, SecureKey, Username};

use zeroize::Zeroizing;

use crate::bounded::{open_regular, read_bounded};
use crate::cli::GatewayArgs;
use crate::limits;
use crate::profile;
use crate::report::Failure;
use crate::settings::{KeyOrigin, SECURE_KEY_VARIABLE, Settings};
use crate::terminal;

/// The client for the operations, or the usage error that stops them before anything is
/// sent (an auth-token request included). `lists` raises the default answer limit to
/// [`limits::LIST_ANSWER_BYTES`] for the list operations.
pub(crate) fn client(
    args: &GatewayArgs,
    settings: &Settings,
    lists: bool,
) -> Result<Client, Failure> {
    builder(args, settings, lists)?
        .build()
        .map_err(|error| Failure::usage(error.to_string()))
}

/// The client's settings as [`client`] makes them, to build on another transport.
pub(crate) fn builder(
    args: &GatewayArgs,
    settings: &Settings,
    lists: bool,
) -> Result<ClientBuilder, Failure> {
    let base_url = base_url(args, settings)?;
    let credentials = credentials(settings)?;
    let mut builder = Client::builder()
        .base_url(base_url.as_str())
        .allow_http(!base_url.is_https())
        .credentials(credentials);
    for der in root_certificates(args)? {
        builder = builder.add_root_certificate(der);
    }
    if let Some(account) = &settings.account_id.value {
        builder = builder.account_id(parse(account, "--account-id")?);
    }
    if let Some(terminal) = &settings.terminal_id.value {
        builder = builder.terminal_id(parse(terminal, "--terminal-id")?);
    }
    check_bounds(args)?;
    match args.max_answer_bytes {
        Some(limit) => builder = builder.body_limit(limit),
        None if lists => builder = builder.body_limit(limits::LIST_ANSWER_BYTES),
        None => {}
    }
    if let Some(seconds) = args.timeout {
        builder = builder.request_timeout(Duration::from_secs(seconds));
    }
    match (
        auth_token(args)?,
        &settings.partner_id.value,
        &settings.username.value,
    ) {
        (Some(token), _, _) => builder = builder.auth_token(token),
        (None, Some(partner), Some(username)) => {
            let username = Username::new(username.as_str())
                .map_err(|error| Failure::usage(error.to_string()))?;
            builder = builder.fetch_auth_token(parse(partner, "--partner-id")?, username);
        }
        // No token and no way to fetch one: the calls go without, as the user asked.
        _ => {}
    }
    Ok(builder)
}

/// The variable that may hold an auth token to use as it is.
const AUTH_TOKEN_VARIABLE: &str = paytoken::environment::AUTH_TOKEN;

/// The most bytes of an auth-token file read: tokens are a few hundred characters.
const AUTH_TOKEN_FILE_BYTES: u64 = 16 * 1024;

/// The auth token to use as it is, when one is given: the file of `--auth-token-file`
/// (read up to [`AUTH_TOKEN_FILE_BYTES`], surrounding blanks trimmed), else
/// `PAYTOKEN_AUTH_TOKEN`. Never a flag's value, which the process list would show.
pub(crate) fn auth_token(args: &GatewayArgs) -> Result<Option<AuthToken>, Failure> {
    let text = match &args.auth_token_file {
        Some(path) => {
            let what = format!("--auth-token-file {}", path.display());
            let file = open_regular(path, &what)?;
            Some(read_bounded(
                file,
                AUTH_TOKEN_FILE_BYTES,
                &what,
                "larger than 16 KiB: is it the token?",
            )?)
        }
        None => std::env::var(AUTH_TOKEN_VARIABLE)
            .ok()
            .filter(|token| !token.trim().is_empty())
            .map(Zeroizing::new),
    };
    text.map(|text| {
        AuthToken::new(text.trim())
            .map_err(|error| Failure::usage(format!("the auth token: {error}")))
    })
    .transpose()
}

/// The base URL of the settings; plain http beyond loopback is refused unless the user
/// insists (`--allow-http`), before any connection.
pub(crate) fn base_url(args: &GatewayArgs, settings: &Settings) -> Result<BaseUrl, Failure> {
    let url = settings.base_url.value.as_deref().ok_or_else(|| {
        Failure::usage("no base url: give --base-url, set PAYTOKEN_BASE_URL or use a profile")
    })?;
    let base_url = BaseUrl::new(url).map_err(|error| Failure::usage(error.to_string()))?;
    if !base_url.is_https() && !base_url.is_loopback() && !args.allow_http {
        return Err(Failure::usage(
            "the base url is plain http and not a loopback address: card data needs https (--allow-http to insist)",
        ));
    }
    Ok(base_url)
}

/// The caller (the merchant, or else the partner) with its secure key.
pub(crate) fn credentials(settings: &Settings) -> Result<Credentials, Failure> {
    let secure_key = secure_key(&settings.secure_key)?;
    match (&settings.member_id.value, &settings.partner_id.value) {
        (Some(member), _) => Ok(Credentials::merchant(
            parse(member, "--member-id")?,
            secure_key,
        )),
        (None, Some(partner)) => Ok(Credentials::partner(
            parse(partner, "--partner-id")?,
            secure_key,
        )),
        (None, None) => Err(Failure::usage(
            "no caller: give --member-id (a merchant) or --partner-id (a partner)",
        )),
    }
}

/// The most a `--root-certificate` file may hold: a bundle of a few hundred authorities.
const ROOT_CERTIFICATE_FILE_BYTES: u64 = 1024 * 1024;

/// The certificates (DER) of `--root-certificate`'s PEM file, none without the flag.
pub(crate) fn root_certificates(args: &GatewayArgs) -> Result<Vec<Vec<u8>>, Failure> {
    let Some(path) = &args.root_certificate else {
        return Ok(Vec::new());
    };
    let what = format!("--root-certificate {}", path.display());
    let file = open_regular(path, &what)?;
    let text = read_bounded(
        file,
        ROOT_CERTIFICATE_FILE_BYTES,
        &what,
        "larger than 1 MiB: is it a PEM file of certificates?",
    )?;
    paytoken_hyper::internal::conn::certificates_from_pem(text.as_bytes())
        .map_err(|reason| Failure::usage(format!("{what}: {reason}")))
}

/// Refuses the bounds no call could meet: a zero `--timeout` or `--max-answer-bytes`.
pub(crate) fn check_bounds(args: &GatewayArgs) -> Result<(), Failure> {
    if args.timeout == Some(0) {
        return Err(Failure::usage("--timeout: must be at least one second"));
    }
    if args.max_answer_bytes == Some(0) {
        return Err(Failure::usage("--max-answer-bytes: must be above zero"));
    }
    Ok(())
}

/// The partner id and login name the `fetch-auth-token` command needs.
pub(crate) fn token_request(
    settings: &Settings,
) -> Result<paytoken::ops::auth_token::FetchAuthToken, Failure> {
    let (Some(partner), Some(username)) = (&settings.partner_id.value, &settings.username.value)
    else {
        return Err(Failure::usage(
            "fetch-auth-token needs --partner-id and --username (or PAYTOKEN_PARTNER_ID and PAYTOKEN_USERNAME)",
        ));
    };
    let username =
        Username::new(username.as_str()).map_err(|error| Failure::usage(error.to_string()))?;
    Ok(paytoken::ops::auth_token::FetchAuthToken::new(
        parse(partner, "--partner-id")?,
        username,
    ))
}

/// The partner id and current auth token the `regenerate-auth-token` command needs.
pub(crate) fn regenerate_request(
    gateway: &GatewayArgs,
    settings: &Settings,
) -> Result<paytoken::ops::auth_token::RegenerateAuthToken, Failure> {
    let needs = "regenerate-auth-token needs --partner-id (or PAYTOKEN_PARTNER_ID) and the current token in --auth-token-file (or PAYTOKEN_AUTH_TOKEN)";
    let (Some(partner), Some(token)) = (&settings.partner_id.value, auth_token(gateway)?) else {
        return Err(Failure::usage(needs));
    };
    Ok(paytoken::ops::auth_token::RegenerateAuthToken::new(
        parse(partner, "--partner-id")?,
        token,
    ))
}

/// The most `--secure-key-file` reads: a secure key is tens of characters.
const SECURE_KEY_FILE_BYTES: u64 = 4096;

/// The secure key, from where the settings say: never from a flag's value, which the
/// process list would show. A file is read up to [`SECURE_KEY_FILE_BYTES`] and no further;
/// a profile's key file open to group or others is refused.
pub(crate) fn secure_key(origin: &KeyOrigin) -> Result<SecureKey, Failure> {
    let text = match origin {
        KeyOrigin::FlagFile(path) => read_key_file(path, "--secure-key-file", false)?,
        KeyOrigin::ProfileFile { profile, path } => {
            read_key_file(path, &format!("profile {profile}: secure_key_file"), true)?
        }
        KeyOrigin::Environment => variable(SECURE_KEY_VARIABLE)?,
        KeyOrigin::ProfileVariable { variable: name, .. } => variable(name)?,
        KeyOrigin::Unset => {
            return Err(Failure::usage(format!(
                "no secure key: set {SECURE_KEY_VARIABLE}, give --secure-key-file or name one in a profile"
            )));
        }
    };
    // A file ends with a newline more often than not; the key itself never does.
    SecureKey::new(text.trim_end_matches(['\r', '\n']))
        .map_err(|error| Failure::usage(error.to_string()))
}

/// A key file's text; `private` refuses one that group or others may read.
fn read_key_file(
    path: &std::path::Path,
    named_by: &str,
    private: bool,
) -> Result<Zeroizing<String>, Failure> {
    let what = format!("{named_by} {}", path.display());
    let file = open_regular(path, &what)?;
    if private {
        profile::refuse_readable_by_others(&file, path)?;
    }
    read_bounded(
        file,
        SECURE_KEY_FILE_BYTES,
        &what,
        "larger than 4 KiB: is it the key?",
    )
}

/// The secure key in the environment variable `name`.
fn variable(name: &str) -> Result<Zeroizing<String>, Failure> {
    std::env::var(name).map(Zeroizing::new).map_err(|_| {
        Failure::usage(format!(
            "no secure key: the variable {name} is not set (or not UTF-8)"
        ))
    })
}

/// Parses a value of the command line; the error names the flag and quotes the value (never
/// a secret here), at most its first 64 characters.
pub(crate) fn parse<T>(text: &str, flag: &str) -> Result<T, Failure>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    text.parse()
        .map_err(|error| Failure::usage(refused(flag, text, &error)))
}

/// How a refused value is said: the flag, the value's first 64 characters (with its length
/// when longer), and why.
pub(crate) fn refused(flag: &str, text: &str, why: &dyn std::fmt::Display) -> String {
    format!("{flag} {}: {why}", terminal::quoted(text, 64))
}
