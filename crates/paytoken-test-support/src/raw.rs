//! A plain HTTP/1.1 client written for the sandbox's tests and benchmark (not
//! paytoken's), and helpers to sign in and build requests.

use std::net::SocketAddr;

use paytoken_protocol::ops::auth_token::FetchAuthToken;
use paytoken_protocol::{AUTH_TOKEN_HEADER, AuthToken, Context, Operation, Request};
use paytoken_sandbox::{
    DEFAULT_MERCHANT_ID, DEFAULT_PARTNER_ID, MerchantConfig, OTHER_MERCHANT_ID, PartnerConfig,
    Sandbox,
};
use paytoken_types::Card;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// An answer as it came off the socket.
#[derive(Debug)]
pub struct Raw {
    /// The status code.
    pub status: u16,
    /// The headers, in order, trimmed.
    pub headers: Vec<(String, String)>,
    /// The body, `Content-Length` bytes.
    pub body: Vec<u8>,
}

impl Raw {
    /// The first header called `name`, in any case.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// The body as JSON, after checking the gateway's envelope: HTTP 200, JSON content type,
    /// and every value a string.
    pub fn json(&self) -> Value {
        assert_eq!(
            self.status,
            200,
            "body: {}",
            String::from_utf8_lossy(&self.body)
        );
        assert_eq!(
            self.header("content-type"),
            Some("application/json;charset=UTF-8")
        );
        let value: Value = serde_json::from_slice(&self.body).expect("a JSON body");
        assert_strings_only(&value, "");
        value
    }

    /// The body as text, lossily.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Every leaf of the answer is a string: numbers and booleans are strings on this wire.
pub fn assert_strings_only(value: &Value, at: &str) {
    match value {
        Value::String(_) => {}
        Value::Object(map) => {
            for (key, value) in map {
                assert_strings_only(value, &format!("{at}.{key}"));
            }
        }
        Value::Array(items) => {
            assert!(
                items.len() > 1,
                "{at}: a list of {} must not be an array",
                items.len()
            );
            for (index, value) in items.iter().enumerate() {
                assert_strings_only(value, &format!("{at}[{index}]"));
            }
        }
        other => panic!("{at} is {other}, not a string"),
    }
}

/// `yyyy-MM-dd HH:mm:ss`.
pub fn assert_timestamp(value: &Value) {
    let text = value.as_str().expect("a timestamp string");
    let bytes = text.as_bytes();
    assert_eq!(bytes.len(), 19, "{text}");
    for (index, byte) in bytes.iter().enumerate() {
        match index {
            4 | 7 => assert_eq!(*byte, b'-', "{text}"),
            10 => assert_eq!(*byte, b' ', "{text}"),
            13 | 16 => assert_eq!(*byte, b':', "{text}"),
            _ => assert!(byte.is_ascii_digit(), "{text}"),
        }
    }
}

/// Sends one request on a fresh connection and reads the answer to the end.
///
/// # Errors
/// The connection's, or `InvalidData` for an answer that is not HTTP.
pub async fn exchange(
    address: SocketAddr,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<Raw> {
    let mut stream = TcpStream::connect(address).await?;
    let close = [("Connection", "close")];
    let request = http_request(method, target, &[&close, headers].concat(), body);
    stream.write_all(&request).await?;
    let mut received = Vec::new();
    stream.read_to_end(&mut received).await?;
    parse_response(&received)
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, "no HTTP answer"))
}

/// A whole HTTP/1.1 request: request line, `Host`, `Content-Length`, `headers`, body.
pub fn http_request(method: &str, target: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut head = format!(
        "{method} {target} HTTP/1.1\r\nHost: sandbox\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// The headers of a request the protocol crate built, with `extra` after them.
pub fn headers_of<'r>(
    request: &'r Request,
    extra: &[(&'r str, &'r str)],
) -> Vec<(&'r str, &'r str)> {
    let mut headers: Vec<(&str, &str)> = request
        .headers()
        .iter()
        .map(|header| (header.name(), header.value()))
        .collect();
    headers.extend_from_slice(extra);
    headers
}

/// Status line, headers, and a body of `Content-Length` bytes.
pub fn parse_response(bytes: &[u8]) -> Option<Raw> {
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&bytes[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_owned(), value.trim().to_owned()))
        .collect();
    let body = bytes[end + 4..].to_vec();
    let raw = Raw {
        status,
        headers,
        body,
    };
    let length: usize = raw.header("content-length")?.parse().ok()?;
    (raw.body.len() == length).then_some(raw)
}

