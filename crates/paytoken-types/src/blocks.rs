//! The request blocks: customer, shipping, billing, card and bank account, each writing its
//! present fields under a prefix.
//!
//! The blocks are plain structs with public fields: the structured values are checked by
//! their own types, and free text (names, city, street) as the block is written
//! ([`TextRule::FreeText`]: a refusal comes from [`FormWriter::finish`]). Each block's
//! `validate` applies the same check on its own, to refuse a block before a request.

use alloc::string::String;
use core::net::IpAddr;

use crate::form::{FormFields, FormWriter};
use crate::text_rule::{TextRule, check_free_text};
use crate::{
    BankAccount, Bic, BirthDate, Card, CardNumber, CountryCode, CustomerId, Cvv, Email, Error,
    ExpiryMonth, ExpiryYear, Iban, LanguageCode, Phone, Sex, TelephoneCountryCode,
};

/// A block's free-text field: its wire name and its text, if any.
type FreeText<'a> = (&'static str, &'a Option<String>);

/// Checks every present free-text field of a block, naming the field on failure.
fn check_all(fields: &[FreeText<'_>]) -> Result<(), Error> {
    fields
        .iter()
        .filter_map(|(field, text)| text.as_deref().map(|text| (*field, text)))
        .try_for_each(|(field, text)| check_free_text(field, text))
}

/// Writes every present free-text field of a block, in order.
fn write_all(form: &mut FormWriter<'_>, fields: &[FreeText<'_>]) {
    for (field, text) in fields {
        form.optional_text(field, text.as_deref(), TextRule::FreeText);
    }
}

/// The customer (`customer.*`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Customer {
    /// `customer.givenName`.
    pub given_name: Option<String>,
    /// `customer.surname`.
    pub surname: Option<String>,
    /// `customer.sex`.
    pub sex: Option<Sex>,
    /// `customer.email`.
    pub email: Option<Email>,
    /// `customer.phone`.
    pub phone: Option<Phone>,
    /// `customer.telnocc`.
    pub telnocc: Option<TelephoneCountryCode>,
    /// `customer.birthDate`.
    pub birth_date: Option<BirthDate>,
    /// `customer.ip`.
    pub ip: Option<IpAddr>,
    /// `customer.customerId`, from customer sign-up.
    pub customer_id: Option<CustomerId>,
}

impl Customer {
    /// `customer.givenName`, which a customer sign-up's checksum signs.
    pub const GIVEN_NAME: &str = "customer.givenName";
    /// `customer.surname`, which a customer sign-up's checksum signs.
    pub const SURNAME: &str = "customer.surname";
    /// `customer.email`, which a customer sign-up's checksum signs.
    pub const EMAIL: &str = Email::FIELD;
    /// `customer.ip`, which a token payment sends alone.
    pub const IP: &str = "customer.ip";

    /// Checks the free-text fields, as the form does when it writes them: for refusing a
    /// block before any request is built.
    ///
    /// # Errors
    /// [`Error::Empty`] or [`Error::InvalidCharacter`], naming the field.
    pub fn validate(&self) -> Result<(), Error> {
        check_all(&self.free_text())
    }

    fn free_text(&self) -> [FreeText<'_>; 2] {
        [
            (Self::GIVEN_NAME, &self.given_name),
            (Self::SURNAME, &self.surname),
        ]
    }
}

impl FormFields for Customer {
    fn write_fields(&self, form: &mut FormWriter<'_>) {
        write_all(form, &self.free_text());
        form.optional("customer.sex", self.sex.as_ref());
        form.optional(Self::EMAIL, self.email.as_ref().map(Email::as_str));
        form.optional(Phone::FIELD, self.phone.as_ref());
        form.optional(TelephoneCountryCode::FIELD, self.telnocc.as_ref());
        if let Some(birth_date) = &self.birth_date {
            form.field(BirthDate::FIELD, &birth_date.to_wire());
        }
        if let Some(ip) = self.ip {
            form.ip(Self::IP, ip);
        }
        form.optional(CustomerId::FIELD, self.customer_id.as_ref());
    }
}

