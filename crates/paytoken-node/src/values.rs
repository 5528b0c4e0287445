//! The values a caller hands in: a card, which holds secrets, and a body as text or bytes.

use napi::bindgen_prelude::{Either, Env, Uint8Array};
use napi_derive::napi;
use paytoken_types::{CardNumber, Cvv};

use crate::errors::invalid;

/// A card: its number, expiry and CVV, each checked. Shown with the number masked
/// (`Card(400000******0051, 12/2030, cvv=***)`).
#[napi]
#[derive(Debug, Clone)]
pub struct Card(pub(crate) paytoken_types::Card);

#[napi]
impl Card {
    /// The card `number` (digits only), `expiryMonth` (`01` to `12`), `expiryYear` (four
    /// digits), `cvv`, and the `holder`'s name when known.
    #[napi(constructor)]
    pub fn new(
        env: &Env,
        number: String,
        expiry_month: String,
        expiry_year: String,
        cvv: String,
        holder: Option<String>,
    ) -> napi::Result<Self> {
        let refused = |error: paytoken_types::Error| invalid(env, error);
        Ok(Self(paytoken_types::Card {
            number: CardNumber::new(&number).map_err(refused)?,
            expiry_month: expiry_month.parse().map_err(refused)?,
            expiry_year: expiry_year.parse().map_err(refused)?,
            cvv: Cvv::new(&cvv).map_err(refused)?,
            holder,
        }))
    }

    /// `Card(400000******0051, 12/2030, cvv=***)`.
    #[napi(js_name = "toString")]
    pub fn shown(&self) -> String {
        format!(
            "Card({}, {}/{}, cvv=***)",
            self.0.number.masked(),
            self.0.expiry_month,
            self.0.expiry_year
        )
    }

    /// The card's JSON: its `toString`, so that no log of an object holding it shows the
    /// number or the CVV.
    #[napi(js_name = "toJSON")]
    pub fn to_json(&self) -> String {
        self.shown()
    }
}

/// The bytes of a body handed in as a string (`await response.text()`) or as the bytes
/// that came (`new Uint8Array(await response.arrayBuffer())`).
pub(crate) fn bytes_of(body: &Either<String, Uint8Array>) -> &[u8] {
    match body {
        Either::A(text) => text.as_bytes(),
        Either::B(bytes) => bytes,
    }
}
