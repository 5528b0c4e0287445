//! The invoice list's irregular shapes, read into one ordered list of [`Invoice`]s.
//!
//! `invoiceList` comes in three shapes (field notes):
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

use paytoken_types::{Amount, Currency, Timestamp};
use serde::de::{self, IgnoredAny, MapAccess, SeqAccess};
use serde::{Deserialize, Deserializer};

use crate::wire::CowStr;

/// One invoice.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Invoice {
    /// `amount`.
    pub amount: Option<Amount>,
    /// `currency`.
    pub currency: Option<Currency>,
    /// `expirationPeriod`, numeric text (the unit is not stated).
    pub expiration_period: Option<String>,
    /// `createdDate`, with its fraction (`2018-07-26 17:10:06.0`).
    pub created_date: Option<Timestamp>,
    /// `systemInvoiceId`.
    pub system_invoice_id: Option<String>,
    /// `transactionUrl`: the invoice's payment page.
    pub transaction_url: Option<String>,
    /// `invoiceStatus`: `processed`, `mailsent`, ...
    pub invoice_status: Option<String>,
    /// `transactionStatus`: `capturesuccess`, ...
    pub transaction_status: Option<String>,
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
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[non_exhaustive]
pub struct InvoiceCustomer {
    /// `customername`.
    #[serde(rename = "customername")]
    pub name: Option<String>,
    /// `customeraddress`.
    #[serde(rename = "customeraddress")]
    pub address: Option<String>,
    /// `customermobileno`.
    #[serde(rename = "customermobileno")]
    pub mobile: Option<String>,
    /// `customeremail`.
    #[serde(rename = "customeremail")]
    pub email: Option<String>,
}

impl Invoice {
    /// Reads the value of `key` into its field; an unknown key's value is skipped.
    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
    ) -> Result<(), A::Error> {
        match key.trim() {
            "amount" => self.amount = map.next_value()?,
            "currency" => self.currency = map.next_value()?,
            "expirationPeriod" => self.expiration_period = map.next_value()?,
            "createdDate" => self.created_date = map.next_value()?,
            "systemInvoiceId" => self.system_invoice_id = map.next_value()?,
            "transactionUrl" => self.transaction_url = map.next_value()?,
            "invoiceStatus" => self.invoice_status = map.next_value()?,
            "transactionStatus" => self.transaction_status = map.next_value()?,
            "customerDetails" | "invoiceDetails" => self.customer = map.next_value()?,
            "raiseby" => self.raised_by = map.next_value()?,
            "orderId" => self.order_id = map.next_value()?,
            "orderDescription" => self.order_description = map.next_value()?,
            "trackingid" => self.tracking_id = map.next_value()?,
            "dtstamp" => self.dtstamp = map.next_value()?,
            _ => {
                map.next_value::<IgnoredAny>()?;
            }
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
                while let Some(key) = map.next_key::<CowStr<'de>>()? {
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
                while let Some(invoice) = seq.next_element()? {
                    invoices.push(invoice);
                }
                Ok(InvoiceEntries(invoices))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<InvoiceEntries, A::Error> {
                let mut invoices = Vec::new();
                let mut current: Option<Invoice> = None;
                while let Some(key) = map.next_key::<CowStr<'de>>()? {
                    if is_position(&key.0) {
                        invoices.extend(current.take());
                        current = Some(map.next_value()?);
                    } else {
                        current
                            .get_or_insert_with(Invoice::default)
                            .read_field(&key.0, &mut map)?;
                    }
                }
                invoices.extend(current);
                Ok(InvoiceEntries(invoices))
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<InvoiceEntries, E> {
                if text.trim().is_empty() {
                    Ok(InvoiceEntries::default())
                } else {
                    Err(E::invalid_type(de::Unexpected::Str("text"), &self))
                }
            }

            fn visit_unit<E: de::Error>(self) -> Result<InvoiceEntries, E> {
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
        assert_eq!(invoices[1].amount, Some("20.00".parse().unwrap()));
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
