//! The invoice list's irregular shapes, read into one ordered list of [`Invoice`]s.
//!
//! `invoiceList` comes in three shapes, all seen on deployments:
//! - an array of invoice objects;
//! - a single invoice object;
//! - a map keyed by position labels (`"0"`, `"0 "`, `" 1"`), where some of an invoice's
//!   fields (`customerDetails` or `invoiceDetails`, `raiseby`, `orderId`, ...) sit beside
//!   the position key instead of inside it, and keys repeat.
//!
//! The map is read as a stream, in the gateway's order: a position key starts a new
//! invoice, any other key is a field of the invoice whose position key came last before it
//! (or of the single invoice, when there is no position key at all). A map of JSON values
//! could not do this: it sorts the keys and keeps one of each.

use paytoken_types::{Amount, Currency, Timestamp, TransactionState};

use crate::answer::{
    Blank, Field, FromJson, Loose, Object, ReadObject, Text, trimmed, wire_object,
};
use crate::json::{JsonError, Kind, Reader};

/// One invoice.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Invoice {
    /// `amount`.
    pub amount: Option<Field<Amount>>,
    /// `currency`.
    pub currency: Option<Field<Currency>>,
    /// `expirationPeriod`, numeric text (the unit is not stated).
    pub expiration_period: Option<String>,
    /// `createdDate`, with its fraction (`2018-07-26 17:10:06.0`).
    pub created_date: Option<Field<Timestamp>>,
    /// `systemInvoiceId`.
    pub system_invoice_id: Option<String>,
    /// `transactionUrl`: the invoice's payment page.
    pub transaction_url: Option<String>,
    /// `invoiceStatus`: `processed`, `mailsent`, ...
    pub invoice_status: Option<String>,
    /// `transactionStatus`: the long status, `capturesuccess`, ...
    pub transaction_status: Option<Field<TransactionState>>,
    /// `customerDetails` (or `invoiceDetails`).
    pub customer: Option<InvoiceCustomer>,
    /// `raiseby`: who raised the invoice.
    pub raised_by: Option<String>,
    /// `orderId`.
    pub order_id: Option<String>,
    /// `orderDescription`.
    pub order_description: Option<String>,
    /// `trackingid`.
    pub tracking_id: Option<String>,
    /// `dtstamp`, numeric text.
    pub dtstamp: Option<String>,
}

/// The customer of an invoice (`customerDetails`, also named `invoiceDetails`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct InvoiceCustomer {
    /// `customername`.
    pub name: Option<String>,
    /// `customeraddress`.
    pub address: Option<String>,
    /// `customermobileno`.
    pub mobile: Option<String>,
    /// `customeremail`.
    pub email: Option<String>,
}

wire_object! {
    struct WireCustomer {
        name: Text = "customername",
        address: Text = "customeraddress",
        mobile: Text = "customermobileno",
        email: Text = "customeremail",
    }
}

impl From<WireCustomer> for InvoiceCustomer {
    fn from(wire: WireCustomer) -> Self {
        Self {
            name: wire.name.0,
            address: wire.address.0,
            mobile: wire.mobile.0,
            email: wire.email.0,
        }
    }
}

impl Blank for Invoice {
    fn is_blank(&self) -> bool {
        *self == Self::default()
    }
}

impl Invoice {
    /// Reads the value of `key` into its field, tolerantly (see [`crate::answer`]); an
    /// unknown key's value is skipped.
    fn read_field(&mut self, key: &str, reader: &mut Reader<'_>) -> Result<(), JsonError> {
        fn text(reader: &mut Reader<'_>) -> Result<Option<String>, JsonError> {
            Text::from_json(reader).map(|text| text.0)
        }
        fn loose<T: paytoken_types::Tolerant>(
            reader: &mut Reader<'_>,
        ) -> Result<Option<Field<T>>, JsonError> {
            Loose::from_json(reader).map(|loose| loose.0)
        }
        match trimmed(key) {
            "amount" => self.amount = loose(reader)?,
            "currency" => self.currency = loose(reader)?,
            "expirationPeriod" => self.expiration_period = text(reader)?,
            "createdDate" => self.created_date = loose(reader)?,
            "systemInvoiceId" => self.system_invoice_id = text(reader)?,
            "transactionUrl" => self.transaction_url = text(reader)?,
            "invoiceStatus" => self.invoice_status = text(reader)?,
            "transactionStatus" => self.transaction_status = loose(reader)?,
            "customerDetails" | "invoiceDetails" => {
                self.customer = Object::<WireCustomer>::from_json(reader)?
                    .0
                    .map(InvoiceCustomer::from);
            }
            "raiseby" => self.raised_by = text(reader)?,
            "orderId" => self.order_id = text(reader)?,
            "orderDescription" => self.order_description = text(reader)?,
            "trackingid" => self.tracking_id = text(reader)?,
            "dtstamp" => self.dtstamp = text(reader)?,
            _ => reader.skip()?,
        }
        Ok(())
    }
}

