//! A merchant's notification endpoint for tests: a raw TCP listener that reads each
//! request whole, keeps its body, and answers the next status of its script (200 once the
//! script is spent).

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use paytoken_test_support::http::read_request;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;

#[derive(Default)]
struct Shared {
    script: VecDeque<u16>,
    bodies: Vec<String>,
}

/// The listener; it stops when dropped.
pub(crate) struct Listener {
    pub(crate) address: SocketAddr,
    shared: Arc<Mutex<Shared>>,
    task: tokio::task::JoinHandle<()>,
}

impl Listener {
    /// Listens on a free loopback port, answering `script`'s statuses in turn, then 200.
    pub(crate) async fn start(script: &[u16]) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let shared = Arc::new(Mutex::new(Shared {
            script: script.iter().copied().collect(),
            bodies: Vec::new(),
        }));
        let serving = Arc::clone(&shared);
        let task = tokio::spawn(async move {
            loop {
                let Ok((mut stream, _)) = listener.accept().await else {
                    return;
                };
                let shared = Arc::clone(&serving);
                tokio::spawn(async move {
                    let Some(body) = read_request(&mut stream)
                        .await
                        .and_then(|request| String::from_utf8(request.body).ok())
                    else {
                        return;
                    };
                    let status = {
                        let mut shared = shared.lock().unwrap();
                        shared.bodies.push(body);
                        shared.script.pop_front().unwrap_or(200)
                    };
                    let answer = format!(
                        "HTTP/1.1 {status} Scripted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    );
                    let _ = stream.write_all(answer.as_bytes()).await;
                });
            }
        });
        Self {
            address,
            shared,
            task,
        }
    }

    /// `http://127.0.0.1:PORT/notify`.
    pub(crate) fn url(&self) -> String {
        format!("http://{}/notify", self.address)
    }

    /// Waits (up to ten seconds) until `count` requests have arrived, and returns every
    /// body received.
    pub(crate) async fn bodies(&self, count: usize) -> Vec<String> {
        for _ in 0..1000 {
            let bodies = self.shared.lock().unwrap().bodies.clone();
            if bodies.len() >= count {
                return bodies;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("fewer than {count} notifications arrived");
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.task.abort();
    }
}
