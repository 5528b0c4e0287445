//! The baseline: the same payment as a typical hand-written integration does it, with
//! `format!` and the `md5` crate for the checksum, `serde_urlencoded` on a derived struct
//! for the body, and `serde_json::Value` for the answer. Bench code only.
#![allow(
    missing_docs,
    clippy::indexing_slicing,
    reason = "hand-written code as integrations write it: fields named as the wire names them, \
              a missing key read as null"
)]

use serde::Serialize;
use serde_json::Value;

/// The payment's fields as strings, the way hand-written code holds them.
#[derive(Debug)]
pub struct PaymentInput {
    pub member_id: String,
    pub account_id: String,
    pub terminal_id: String,
    pub secure_key: String,
    pub merchant_transaction_id: String,
    pub amount_minor: u64,
    pub currency: String,
}

impl PaymentInput {
    pub fn sample() -> Self {
        Self {
            member_id: "11344".into(),
            account_id: "5521".into(),
            terminal_id: "2541".into(),
            secure_key: crate::payment::SECURE_KEY.into(),
            merchant_transaction_id: "order20261122A".into(),
            amount_minor: 125_050,
            currency: "EUR".into(),
        }
    }
}

#[derive(Serialize)]
struct PaymentForm<'a> {
    #[serde(rename = "authentication.memberId")]
    member_id: &'a str,
    #[serde(rename = "authentication.accountId")]
    account_id: &'a str,
    #[serde(rename = "authentication.checksum")]
    checksum: String,
    #[serde(rename = "authentication.terminalId")]
    terminal_id: &'a str,
    #[serde(rename = "merchantTransactionId")]
    merchant_transaction_id: &'a str,
    amount: &'a str,
    currency: &'a str,
    #[serde(rename = "shipping.country")]
    shipping_country: &'a str,
    #[serde(rename = "shipping.city")]
    shipping_city: &'a str,
    #[serde(rename = "shipping.state")]
    shipping_state: &'a str,
    #[serde(rename = "shipping.postcode")]
    shipping_postcode: &'a str,
    #[serde(rename = "shipping.street1")]
    shipping_street1: &'a str,
    #[serde(rename = "shipping.language")]
    shipping_language: &'a str,
    #[serde(rename = "customer.givenName")]
    given_name: &'a str,
    #[serde(rename = "customer.surname")]
    surname: &'a str,
    #[serde(rename = "customer.sex")]
    sex: &'a str,
    #[serde(rename = "customer.email")]
    email: &'a str,
    #[serde(rename = "customer.phone")]
    phone: &'a str,
    #[serde(rename = "customer.telnocc")]
    telnocc: &'a str,
    #[serde(rename = "customer.birthDate")]
    birth_date: &'a str,
    #[serde(rename = "customer.ip")]
    ip: &'a str,
    #[serde(rename = "customer.customerId")]
    customer_id: &'a str,
    #[serde(rename = "card.number")]
    card_number: &'a str,
    #[serde(rename = "card.expiryMonth")]
    expiry_month: &'a str,
    #[serde(rename = "card.expiryYear")]
    expiry_year: &'a str,
    #[serde(rename = "card.cvv")]
    cvv: &'a str,
    #[serde(rename = "card.holder")]
    holder: &'a str,
    #[serde(rename = "paymentBrand")]
    brand: &'a str,
    #[serde(rename = "paymentMode")]
    mode: &'a str,
    #[serde(rename = "paymentType")]
    payment_type: &'a str,
    #[serde(rename = "merchantRedirectUrl")]
    redirect_url: &'a str,
    #[serde(rename = "notificationUrl")]
    notification_url: &'a str,
    #[serde(rename = "createRegistration")]
    create_registration: &'a str,
    #[serde(rename = "recurringType")]
    recurring_type: &'a str,
    #[serde(rename = "orderDescriptor")]
    order_descriptor: &'a str,
    tmpl_amount: &'a str,
    tmpl_currency: &'a str,
    #[serde(rename = "billing.country")]
    billing_country: &'a str,
    #[serde(rename = "billing.street")]
    billing_street: &'a str,
}

/// Builds the same body as the golden `payment.http`.
pub fn build_payment(input: &PaymentInput) -> String {
    let amount = format!(
        "{}.{:02}",
        input.amount_minor / 100,
        input.amount_minor % 100
    );
    let joined = format!(
        "{}|{}|{}|{}",
        input.member_id, input.secure_key, input.merchant_transaction_id, amount
    );
    let checksum = format!("{:x}", md5_oracle::compute(joined.as_bytes()));
    let form = PaymentForm {
        member_id: &input.member_id,
        account_id: &input.account_id,
        checksum,
        terminal_id: &input.terminal_id,
        merchant_transaction_id: &input.merchant_transaction_id,
        amount: &amount,
        currency: &input.currency,
        shipping_country: "DE",
        shipping_city: "München",
        shipping_state: "BY",
        shipping_postcode: "80331",
        shipping_street1: "Marienplatz 1",
        shipping_language: "de",
        given_name: "Zoë",
        surname: "O'Neil",
        sex: "female",
        email: "zoe.oneil@example.com",
        phone: "9876543210",
        telnocc: "+49",
        birth_date: "19840229",
        ip: "192.0.2.17",
        customer_id: "1250",
        card_number: "4000000000000051",
        expiry_month: "06",
        expiry_year: "2030",
        cvv: "745",
        holder: "Zoë O'Neil",
        brand: "VISA",
        mode: "CC",
        payment_type: "DB",
        redirect_url: "https://shop.example/return?order=1001&lang=de",
        notification_url: "https://shop.example/hooks/payment",
        create_registration: "true",
        recurring_type: "INITIAL",
        order_descriptor: "Order #1001: 2× coffee & cake",
        tmpl_amount: &amount,
        tmpl_currency: "EUR",
        billing_country: "DE",
        billing_street: "Marienplatz 1",
    };
    serde_urlencoded::to_string(&form).unwrap()
}

/// What hand-written code takes from the answer.
#[derive(Debug)]
pub struct Answer {
    pub approved: bool,
    pub payment_id: String,
    pub registration_id: Option<String>,
    pub code: String,
    pub description: String,
    pub amount: Option<String>,
    pub timestamp: Option<String>,
}

pub fn parse_payment(body: &[u8]) -> Answer {
    let value: Value = serde_json::from_slice(body).unwrap();
    let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
    let code = value["result"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    Answer {
        approved: value["transactionStatus"] == "Y" || code == "00001",
        payment_id: text("paymentId").unwrap_or_default(),
        registration_id: text("registrationId"),
        description: value["result"]["description"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        code,
        amount: text("amount"),
        timestamp: text("timestamp"),
    }
}
