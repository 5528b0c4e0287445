//! Paging through the invoice list: the next page's request, and when to stop.

use crate::ops::Operation;
use crate::ops::invoice_list::{InvoiceList, InvoicePage, check_pagination};
use crate::{Context, Error, InvalidValue, Invoice, Request};

/// Hands out one page request after another until the list has ended: a page shorter
/// than asked for, an empty page, the gateway's "no records" answer, or a page that repeats
/// the one before it (a gateway that ignores `pagination.pageno`). It never asks for the
/// same page twice after a good answer, so it cannot loop.
///
/// ```
/// use paytoken_checksum::{Credentials, SecureKey};
/// use paytoken_protocol::{Context, InvoicePager};
///
/// let context = Context::new(Credentials::merchant("11344".parse()?, SecureKey::new("key")?));
/// let mut pager = InvoicePager::new(2)?;
/// let mut seen = 0;
/// while let Some(request) = pager.next_request(&context) {
///     let request = request?;
///     // ... send it; here the gateway has three invoices:
///     let body: &[u8] = if request.body().ends_with(b"pageno=1&pagination.records=2") {
///         br#"{"invoiceList":[{"orderId":"1"},{"orderId":"2"}]}"#
///     } else {
///         br#"{"invoiceList":{"orderId":"3"}}"#
///     };
///     seen += pager.parse(200, body)?.invoices.len();
/// }
/// assert_eq!(seen, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct InvoicePager {
    records: u32,
    next_page: Option<u32>,
    /// The invoices of the last full page, to notice a gateway that repeats it.
    previous: Vec<Invoice>,
}

impl InvoicePager {
    /// Pages of `records` invoices, from page 1.
    ///
    /// # Errors
    /// [`InvalidValue`] for `pagination.records` outside 1 to
    /// [`MAX_RECORDS`](crate::ops::invoice_list::MAX_RECORDS).
    pub fn new(records: u32) -> Result<Self, InvalidValue> {
        Self::starting_at(1, records)
    }

    /// Pages of `records` invoices, from page `page`.
    ///
    /// # Errors
    /// [`InvalidValue`] for a page of 0 or records outside 1 to
    /// [`MAX_RECORDS`](crate::ops::invoice_list::MAX_RECORDS).
    pub fn starting_at(page: u32, records: u32) -> Result<Self, InvalidValue> {
        // Checked here, so that `next_request` fails only on the credentials.
        check_pagination(page, records)?;
        Ok(Self {
            records,
            next_page: Some(page),
            previous: Vec::new(),
        })
    }

    /// The page the next request asks for, or `None` when the list has ended.
    #[must_use]
    pub const fn next_page(&self) -> Option<u32> {
        self.next_page
    }

    /// Whether the list has ended.
    #[must_use]
    pub const fn is_done(&self) -> bool {
        self.next_page.is_none()
    }

    /// The request for the next page, or `None` when the list has ended.
    pub fn next_request(&self, context: &Context) -> Option<Result<Request, Error>> {
        let page = self.next_page?;
        Some(InvoiceList::new(page, self.records).request(context))
    }

    /// Reads the answer to the last request and moves on. On an error the pager stays on
    /// the same page, so the caller may ask for it again.
    ///
    /// # Errors
    /// The error of the answer ([`InvoiceList::parse`]).
    pub fn parse(&mut self, status: u16, body: &[u8]) -> Result<InvoicePage, Error> {
        let mut page = InvoiceList::new(1, self.records).parse(status, body)?;
        let Some(current) = self.next_page else {
            return Ok(InvoicePage::default());
        };
        let repeated = !page.invoices.is_empty() && self.previous == page.invoices;
        if repeated {
            page.invoices.clear();
        }
        let full = u32::try_from(page.invoices.len()).is_ok_and(|len| len >= self.records);
        self.next_page = if full { current.checked_add(1) } else { None };
        self.previous = if full {
            page.invoices.clone()
        } else {
            Vec::new()
        };
        Ok(page)
    }
}