/// The shipping address (`shipping.*`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shipping {
    /// `shipping.country`.
    pub country: Option<CountryCode>,
    /// `shipping.city`.
    pub city: Option<String>,
    /// `shipping.state`.
    pub state: Option<String>,
    /// `shipping.postcode`.
    pub postcode: Option<String>,
    /// `shipping.street1`.
    pub street1: Option<String>,
    /// `shipping.language`.
    pub language: Option<LanguageCode>,
    /// `shipping.givenName` (stand-alone registrations name the customer here).
    pub given_name: Option<String>,
    /// `shipping.surname`.
    pub surname: Option<String>,
}

impl Shipping {
    /// Checks the free-text fields, as the form does when it writes them: for refusing a
    /// block before any request is built.
    ///
    /// # Errors
    /// [`Error::Empty`] or [`Error::InvalidCharacter`], naming the field.
    pub fn validate(&self) -> Result<(), Error> {
        check_all(&self.free_text())
    }

    fn free_text(&self) -> [FreeText<'_>; 6] {
        [
            ("shipping.city", &self.city),
            ("shipping.state", &self.state),
            ("shipping.postcode", &self.postcode),
            ("shipping.street1", &self.street1),
            ("shipping.givenName", &self.given_name),
            ("shipping.surname", &self.surname),
        ]
    }
}

impl FormFields for Shipping {
    fn write_fields(&self, form: &mut FormWriter<'_>) {
        let [city, state, postcode, street, given_name, surname] = self.free_text();
        form.optional(CountryCode::FIELD, self.country.as_ref());
        write_all(form, &[city, state, postcode, street]);
        form.optional(LanguageCode::FIELD, self.language.as_ref());
        write_all(form, &[given_name, surname]);
    }
}

/// The billing address (`billing.*`), which published samples send beside `shipping.*`;
/// note `billing.street`, without the `1`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Billing {
    /// `billing.country`.
    pub country: Option<CountryCode>,
    /// `billing.city`.
    pub city: Option<String>,
    /// `billing.state`.
    pub state: Option<String>,
    /// `billing.postcode`.
    pub postcode: Option<String>,
    /// `billing.street`.
    pub street: Option<String>,
}

impl Billing {
    /// Checks the free-text fields, as the form does when it writes them: for refusing a
    /// block before any request is built.
    ///
    /// # Errors
    /// [`Error::Empty`] or [`Error::InvalidCharacter`], naming the field.
    pub fn validate(&self) -> Result<(), Error> {
        check_all(&self.free_text())
    }

    fn free_text(&self) -> [FreeText<'_>; 4] {
        [
            ("billing.city", &self.city),
            ("billing.state", &self.state),
            ("billing.postcode", &self.postcode),
            ("billing.street", &self.street),
        ]
    }
}

impl FormFields for Billing {
    fn write_fields(&self, form: &mut FormWriter<'_>) {
        form.optional("billing.country", self.country.as_ref());
        write_all(form, &self.free_text());
    }
}

impl Card {
    /// `card.number`, which a card registration's checksum signs.
    pub const NUMBER: &str = CardNumber::FIELD;

    /// Checks the holder's name, when there is one.
    ///
    /// # Errors
    /// [`Error::Empty`] or [`Error::InvalidCharacter`] for `card.holder`.
    pub fn validate(&self) -> Result<(), Error> {
        check_all(&[self.free_text()])
    }

    fn free_text(&self) -> FreeText<'_> {
        ("card.holder", &self.holder)
    }
}

impl FormFields for Card {
    fn write_fields(&self, form: &mut FormWriter<'_>) {
        form.field(Self::NUMBER, &self.number);
        form.field(ExpiryMonth::FIELD, &self.expiry_month.to_wire());
        form.field(ExpiryYear::FIELD, &self.expiry_year.to_wire());
        form.field(Cvv::FIELD, &self.cvv);
        write_all(form, &[self.free_text()]);
    }
}

