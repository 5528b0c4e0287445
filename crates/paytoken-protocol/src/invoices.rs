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
//! (or of the single invoice, when there is no position key at all). A `serde_json::Value`
//! could not do this: its map sorts the keys and keeps one of each.

use core::fmt;

use paytoken_types::{Amount, Currency, Timestamp, TransactionState};
use serde::de::{self, MapAccess, SeqAccess};
use serde::{Deserialize, Deserializer};

use crate::answer::{Blank, Field, Key, Loose, Object, Text, skip, wire_object};

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
    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        fn text<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Option<String>, A::Error> {
            map.next_value::<Text>().map(|text| text.0)
        }
        match key.trim() {
            "amount" => self.amount = map.next_value::<Loose<_>>()?.0,
            "currency" => self.currency = map.next_value::<Loose<_>>()?.0,
            "expirationPeriod" => self.expiration_period = text(map)?,
            "createdDate" => self.created_date = map.next_value::<Loose<_>>()?.0,
            "systemInvoiceId" => self.system_invoice_id = text(map)?,
            "transactionUrl" => self.transaction_url = text(map)?,
            "invoiceStatus" => self.invoice_status = text(map)?,
            "transactionStatus" => self.transaction_status = map.next_value::<Loose<_>>()?.0,
            "customerDetails" | "invoiceDetails" => {
                self.customer = map
                    .next_value::<Object<WireCustomer>>()?
                    .0
                    .map(InvoiceCustomer::from);
            }
            "raiseby" => self.raised_by = text(map)?,
            "orderId" => self.order_id = text(map)?,
            "orderDescription" => self.order_description = text(map)?,
            "trackingid" => self.tracking_id = text(map)?,
            "dtstamp" => self.dtstamp = text(map)?,
            _ => skip(map)?,
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Invoice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;

        impl<'de> de::Visitor<'de> for Visitor {
            type Value = Invoice;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an invoice object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Invoice, A::Error> {
                let mut invoice = Invoice::default();
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    invoice.read_field(&key.0, &mut map)?;
                }
                Ok(invoice)
            }
        }

        deserializer.deserialize_map(Visitor)
    }
}

/// Whether a key is a position label: digits, maybe with stray spaces around them.
fn is_position(key: &str) -> bool {
    let key = key.trim();
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

impl<'de> Deserialize<'de> for InvoiceEntries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;

        impl<'de> de::Visitor<'de> for Visitor {
            type Value = InvoiceEntries;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of invoices, an invoice, or a map of position labels")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<InvoiceEntries, A::Error> {
                let mut invoices = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
                while let Some(Object(invoice)) = seq.next_element::<Object<Invoice>>()? {
                    invoices.extend(invoice);
                }
                Ok(InvoiceEntries(invoices))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<InvoiceEntries, A::Error> {
                let mut invoices = Vec::new();
                let mut current: Option<Invoice> = None;
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    if is_position(&key.0) {
                        invoices.extend(current.take());
                        current = Some(map.next_value::<Object<Invoice>>()?.0.unwrap_or_default());
                    } else {
                        current
                            .get_or_insert_with(Invoice::default)
                            .read_field(&key.0, &mut map)?;
                    }
                }
                invoices.extend(current);
                Ok(InvoiceEntries(invoices))
            }

            // Anything else holds no invoice: an empty list, as the gateway's `""` means. (A
            // float is read past here, never kept: money is never a float.)
            fn visit_str<E: de::Error>(self, _: &str) -> Result<InvoiceEntries, E> {
                Ok(InvoiceEntries::default())
            }

            fn visit_unit<E: de::Error>(self) -> Result<InvoiceEntries, E> {
                Ok(InvoiceEntries::default())
            }

            fn visit_bool<E: de::Error>(self, _: bool) -> Result<InvoiceEntries, E> {
                Ok(InvoiceEntries::default())
            }

            fn visit_u64<E: de::Error>(self, _: u64) -> Result<InvoiceEntries, E> {
                Ok(InvoiceEntries::default())
            }

            fn visit_i64<E: de::Error>(self, _: i64) -> Result<InvoiceEntries, E> {
                Ok(InvoiceEntries::default())
            }

            fn visit_f64<E: de::Error>(self, _: f64) -> Result<InvoiceEntries, E> {
                Ok(InvoiceEntries::default())
            }
        }

        deserializer.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Vec<Invoice> {
        serde_json::from_str::<InvoiceEntries>(json).unwrap().0
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