impl ReadObject for Invoice {
    fn read_fields(&mut self, reader: &mut Reader<'_>) -> Result<(), JsonError> {
        reader.object(|reader, key| self.read_field(key, reader))
    }
}

/// Whether a key is a position label: digits, maybe with stray spaces around them.
fn is_position(key: &str) -> bool {
    let key = trimmed(key);
    !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit())
}

/// `invoiceList` in any of its shapes, as the invoices in the gateway's order.
#[derive(Debug, Default)]
pub(crate) struct InvoiceEntries(pub(crate) Vec<Invoice>);

impl Blank for InvoiceEntries {
    fn is_blank(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromJson for InvoiceEntries {
    fn from_json(reader: &mut Reader<'_>) -> Result<Self, JsonError> {
        let mut invoices = Vec::new();
        match reader.kind()? {
            Kind::Array => reader.array(|reader| {
                invoices.extend(Object::<Invoice>::from_json(reader)?.0);
                Ok(())
            })?,
            Kind::Object => {
                let mut current: Option<Invoice> = None;
                reader.object(|reader, key| {
                    if is_position(key) {
                        invoices.extend(current.take());
                        current = Some(Object::from_json(reader)?.0.unwrap_or_default());
                        Ok(())
                    } else {
                        current
                            .get_or_insert_with(Invoice::default)
                            .read_field(key, reader)
                    }
                })?;
                invoices.extend(current);
            }
            // Anything else holds no invoice: an empty list, as the gateway's `""` means. (A
            // number is read past here, never kept: money is never a float.)
            Kind::String | Kind::Null | Kind::Scalar => reader.skip()?,
        }
        Ok(Self(invoices))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Vec<Invoice> {
        crate::answer::read_all::<InvoiceEntries>(json).unwrap().0
    }

    #[test]
    fn spilled_fields_belong_to_the_invoice_before_them() {
        let invoices = parse(
            r#"{"0 ":{"amount":"10.00","orderId":"A"},"customerDetails":{"customername":"Ann"},"raiseby":"shop",
                " 1":{"amount":"20.00"},"invoiceDetails":{"customername":"Bob"},"orderId":"B","orderId":"B2"}"#,
        );
        assert_eq!(invoices.len(), 2);
        assert_eq!(invoices[0].order_id.as_deref(), Some("A"));
        assert_eq!(
            invoices[0].customer.as_ref().unwrap().name.as_deref(),
            Some("Ann")
        );
        assert_eq!(invoices[0].raised_by.as_deref(), Some("shop"));
        assert_eq!(
            invoices[1].amount.as_ref().and_then(Field::value),
            Some(&"20.00".parse().unwrap())
        );
        assert_eq!(
            invoices[1].customer.as_ref().unwrap().name.as_deref(),
            Some("Bob")
        );
        assert_eq!(invoices[1].order_id.as_deref(), Some("B2"));
    }

    #[test]
    fn array_single_object_and_empty() {
        assert_eq!(parse(r#"[{"orderId":"A"},{"orderId":"B"}]"#).len(), 2);
        let single = parse(r#"{"orderId":"A","amount":"1.00","unknown":{"x":[1,2]}}"#);
        assert_eq!(single.len(), 1);
        assert_eq!(single[0].order_id.as_deref(), Some("A"));
        assert!(parse("{}").is_empty());
        assert!(parse(r#""""#).is_empty());
        assert!(parse("null").is_empty());
    }
}
