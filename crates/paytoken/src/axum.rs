//! Notifications in an axum handler (feature `axum`): the [`Verified`] extractor reads the
//! request by its content type, verifies it with the secure key the app state gives, and
//! refuses it with `400` and the failed check otherwise.
//!
//! ```
//! use axum::Router;
//! use axum::routing::post;
//! use paytoken::SecureKey;
//! use paytoken::axum::Verified;
//!
//! async fn notification(Verified(notification): Verified) -> &'static str {
//!     // Act on `notification.status` for `notification.payment_id`, once
//!     // (`paytoken::DuplicateStore`).
//!     let _ = notification;
//!     "ok"
//! }
//!
//! let key = SecureKey::new("the-shop-s-key")?;
//! let app: Router = Router::new()
//!     .route("/notifications", post(notification))
//!     .with_state(key);
//! # Ok::<(), paytoken::checksum::Error>(())
//! ```
//!
//! The state is anything the key can be taken from (`SecureKey: FromRef<S>`), the key
//! itself or a field of the shop's own state.

use axum::body::Bytes;
use axum::extract::{FromRef, FromRequest, Request};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;

use crate::SecureKey;
use crate::notification::{Notification, VerifiedNotification};

/// A notification whose checksum verified with the state's secure key.
#[derive(Debug, Clone)]
pub struct Verified(pub VerifiedNotification);

impl<S> FromRequest<S> for Verified
where
    S: Send + Sync,
    SecureKey: FromRef<S>,
{
    /// `400` and the check that failed (never the key); what axum's body extractor
    /// refuses (a body over its limit: `413`).
    type Rejection = (StatusCode, String);

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let content_type = request
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned);
        let body = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| (rejection.status(), rejection.body_text()))?;
        let key = SecureKey::from_ref(state);
        Notification::from_request(content_type.as_deref(), &body)
            .and_then(|notification| notification.verify(&key))
            .map(Self)
            .map_err(|error| (StatusCode::BAD_REQUEST, error.to_string()))
    }
}
