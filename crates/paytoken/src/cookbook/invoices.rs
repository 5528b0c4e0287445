//! Invoices: one page, every page one at a time, or the whole list at once.
//!
//! ```
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
//! // Page by page, one page in memory at a time; the pager knows when the list ends.
//! let mut pager = InvoicePager::new(5)?;
//! let mut counted = 0;
//! while !pager.is_done() {
//!     counted += client.next_invoice_page(&mut pager).await?.invoices.len();
//! }
//!
//! // Or the whole list at once, for a short one.
//! let all = client.all_invoices(5).await?;
//! assert_eq!(all.len(), counted);
//! gateway.shutdown().await;
//! # Ok(()) }
//! ```
