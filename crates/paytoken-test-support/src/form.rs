//! A full payment form, as the payments endpoint takes it: shared by the types' allocation
//! test and their encoding benchmark.

use core::net::{IpAddr, Ipv4Addr};

use paytoken_types::internal::FormWriter;
use paytoken_types::{
    AccountId, Amount, Card, CardNumber, CountryCode, Currency, Customer, CustomerId, Cvv, Email,
    ExpiryMonth, ExpiryYear, MemberId, MerchantTransactionId, PaymentBrand, PaymentMode,
    PaymentType, Phone, RecurringType, Sex, Shipping, TelephoneCountryCode, TerminalId,
};

/// Every field a payment that stores the card and opens a recurring series can carry.
#[derive(Debug)]
#[allow(missing_docs, reason = "each field is the payment's field of its name")]
pub struct PaymentForm {
    pub member_id: MemberId,
    pub account_id: AccountId,
    pub terminal_id: TerminalId,
    pub checksum: &'static str,
    pub merchant_transaction_id: MerchantTransactionId,
    pub amount: Amount,
    pub currency: Currency,
    pub brand: PaymentBrand,
    pub mode: PaymentMode,
    pub kind: PaymentType,
    pub recurring: RecurringType,
    pub order_descriptor: String,
    pub redirect_url: String,
    pub notification_url: String,
    pub customer: Customer,
    pub shipping: Shipping,
    pub card: Card,
}

impl PaymentForm {
    /// The sample: every field set.
    pub fn sample() -> Self {
        Self {
            member_id: MemberId::new("11344").unwrap(),
            account_id: AccountId::new("2001").unwrap(),
            terminal_id: TerminalId::new("1234").unwrap(),
            checksum: "2de7bfdd9a4a8c708038f86281098c6c",
            merchant_transaction_id: MerchantTransactionId::new("9f1c2e7ab4d84c0f9a3e5b6c7d8e9f00")
                .unwrap(),
            amount: "1250.50".parse().unwrap(),
            currency: Currency::EUR,
            brand: PaymentBrand::Visa,
            mode: PaymentMode::CreditCard,
            kind: PaymentType::Debit,
            recurring: RecurringType::Initial,
            order_descriptor: "Order 42: two books & a pen".into(),
            redirect_url: "https://shop.example.com/return?order=42".into(),
            notification_url: "https://shop.example.com/notify".into(),
            customer: Customer {
                given_name: Some("Zoë".into()),
                surname: Some("O'Neil".into()),
                sex: Some(Sex::Female),
                email: Some(Email::new("zoe.oneil@example.com").unwrap()),
                phone: Some(Phone::new("9876543210").unwrap()),
                telnocc: Some(TelephoneCountryCode::new("+49").unwrap()),
                birth_date: Some("19840229".parse().unwrap()),
                ip: Some(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1))),
                customer_id: Some(CustomerId::new("1250").unwrap()),
            },
            shipping: Shipping {
                country: Some(CountryCode::new("DE").unwrap()),
                city: Some("Berlin".into()),
                state: Some("Berlin".into()),
                postcode: Some("10115".into()),
                street1: Some("Invalidenstraße 117".into()),
                language: None,
                given_name: None,
                surname: None,
            },
            card: Card {
                number: CardNumber::new("4000000000000051").unwrap(),
                expiry_month: ExpiryMonth::new(6).unwrap(),
                expiry_year: ExpiryYear::new(2030).unwrap(),
                cvv: Cvv::new("745").unwrap(),
                holder: Some("Zoe O'Neil".into()),
            },
        }
    }

    /// Writes the form the way the protocol crate will: authentication, payment fields,
    /// then the blocks.
    pub fn write(&self, form: &mut FormWriter<'_>) {
        let amount = self.amount.to_wire();
        form.field("authentication.memberId", &self.member_id);
        form.field("authentication.accountId", &self.account_id);
        form.field("authentication.terminalId", &self.terminal_id);
        form.field("authentication.checksum", self.checksum);
        form.field(
            "merchantTransactionId",
            self.merchant_transaction_id.as_str(),
        );
        form.field("amount", &amount);
        form.field("currency", &self.currency);
        form.field("paymentBrand", self.brand.as_str());
        form.field("paymentMode", self.mode.as_str());
        form.field("paymentType", self.kind.as_str());
        form.field("createRegistration", "true");
        form.field("recurringType", self.recurring.as_str());
        form.field("orderDescriptor", &self.order_descriptor);
        form.field("merchantRedirectUrl", &self.redirect_url);
        form.field("notificationUrl", &self.notification_url);
        form.field("tmpl_amount", amount.as_str());
        form.field("tmpl_currency", &self.currency);
        form.block(&self.customer);
        form.block(&self.shipping);
        form.block(&self.card);
    }
}
