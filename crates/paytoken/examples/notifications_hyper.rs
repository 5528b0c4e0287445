//! A merchant's notification endpoint as a plain hyper service: every notification is
//! verified with the secure key before anything is done with it; a verified one is acted
//! on once, however often the gateway sends it.
//!
//! ```text
//! PAYTOKEN_SECURE_KEY=... cargo run -p paytoken --example notifications_hyper
//! ```
//!
//! Then give `http://127.0.0.1:8090/` as the payment's `notificationUrl`.

use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::body::Incoming;
use hyper::header::CONTENT_TYPE;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use paytoken::notification::{Claim, Notification, VerifiedNotification};
use paytoken::{DuplicateStore as _, MemoryDuplicates, PaymentId, PaymentStatus, SecureKey};
use tokio::net::TcpListener;

/// A notification is a few hundred bytes: read no more than this.
const MAX_NOTIFICATION: usize = 64 * 1024;

/// How long a notification is claimed for: longer than the shop's work on one takes.
const LEASE: Duration = Duration::from_secs(30);

/// The shop: its key, the notifications it has seen, the orders it has settled.
struct Shop {
    key: SecureKey,
    seen: MemoryDuplicates,
    paid: Mutex<Vec<PaymentId>>,
}

impl Shop {
    fn new(key: SecureKey) -> Self {
        Self {
            key,
            seen: MemoryDuplicates::new(10_000),
            paid: Mutex::new(Vec::new()),
        }
    }

    /// The shop's own work: here, remember which payments were approved.
    fn settle(&self, notification: &VerifiedNotification) {
        if notification.status == PaymentStatus::Approved {
            self.paid
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(notification.payment_id);
        }
    }

    /// One request: 200 once the notification verified and was acted on (its repeat too,
    /// so the gateway stops sending it), 503 while another request acts on it, 400 when it
    /// does not verify.
    async fn receive(&self, request: Request<Incoming>) -> Response<Full<Bytes>> {
        // The gateway posts JSON; a browser coming back from 3-D Secure posts a form.
        let content_type = request.headers().get(CONTENT_TYPE).cloned();
        let body = match Limited::new(request.into_body(), MAX_NOTIFICATION)
            .collect()
            .await
        {
            Ok(body) => body.to_bytes(),
            Err(_) => return answer(StatusCode::PAYLOAD_TOO_LARGE, "too large\n"),
        };
        let content_type = content_type.as_ref().and_then(|value| value.to_str().ok());
        let read = Notification::from_request(content_type, &body);
        // A claim until its checksum verifies: the error says which check failed.
        let verified = match read.and_then(|notification| notification.verify(&self.key)) {
            Ok(verified) => verified,
            Err(error) => return answer(StatusCode::BAD_REQUEST, &format!("{error}\n")),
        };
        let key = verified.duplicate_key();
        let Ok(claim) = self.seen.claim(&key, LEASE).await;
        let fence = match claim {
            Claim::Claimed(fence) => fence,
            Claim::Done => return answer(StatusCode::OK, "ok\n"),
            _ => return answer(StatusCode::SERVICE_UNAVAILABLE, "being acted on\n"),
        };
        // An action that can fail releases the claim instead (`release`) and answers 500.
        self.settle(&verified);
        let Ok(_) = self.seen.done(&key, fence).await;
        answer(StatusCode::OK, "ok\n")
    }
}

fn answer(status: StatusCode, text: &str) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(text.to_owned())));
    *response.status_mut() = status;
    response
}

/// Serves `shop` on `listener`, a task per connection.
async fn serve(listener: TcpListener, shop: Arc<Shop>) -> std::io::Result<()> {
    loop {
        let (stream, _) = listener.accept().await?;
        let shop = Arc::clone(&shop);
        tokio::spawn(async move {
            let service = service_fn(move |request| {
                let shop = Arc::clone(&shop);
                async move { Ok::<_, Infallible>(shop.receive(request).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let key = SecureKey::new(std::env::var("PAYTOKEN_SECURE_KEY")?)?;
    let listener = TcpListener::bind("127.0.0.1:8090").await?;
    serve(listener, Arc::new(Shop::new(key))).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    use super::*;

    /// A notification of `payment_id` signed with `key`, by the documented rule.
    fn notification(payment_id: &str, key: &SecureKey) -> String {
        let checksum =
            paytoken::checksum::rules::notification(key, payment_id, "order-1", "50.00", "Y")
                .unwrap();
        format!(
            r#"{{"paymentId":"{payment_id}","merchantTransactionId":"order-1","amount":"50.00","transactionStatus":"Y","status":"capturesuccess","checksum":"{}"}}"#,
            checksum.to_hex().as_str()
        )
    }

    async fn post(address: std::net::SocketAddr, body: &str) -> u16 {
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let request = format!(
            "POST / HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        answer[9..12].parse().unwrap()
    }

    #[tokio::test]
    async fn acts_once_on_a_verified_notification_and_refuses_a_forgery() {
        let key = SecureKey::new("the-shop-s-key").unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let shop = Arc::new(Shop::new(key.clone()));
        tokio::spawn(serve(listener, Arc::clone(&shop)));

        let signed = notification("60001", &key);
        assert_eq!(post(address, &signed).await, 200);
        assert_eq!(post(address, &signed).await, 200, "the gateway's repeat");
        let forged = notification("60002", &SecureKey::new("a-guess").unwrap());
        assert_eq!(post(address, &forged).await, 400);
        let paid = shop.paid.lock().unwrap().clone();
        assert_eq!(paid, ["60001".parse::<PaymentId>().unwrap()]);
    }
}
