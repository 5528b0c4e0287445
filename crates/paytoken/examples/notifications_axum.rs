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

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode, header::CONTENT_TYPE};
use axum::routing::post;
use paytoken::notification::{DuplicateFilter, Notification};
use paytoken::{PaymentId, PaymentStatus, SecureKey};
use tokio::net::TcpListener;

/// The shop: its key, the notifications it has seen, the orders it has settled.
struct Shop {
    key: SecureKey,
    seen: Mutex<DuplicateFilter>,
    paid: Mutex<Vec<PaymentId>>,
}

/// 200 once the notification verified (its repeat too, so the gateway stops sending it),
/// 400 with the failed check when it does not.
async fn notification(
    State(shop): State<Arc<Shop>>,
    headers: HeaderMap,
    body: Bytes,
) -> (StatusCode, String) {
    // The gateway posts JSON; a browser coming back from 3-D Secure posts a form.
    let content_type = headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok());
    let read = Notification::from_request(content_type, &body);
    let verified = match read.and_then(|notification| notification.verify(&shop.key)) {
        Ok(verified) => verified,
        Err(error) => return (StatusCode::BAD_REQUEST, error.to_string()),
    };
    let first_time = shop
        .seen
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .first_time(&verified);
    if first_time && verified.status == PaymentStatus::Approved {
        shop.paid
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(verified.payment_id);
    }
    (StatusCode::OK, "ok".to_owned())
}

/// The shop's routes: notifications, their bodies bounded at 64 KiB.
fn app(shop: Arc<Shop>) -> Router {
    Router::new()
        .route("/notifications", post(notification))
        .layer(DefaultBodyLimit::max(64 * 1024))
        .with_state(shop)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let shop = Arc::new(Shop {
        key: SecureKey::new(std::env::var("PAYTOKEN_SECURE_KEY")?)?,
        seen: Mutex::new(DuplicateFilter::new(10_000)),
        paid: Mutex::new(Vec::new()),
    });
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
        let shop = Arc::new(Shop {
            key: key.clone(),
            seen: Mutex::new(DuplicateFilter::new(100)),
            paid: Mutex::new(Vec::new()),
        });
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let app = app(Arc::clone(&shop));
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
