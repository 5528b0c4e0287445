//! Tracing: every call a span by OpenTelemetry's conventions for HTTP clients, exported to
//! the shop's tracing backend (feature `opentelemetry`; the spans and their attributes are
//! listed in [`crate::opentelemetry`]).
//!
//! A payment traced to an OpenTelemetry tracer: a `pay` span, the token's
//! `fetch_auth_token` call inside it, and a `POST /transactionServices/REST/v1/payments`
//! span of kind client under each.
//!
//! ```
//! use paytoken::prelude::*;
//! use paytoken::sandbox::{TestGateway, cards};
//! use tracing_subscriber::layer::SubscriberExt as _;
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Once, at start-up: the application's tracer (here the global one).
//! let tracer = opentelemetry::global::tracer("shop");
//! let subscriber = tracing_subscriber::registry().with(paytoken::opentelemetry::layer(tracer));
//! let _default = tracing::subscriber::set_default(subscriber);
//!
//! let gateway = TestGateway::start().await?;
//! let payment = Payment::new(
//!     gateway.order_id(),
//!     "10.00".parse()?,
//!     Currency::EUR,
//!     gateway.card(cards::APPROVED),
//! );
//! let transaction = gateway.client().pay(&payment).await?;
//! assert_eq!(transaction.status, PaymentStatus::Approved);
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
//!
//! The tracer that sends the spans over OTLP comes from the OpenTelemetry SDK and its
//! exporter, which paytoken leaves to the application (neither is in paytoken's build).
//! Every crate the code names is in the dependencies; paytoken from a checkout of its
//! repository, as the README says:
//!
//! ```text
//! # Cargo.toml
//! paytoken = { path = "crates/paytoken", features = ["opentelemetry"] }
//! opentelemetry = "0.31"
//! opentelemetry_sdk = { version = "0.31", features = ["rt-tokio"] }
//! opentelemetry-otlp = { version = "0.31", features = ["grpc-tonic"] }
//! tracing = "0.1"
//! tracing-subscriber = "0.3"
//!
//! // main.rs, inside the tokio runtime
//! use opentelemetry::trace::TracerProvider as _;
//! use tracing_subscriber::layer::SubscriberExt as _;
//!
//! let exporter = opentelemetry_otlp::SpanExporter::builder()
//!     .with_tonic()                    // OTEL_EXPORTER_OTLP_ENDPOINT, or localhost:4317
//!     .build()?;
//! let provider = opentelemetry_sdk::trace::SdkTracerProvider::builder()
//!     .with_batch_exporter(exporter)
//!     .with_resource(
//!         opentelemetry_sdk::Resource::builder().with_service_name("shop").build(),
//!     )
//!     .build();
//! let subscriber = tracing_subscriber::registry()
//!     .with(paytoken::opentelemetry::layer(provider.tracer("shop")))
//!     .with(tracing_subscriber::fmt::layer());
//! tracing::subscriber::set_global_default(subscriber)?;
//! // ... serve; at shutdown, `provider.shutdown()?` sends what is left.
//! ```
//!
//! `url.template` and `url.full` never hold an id (an order id has carried a card number):
//! group by `url.template`, and find one call by `paytoken.merchant_transaction_id` or
//! `paytoken.payment_id`, whose card numbers are masked.
