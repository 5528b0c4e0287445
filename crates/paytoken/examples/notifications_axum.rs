//! A merchant's notification endpoint as an axum handler: every notification is verified
//! with the secure key before anything is done with it; a verified one is acted on once,
//! however often the gateway sends it.
//!
//! ```text
//! PAYTOKEN_SECURE_KEY=... cargo run -p paytoken --example notifications_axum
//! ```
//!
//! Then give `http://127.0.0.1:8090/notifications` as the payment's `notificationUrl`.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRef, State};
use axum::http::StatusCode;
use axum::routing::post;
use paytoken::axum::Verified;
use paytoken::notification::Claim;
use paytoken::{DuplicateStore as _, MemoryDuplicates, PaymentId, PaymentStatus, SecureKey};
use tokio::net::TcpListener;

/// The shop: its key, the notifications it has acted on, the orders it has settled.
/// Cloned for each request: the key is small, the rest shared.
#[derive(Clone)]
struct Shop {
    key: SecureKey,
    seen: Arc<MemoryDuplicates>,
    paid: Arc<Mutex<Vec<PaymentId>>>,
}

impl Shop {
    fn new(key: SecureKey) -> Self {
        Self {
            key,
            seen: Arc::new(MemoryDuplicates::new(10_000)),
            paid: Arc::default(),
        }
    }
}

/// How long a notification is claimed for: longer than the shop's work on one takes.
const LEASE: Duration = Duration::from_secs(30);

/// What the extractor verifies with.
impl FromRef<Shop> for SecureKey {
    fn from_ref(shop: &Shop) -> Self {
        shop.key.clone()
    }
}

/// 200 once the notification verified and was acted on (its repeat too, so the gateway
/// stops sending it); 503 while another request is acting on it, so that the gateway
/// sends it again; the extractor has answered 400 with the failed check when it does not
/// verify. The gateway posts JSON, a browser coming back from 3-D Secure a form: the
/// extractor reads either.
async fn notification(
    State(shop): State<Shop>,
    Verified(verified): Verified,
) -> (StatusCode, &'static str) {
    let key = verified.duplicate_key();
    let Ok(claim) = shop.seen.claim(&key, LEASE).await;
    let fence = match claim {
        Claim::Claimed(fence) => fence,
        Claim::Done => return (StatusCode::OK, "ok"),
        _ => return (StatusCode::SERVICE_UNAVAILABLE, "being acted on"),
    };
    // The shop's action; one that can fail releases the claim instead and answers 500.
    if verified.status == PaymentStatus::Approved {
        shop.paid
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(verified.payment_id);
    }
    let Ok(_) = shop.seen.done(&key, fence).await;
    (StatusCode::OK, "ok")
}

/// The shop's routes: notifications, their bodies bounded at 64 KiB.
fn app(shop: Shop) -> Router {
    Router::new()
        .route("/notifications", post(notification))
        .layer(DefaultBodyLimit::max(64 * 1024))
        .with_state(shop)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let shop = Shop::new(SecureKey::new(std::env::var("PAYTOKEN_SECURE_KEY")?)?);
    let listener = TcpListener::bind("127.0.0.1:8090").await?;
    axum::serve(listener, app(shop)).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    use super::*;

    /// The browser's return from 3-D Secure: a form, signed with `key` by the documented rule.
    fn returned(payment_id: &str, key: &SecureKey) -> String {
        let checksum =
            paytoken::checksum::rules::notification(key, payment_id, "order-1", "50.00", "Y")
                .unwrap();
        format!(
            "paymentId={payment_id}&merchantTransactionId=order-1&amount=50.00&transactionStatus=Y&checksum={}",
            checksum.to_hex().as_str()
        )
    }

    async fn post(address: std::net::SocketAddr, body: &str) -> u16 {
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        let request = format!(
            "POST /notifications HTTP/1.1\r\nHost: shop\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
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
        let shop = Shop::new(key.clone());
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let app = app(shop.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });

        let signed = returned("60001", &key);
        assert_eq!(post(address, &signed).await, 200);
        assert_eq!(post(address, &signed).await, 200, "a repeat");
        let forged = returned("60002", &SecureKey::new("a-guess").unwrap());
        assert_eq!(post(address, &forged).await, 400);
        assert_eq!(
            *shop.paid.lock().unwrap(),
            ["60001".parse::<PaymentId>().unwrap()]
        );
    }
}
