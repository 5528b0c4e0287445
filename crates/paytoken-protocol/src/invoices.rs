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

use serde::de::{Deserialize, Deserializer, MapAccess};
use serde_json::value::RawValue;

use crate::answer::{
    Blank, Field, Member, WireObject, object_in, read_object, trimmed, wire_object,
};

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

wire_object!(impl InvoiceCustomer {
    name = "customername",
    address = "customeraddress",
    mobile = "customermobileno",
    email = "customeremail",
});

wire_object!(impl Invoice {
    amount = "amount",
    currency = "currency",
    expiration_period = "expirationPeriod",
    created_date = "createdDate",
    system_invoice_id = "systemInvoiceId",
    transaction_url = "transactionUrl",
    invoice_status = "invoiceStatus",
    transaction_status = "transactionStatus",
    customer = "customerDetails" | "invoiceDetails",
    raised_by = "raiseby",
    order_id = "orderId",
    order_description = "orderDescription",
    tracking_id = "trackingid",
    dtstamp = "dtstamp",
});

/// `invoiceList` as an object: a position map, or a single invoice (see the module docs),
/// read member by member: a position key starts a new invoice, any other key is a field of
/// the invoice begun last.
#[derive(Default)]
struct PositionMap {
    invoices: Vec<Invoice>,
    current: Option<Invoice>,
}

impl PositionMap {
    /// The invoices it holds, in the gateway's order.
    fn into_invoices(mut self) -> Vec<Invoice> {
        self.invoices.extend(self.current);
        self.invoices
    }
}

impl Blank for PositionMap {
    fn is_blank(&self) -> bool {
        self.invoices.is_empty() && self.current.is_none()
    }
}

impl WireObject for PositionMap {
    fn empty() -> Self {
        Self::default()
    }

    fn read_member<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        if is_position(key) {
            self.invoices.extend(self.current.take());
            self.current = Some(Option::<Invoice>::read(map)?.unwrap_or_default());
            Ok(())
        } else {
            self.current
                .get_or_insert_with(Invoice::default)
                .read_member(key, map)
        }
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

impl Member for InvoiceEntries {
    fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        map.next_value()
    }
}

impl<'de> Deserialize<'de> for InvoiceEntries {
    fn deserialize<D: Deserializer<'de>>(input: D) -> Result<Self, D::Error> {
        let raw = <&RawValue>::deserialize(input)?;
        let json = raw.get();
        let invoices = match json.as_bytes().first() {
            Some(b'[') => serde_json::from_str::<Vec<&RawValue>>(json)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|item| object_in::<Invoice>(item, 1))
                .collect(),
            Some(b'{') => read_object::<PositionMap>(json)
                .map(PositionMap::into_invoices)
                .unwrap_or_default(),
            // Anything else holds no invoice: an empty list, as the gateway's `""` means. (A
            // number is read past here, never kept: money is never a float.)
            _ => Vec::new(),
        };
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
