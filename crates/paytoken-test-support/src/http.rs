//! One HTTP/1.1 request read off a socket, for the tests' small servers (a shop, a
//! notification endpoint, a scripted gateway).

use tokio::io::AsyncReadExt as _;
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
        let length = head
            .lines()
            .find_map(|line| {
                let (name, value) = line.split_once(':')?;
                name.eq_ignore_ascii_case("content-length")
                    .then(|| value.trim().parse::<usize>().ok())?
            })
            .unwrap_or(0);
        if let Some(body) = received.get(end + 4..end + 4 + length) {
            return Some(Received {
                head,
                body: body.to_vec(),
            });
        }
    }
}
