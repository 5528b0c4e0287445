//! One page of the invoice list (`POST /invoiceServices/REST/v1/getInvoice`); page through
//! all of them with [`crate::InvoicePager`].

use paytoken_types::{GatewayResult, MemberId, PartnerId};

use super::{Operation, SMALL_BODY};
use crate::answer::{Field, wire_object};
use crate::invoices::{Invoice, InvoiceEntries};
use crate::signed::{AuthFields, Signed, SignedRequest};
use crate::wire::{self, Owner};
use crate::{Context, Error, InvalidValue, OperationKind, Request, fields};

/// The path of the invoice list.
pub const PATH: &str = "/invoiceServices/REST/v1/getInvoice";

/// The most records per page accepted.
pub const MAX_RECORDS: u32 = 1000;

/// Asks for page `page` (from 1) of `records` invoices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvoiceList {
    /// `pagination.pageno`, from 1.
    pub page: u32,
    /// `pagination.records`: invoices per page, 1 to [`MAX_RECORDS`].
    pub records: u32,
}

impl InvoiceList {
    /// Page `page` of `records` invoices.
    #[must_use]
    pub const fn new(page: u32, records: u32) -> Self {
        Self { page, records }
    }

    /// Checks the page (from 1) and the records per page (1 to [`MAX_RECORDS`]).
    ///
    /// # Errors
    /// [`Error::Invalid`] for `pagination.pageno` or `pagination.records`.
    pub const fn validate(&self) -> Result<(), Error> {
        match check_pagination(self.page, self.records) {
            Ok(()) => Ok(()),
            Err(InvalidValue { field, reason }) => Err(Error::Invalid { field, reason }),
        }
    }
}

/// Checks a page number and a page size: what [`InvoiceList::validate`] and
/// [`InvoicePager`](crate::InvoicePager) both ask.
pub(crate) const fn check_pagination(page: u32, records: u32) -> Result<(), InvalidValue> {
    if page == 0 {
        return Err(InvalidValue {
            field: "pagination.pageno",
            reason: "pages count from 1",
        });
    }
    if records == 0 || records > MAX_RECORDS {
        return Err(InvalidValue {
            field: "pagination.records",
            reason: "is 1 to 1000",
        });
    }
    Ok(())
}

/// One page of invoices.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct InvoicePage {
    /// `memberId` or `partnerId`.
    pub owner: Option<Owner>,
    /// The invoices, in the gateway's order.
    pub invoices: Vec<Invoice>,
    /// `result` (or `statusInvoiceResult`), when the gateway sent one.
    pub result: Option<GatewayResult>,
}

wire_object! {
    struct WirePage {
        member_id: Option<Field<MemberId>> = "memberId",
        partner_id: Option<Field<PartnerId>> = "partnerId",
        invoice_list: InvoiceEntries = "invoiceList",
        result: Option<GatewayResult> = "result" | "statusInvoiceResult",
    }
}

/// Whether a refusal is the gateway's way of saying the list is empty.
fn is_no_records(result: &GatewayResult) -> bool {
    let description = result.description.to_ascii_lowercase();
    ["no record", "no invoice", "no data"]
        .iter()
        .any(|phrase| description.contains(phrase))
}

/// The checksum rule of the invoice list: `id|key`, nothing more.
const SIGNED: &[Signed] = &[];

impl Operation for InvoiceList {
    type Response = InvoicePage;
    const KIND: OperationKind = OperationKind::InvoiceList;

    fn request(&self, context: &Context) -> Result<Request, Error> {
        self.validate()?;
        SignedRequest::new(
            Self::KIND,
            context,
            SIGNED,
            PATH,
            SMALL_BODY,
            AuthFields::ID_ONLY,
        )
        .form(|form| {
            form.display(fields::PAGE_NUMBER, &self.page);
            form.display(fields::PAGE_RECORDS, &self.records);
        })
        .finish()
    }

    /// Decided by the result code, when there is one; an answer that says there are no
    /// records is an empty page, not an error.
    fn parse(&self, status: u16, body: &[u8]) -> Result<InvoicePage, Error> {
        parse_page(status, body)
    }
}

/// Reads the answer to an invoice page: for [`Operation::parse`], and for a recorded
/// answer (`crate::recorded`).
pub(crate) fn parse_page(status: u16, body: &[u8]) -> Result<InvoicePage, Error> {
    let wire: WirePage = wire::decode(OperationKind::InvoiceList, status, body)?;
    let result = wire.result;
    if let Some(result) = result.as_ref().filter(|r| !r.code.is_success()) {
        // "No records" leaves the list out; any other refusal is an error.
        if !(wire.invoice_list.0.is_empty() && is_no_records(result)) {
            return Err(wire::refused(OperationKind::InvoiceList, result.clone()));
        }
    }
    Ok(InvoicePage {
        owner: Owner::from_fields(wire.member_id, wire.partner_id),
        invoices: wire.invoice_list.0,
        result,
    })
}