/// Sends a request the protocol crate built.
pub async fn send(sandbox: &Sandbox, request: &Request) -> Raw {
    send_with(sandbox, request, &[]).await
}

/// Sends a request the protocol crate built, with extra headers.
pub async fn send_with(sandbox: &Sandbox, request: &Request, extra: &[(&str, &str)]) -> Raw {
    let headers = headers_of(request, extra);
    exchange(
        sandbox.address(),
        "POST",
        request.path(),
        &headers,
        request.body(),
    )
    .await
    .expect("an answer")
}

/// Builds `operation` in `context`, sends it and parses the answer with the protocol crate.
///
/// # Errors
/// The protocol's: building the request, or reading its answer.
pub async fn call<O: Operation>(
    sandbox: &Sandbox,
    context: &Context,
    operation: &O,
) -> Result<O::Response, paytoken_protocol::Error> {
    let raw = send(sandbox, &operation.request(context)?).await;
    operation.parse(raw.status, &raw.body)
}

/// A form body encoded by `serde_urlencoded`, not by paytoken.
pub fn form(fields: &[(&str, &str)]) -> Vec<u8> {
    serde_urlencoded::to_string(fields).unwrap().into_bytes()
}

/// MD5 over `parts` joined with `|`, by the `md5` crate, not by paytoken.
pub fn sign(parts: &[&str]) -> String {
    format!("{:x}", md5_oracle::compute(parts.join("|")))
}

/// Posts a hand-built form to `path`.
pub async fn post(
    sandbox: &Sandbox,
    path: &str,
    token: Option<&str>,
    fields: &[(&str, &str)],
) -> Raw {
    let content_type = ("Content-Type", "application/x-www-form-urlencoded");
    let mut headers = vec![content_type];
    if let Some(token) = token {
        headers.push((AUTH_TOKEN_HEADER, token));
    }
    exchange(sandbox.address(), "POST", path, &headers, &form(fields))
        .await
        .expect("an answer")
}

/// The sandbox's default merchant.
pub fn merchant(sandbox: &Sandbox) -> &MerchantConfig {
    sandbox.config().merchant(DEFAULT_MERCHANT_ID).unwrap()
}

/// The sandbox's second merchant.
pub fn other_merchant(sandbox: &Sandbox) -> &MerchantConfig {
    sandbox.config().merchant(OTHER_MERCHANT_ID).unwrap()
}

/// The sandbox's partner.
pub fn partner(sandbox: &Sandbox) -> &PartnerConfig {
    sandbox.config().partner(DEFAULT_PARTNER_ID).unwrap()
}

/// A fresh auth token for the merchant.
pub async fn merchant_token(sandbox: &Sandbox, merchant: &MerchantConfig) -> AuthToken {
    let fetch = FetchAuthToken::new(partner(sandbox).partner_id, merchant.username.clone());
    let request = fetch.request(&merchant.context()).unwrap();
    let raw = send(sandbox, &request).await;
    fetch.parse(raw.status, &raw.body).unwrap().token
}

/// The merchant's context, signed in.
pub async fn signed_in(sandbox: &Sandbox, merchant: &MerchantConfig) -> Context {
    let token = merchant_token(sandbox, merchant).await;
    Context {
        auth_token: Some(token),
        ..merchant.context()
    }
}

/// The partner's context, signed in.
pub async fn partner_signed_in(sandbox: &Sandbox) -> Context {
    let partner = partner(sandbox);
    let fetch = FetchAuthToken::new(partner.partner_id, partner.username.clone());
    let request = fetch.request(&partner.context()).unwrap();
    let raw = send(sandbox, &request).await;
    let token = fetch.parse(raw.status, &raw.body).unwrap().token;
    Context {
        auth_token: Some(token),
        ..partner.context()
    }
}

/// A test card expiring in December 2099, held by someone whose name needs escaping.
pub fn card(number: &str) -> Card {
    Card {
        holder: Some("Zoë O'Neil".into()),
        ..crate::samples::card(number)
    }
}

/// A payment of 50.00 EUR with the test card `number`, under a fresh order id.
pub fn payment_with(number: &str) -> paytoken_protocol::ops::payment::Payment {
    paytoken_protocol::ops::payment::Payment::new(
        order_id().parse().unwrap(),
        "50.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(number),
    )
}

/// A merchant transaction id nobody used before in this process.
pub fn order_id() -> String {
    crate::samples::order_id().to_string()
}
