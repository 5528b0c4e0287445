//! The client's spans as OpenTelemetry spans (feature `opentelemetry`): [`layer`] bridges
//! tracing to an OpenTelemetry tracer through `tracing-opentelemetry`.
//!
//! Every call is a `paytoken.call` span named by its operation (`pay`, `refund`...) with
//! `paytoken.operation`, `paytoken.merchant_transaction_id` and `paytoken.payment_id`
//! (a card number in either masked), `paytoken.attempts`, `paytoken.result_code`,
//! `paytoken.outcome` and, when it failed, `error.type` and the error status. Each request
//! it sent is a child of kind client, named `POST {url.template}`, with the HTTP client
//! conventions' `http.request.method`, `url.template`
//! (`/transactionServices/REST/v1/payments/{paymentId}`), `url.full` (the base URL and the
//! template: no id, no query), `server.address`, `server.port`,
//! `http.request.resend_count`, `http.response.status_code` and `error.type`, and
//! `paytoken.attempt`. A token renewal is a call of its own inside the call that needed
//! it; `Client::settle`, `reconcile` and `reconcile_move` are a `paytoken.settle` span
//! around the inquiry's call. No span holds a secure key, an auth token, a card number or
//! a CVV.
//!
//! ```
//! use tracing_subscriber::layer::SubscriberExt as _;
//!
//! // The application's tracer: here the global one, which an OpenTelemetry SDK with an
//! // exporter (OTLP, say) makes real.
//! let tracer = opentelemetry::global::tracer("shop");
//! let subscriber = tracing_subscriber::registry().with(paytoken::opentelemetry::layer(tracer));
//! let _default = tracing::subscriber::set_default(subscriber);
//! ```
//!
//! The cookbook's `tracing` recipe (feature `sandbox`) sets up an OTLP exporter.

use opentelemetry::trace::Tracer;
use tracing_opentelemetry::OpenTelemetryLayer;
use tracing_subscriber::registry::LookupSpan;

/// A layer that makes every span of the subscriber it joins an OpenTelemetry span of
/// `tracer`'s, paytoken's and the application's alike (so a call is the child of the
/// request that made it), without the source locations, thread ids and busy times that
/// `tracing-opentelemetry` adds by default.
pub fn layer<S, T>(tracer: T) -> OpenTelemetryLayer<S, T>
where
    S: tracing::Subscriber + for<'span> LookupSpan<'span>,
    T: Tracer + 'static,
    T::Span: Send + Sync,
{
    tracing_opentelemetry::layer()
        .with_tracer(tracer)
        .with_location(false)
        .with_threads(false)
        .with_tracked_inactivity(false)
}
