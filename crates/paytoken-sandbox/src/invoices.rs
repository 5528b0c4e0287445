//! Invoices: seeded for every merchant when the sandbox starts, one more for each approved
//! payment, listed page by page in the shape the sandbox was asked for.

use paytoken_types::{Amount, Currency, Timestamp};

use crate::config::SandboxConfig;
use crate::json::Object;
use crate::state::{Invoice, InvoiceStatus, Payment, Principal, State, Status};

/// How many invoices each merchant starts with.
pub const SEEDED_INVOICES_PER_MERCHANT: usize = 12;

/// The shape of the invoice list, all three seen on real gateways.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum InvoiceShape {
    /// The wire's usual list: an array, or a single object when the page holds one invoice.
    #[default]
    OneOrMany,
    /// Always an array, even of one.
    Array,
    /// The documentation's map of position labels (`"0 "`, `" 1"`, ...), with customer details
    /// (alternately named `customerDetails` and `invoiceDetails`) and the order fields
    /// spilled beside each position key, and the result named `statusInvoiceResult`.
    PositionMap,
}

const CUSTOMERS: [(&str, &str); 4] = [
    ("Zoë O'Neil", "zoe@example.com"),
    ("Ann Example", "ann@example.com"),
    ("Bob Example", "bob@example.com"),
    ("Chidi Okafor", "chidi@example.com"),
];

/// Gives every merchant its first invoices, a day apart, ending the day before `now`.
pub(crate) fn seed(config: &SandboxConfig, now: i64, state: &mut State) {
    for (partner, partner_config) in config.partners.iter().enumerate() {
        for (merchant, merchant_config) in partner_config.merchants.iter().enumerate() {
            let owner = Principal::Merchant { partner, merchant };
            for n in 1..=SEEDED_INVOICES_PER_MERCHANT {
                let days_ago = i64::try_from(SEEDED_INVOICES_PER_MERCHANT + 1 - n).unwrap_or(0);
                let (name, email) = CUSTOMERS
                    .get(n % CUSTOMERS.len())
                    .copied()
                    .unwrap_or_default();
                let minor_units = u64::try_from(n).unwrap_or(1) * 1_000 + 99;
                push(
                    state,
                    Invoice {
                        owner,
                        system_invoice_id: format!("INV-{}-{n:04}", merchant_config.member_id),
                        amount: Amount::from_minor_units(minor_units),
                        currency: Currency::EUR,
                        created: String::new(),
                        unix_seconds: now - days_ago * 86_400,
                        status: if n % 3 == 0 {
                            InvoiceStatus::MailSent
                        } else {
                            InvoiceStatus::Processed
                        },
                        customer_name: name.into(),
                        customer_email: email.into(),
                        order_id: format!("ORDER{n:04}"),
                        order_description: format!("Seeded order {n}"),
                    },
                );
            }
        }
    }
}

/// An approved payment raises an invoice, already processed.
pub(crate) fn record_payment(state: &mut State, payment: &Payment, now: i64) {
    if payment.status != Status::Approved {
        return;
    }
    let order_id = payment
        .merchant_transaction_id
        .as_ref()
        .map_or_else(|| payment.payment_id.to_string(), ToString::to_string);
    push(
        state,
        Invoice {
            owner: payment.owner,
            system_invoice_id: format!("INV-{}", payment.payment_id),
            amount: payment.amount,
            currency: payment.currency,
            created: String::new(),
            unix_seconds: now,
            status: InvoiceStatus::Processed,
            customer_name: "Sandbox Customer".into(),
            customer_email: "customer@example.com".into(),
            order_id,
            order_description: format!("Payment {}", payment.payment_id),
        },
    );
}

fn push(state: &mut State, mut invoice: Invoice) {
    invoice.created = Timestamp::from_unix_seconds(invoice.unix_seconds)
        .map(|time| format!("{time}.0"))
        .unwrap_or_default();
    state.push_invoice(invoice);
}

/// Writes one page's `invoiceList` and its result in `shape`.
pub(crate) fn write_page(answer: &mut Object<'_>, shape: InvoiceShape, page: &[&Invoice]) {
    let result_key = if shape == InvoiceShape::PositionMap {
        "statusInvoiceResult"
    } else {
        "result"
    };
    answer.result(
        result_key,
        crate::codes::INVOICES_FOUND.code,
        crate::codes::INVOICES_FOUND.description,
    );
    match shape {
        InvoiceShape::OneOrMany => {
            answer.one_or_many("invoiceList", page, |entry, invoice| {
                write_full(entry, invoice)
            });
        }
        InvoiceShape::Array => {
            answer.array("invoiceList", page, |entry, invoice| {
                write_full(entry, invoice)
            });
        }
        InvoiceShape::PositionMap => {
            answer.object("invoiceList", |map| write_position_map(map, page));
        }
    }
}

/// Every field inside the invoice's own object.
fn write_full(entry: &mut Object<'_>, invoice: &Invoice) {
    write_core(entry, invoice);
    entry.object("customerDetails", |details| {
        write_customer(details, invoice)
    });
    write_order(entry, invoice);
}

fn write_core(entry: &mut Object<'_>, invoice: &Invoice) {
    entry
        .field("amount", invoice.amount.to_wire().as_str())
        .field("currency", invoice.currency)
        .field("expirationPeriod", "7")
        .field("createdDate", &invoice.created)
        .field("systemInvoiceId", &invoice.system_invoice_id)
        .field(
            "transactionUrl",
            format!(
                "https://sandbox.paytoken.invalid/invoice/{}",
                invoice.system_invoice_id
            ),
        )
        .field("invoiceStatus", invoice.status.as_str())
        .field("transactionStatus", "capturesuccess");
}

fn write_customer(details: &mut Object<'_>, invoice: &Invoice) {
    details
        .field("customername", &invoice.customer_name)
        .field("customeremail", &invoice.customer_email);
}

fn write_order(entry: &mut Object<'_>, invoice: &Invoice) {
    entry
        .field("raiseby", "merchant")
        .field("orderId", &invoice.order_id)
        .field("orderDescription", &invoice.order_description)
        .field("trackingid", &invoice.system_invoice_id)
        .field("dtstamp", invoice.unix_seconds.to_string());
}

/// The documentation's irregular map: position keys with stray spaces, and the customer and
/// order fields beside the key rather than inside it (so keys repeat).
fn write_position_map(map: &mut Object<'_>, page: &[&Invoice]) {
    for (position, invoice) in page.iter().enumerate() {
        let label = match position % 3 {
            0 => format!("{position} "),
            1 => format!(" {position}"),
            _ => position.to_string(),
        };
        map.object(&label, |entry| write_core(entry, invoice));
        let details = if position % 2 == 0 {
            "customerDetails"
        } else {
            "invoiceDetails"
        };
        map.object(details, |object| write_customer(object, invoice));
        write_order(map, invoice);
    }
}