impl BankAccount {
    /// `bankAccount.bic`, which a bank-account registration's checksum signs.
    pub const BIC: &str = Bic::FIELD;

    /// Checks the holder's name, when there is one.
    ///
    /// # Errors
    /// [`Error::Empty`] or [`Error::InvalidCharacter`] for `bankAccount.holder`.
    pub fn validate(&self) -> Result<(), Error> {
        check_all(&[self.free_text()])
    }

    fn free_text(&self) -> FreeText<'_> {
        ("bankAccount.holder", &self.holder)
    }
}

impl FormFields for BankAccount {
    fn write_fields(&self, form: &mut FormWriter<'_>) {
        form.field(Iban::FIELD, self.iban.expose_str());
        form.field(Self::BIC, self.bic.as_str());
        write_all(form, &[self.free_text()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_prelude::*;
    use core::net::Ipv4Addr;

    fn body_of(write: impl FnOnce(&mut FormWriter<'_>)) -> String {
        let mut body = Vec::new();
        write(&mut FormWriter::new(&mut body));
        String::from_utf8(body).unwrap()
    }

    #[test]
    fn a_full_customer_block_in_order() {
        let customer = Customer {
            given_name: Some("Zoë".into()),
            surname: Some("O'Neil".into()),
            sex: Some(Sex::Female),
            email: Some(Email::new("zoe@example.com").unwrap()),
            phone: Some(Phone::new("9876543210").unwrap()),
            telnocc: Some(TelephoneCountryCode::new("+91").unwrap()),
            birth_date: Some("19840229".parse().unwrap()),
            ip: Some(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1))),
            customer_id: Some(CustomerId::new("1250").unwrap()),
        };
        assert_eq!(
            body_of(|form| form.block(&customer)),
            "customer.givenName=Zo%C3%AB&customer.surname=O%27Neil&customer.sex=female\
             &customer.email=zoe%40example.com&customer.phone=9876543210\
             &customer.telnocc=%2B91&customer.birthDate=19840229&customer.ip=192.0.2.1\
             &customer.customerId=1250"
        );
    }

    #[test]
    fn absent_fields_are_left_out() {
        let customer = Customer {
            given_name: Some("Jo".into()),
            ..Customer::default()
        };
        assert_eq!(
            body_of(|form| form.block(&customer)),
            "customer.givenName=Jo"
        );
        assert_eq!(body_of(|form| form.block(&Billing::default())), "");
        assert_eq!(body_of(|form| form.optional_block::<Shipping>(None)), "");
    }

    #[test]
    fn card_and_bank_account_blocks() {
        let card = Card {
            number: CardNumber::new("4000000000000051").unwrap(),
            expiry_month: ExpiryMonth::new(3).unwrap(),
            expiry_year: ExpiryYear::new(2030).unwrap(),
            cvv: Cvv::new("745").unwrap(),
            holder: Some("Jo Doe".into()),
        };
        assert_eq!(
            body_of(|form| form.block(&card)),
            "card.number=4000000000000051&card.expiryMonth=03&card.expiryYear=2030\
             &card.cvv=745&card.holder=Jo+Doe"
        );
        let account = BankAccount {
            iban: Iban::new("DE89370400440532013000").unwrap(),
            bic: Bic::new("DEUTDEFF").unwrap(),
            holder: None,
        };
        assert_eq!(
            body_of(|form| form.block(&account)),
            "bankAccount.iban=DE89370400440532013000&bankAccount.bic=DEUTDEFF"
        );
    }

    #[test]
    fn validation_names_the_field() {
        let shipping = Shipping {
            city: Some("Berlin".into()),
            street1: Some("  ".into()),
            ..Shipping::default()
        };
        assert_eq!(
            shipping.validate(),
            Err(Error::Empty {
                field: "shipping.street1"
            })
        );
        let billing = Billing {
            street: Some("Main\tStreet".into()),
            ..Billing::default()
        };
        assert_eq!(
            billing.validate().unwrap_err().field(),
            Some("billing.street")
        );
    }
}
