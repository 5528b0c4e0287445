//! Invoices: one page, a stream of them all (one page in memory at a time), every page by
//! hand, or the whole list at once.
//!
//! ```
//! use futures_util::StreamExt as _;
//! use paytoken::prelude::*;
//! use paytoken::InvoicePager;
//! use paytoken::sandbox::TestGateway;
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let gateway = TestGateway::start().await?;
//! let client = gateway.client();
//!
//! let first = client.invoice_page(&InvoiceList::new(1, 5)).await?;
//! assert_eq!(first.invoices.len(), 5);
//!
//! // A stream of every invoice, the next page asked for when one is used up.
//! let streamed = {
//!     let mut stream = std::pin::pin!(client.invoices(5));
//!     let mut streamed = 0;
//!     while let Some(invoice) = stream.next().await {
//!         invoice?;
//!         streamed += 1;
//!     }
//!     streamed
//! };
//!
//! // Page by page by hand; the pager knows when the list ends.
//! let mut pager = InvoicePager::new(5)?;
//! let mut counted = 0;
//! while !pager.is_done() {
//!     counted += client.next_invoice_page(&mut pager).await?.invoices.len();
//! }
//!
//! // Or the whole list at once, for a short one.
//! let all = client.all_invoices(5).await?;
//! assert_eq!(all.len(), counted);
//! assert_eq!(streamed, counted);
//!
//! // A page size the gateway cannot take is the stream's one item.
//! let refused: Vec<_> = client.invoices(0).collect().await;
//! assert!(matches!(refused.as_slice(), [Err(error)] if error.is_invalid_input()));
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
