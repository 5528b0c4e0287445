//! HTTP/1.1 by hand, for the tests: one request read off a socket, for the tests' small
//! servers (a shop, a notification endpoint, a scripted gateway); one request sent on a
//! connection of its own, exactly as written (a POST, or a local GET); a header read out
//! of a head.

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpStream;

/// A request as it came: its head, and the body its `Content-Length` gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    /// The request line and headers, without the blank line that ends them.
    pub head: String,
    /// The body.
    pub body: Vec<u8>,
}

/// Reads one request: its head and as many bytes of body as `Content-Length` says. `None`
/// when the peer closes (or the read fails) before the request is whole.
pub async fn read_request(stream: &mut TcpStream) -> Option<Received> {
    let mut received = Vec::new();
    let mut chunk = [0_u8; 4096];
    loop {
        let read = stream.read(&mut chunk).await.ok()?;
        if read == 0 {
            return None;
        }
        received.extend_from_slice(chunk.get(..read)?);
        let Some(end) = received.windows(4).position(|four| four == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(received.get(..end)?).into_owned();
        let length = header(&head, "content-length")
            .and_then(|value| value.parse::<usize>().ok())
            .unwrap_or(0);
        if let Some(body) = received.get(end + 4..end + 4 + length) {
            return Some(Received {
                head,
                body: body.to_vec(),
            });
        }
    }
}

/// POSTs `body` to `url` (`http://host:port/path?query`) on a connection of its own, with
/// `headers` besides `Host`, `Content-Length` and `Connection: close`: the whole answer,
/// head and body, as text.
pub async fn post(url: &str, headers: &[(&str, &str)], body: &str) -> String {
    let rest = url.strip_prefix("http://").unwrap();
    let (authority, target) = rest.split_once('/').unwrap_or((rest, ""));
    let mut stream = TcpStream::connect(authority).await.unwrap();
    let mut request = format!("POST /{target} HTTP/1.1\r\nHost: {authority}\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ));
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    answer
}

/// GETs `target` (a path) from `address` as a local tool or browser asks, with a loopback
/// `Host` and `Connection: close`: the whole answer, head and body, as text.
pub async fn get_local(address: std::net::SocketAddr, target: &str) -> String {
    let mut stream = TcpStream::connect(address).await.unwrap();
    let request = format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    answer
}

/// The value of the header `name` (any case) in `head`, the head of a request or an answer
/// (what follows it is not read), trimmed.
#[must_use]
pub fn header<'h>(head: &'h str, name: &str) -> Option<&'h str> {
    head.lines()
        .take_while(|line| !line.is_empty())
        .find_map(|line| {
            let (field, value) = line.split_once(':')?;
            field.eq_ignore_ascii_case(name).then(|| value.trim())
        })
}
