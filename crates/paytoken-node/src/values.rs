//! The card a caller hands in, which holds secrets.

use napi::bindgen_prelude::{Env, This};
use napi_derive::napi;
use paytoken_types::{CardNumber, Cvv, ExpiryMonth, ExpiryYear};

use crate::args::{self, Given};
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
        this: This<'_>,
        #[napi(ts_arg_type = "string")] number: Given<'_, String>,
        #[napi(ts_arg_type = "string")] expiry_month: Given<'_, String>,
        #[napi(ts_arg_type = "string")] expiry_year: Given<'_, String>,
        #[napi(ts_arg_type = "string")] cvv: Given<'_, String>,
        #[napi(ts_arg_type = "string | undefined | null")] holder: Option<Given<'_, String>>,
    ) -> napi::Result<Self> {
        args::constructed::<Self>(env, &this, "Card")?;
        let refused = |error: paytoken_types::Error| invalid(env, error);
        let number = args::text(env, number, CardNumber::FIELD)?;
        let expiry_month = args::text(env, expiry_month, ExpiryMonth::FIELD)?;
        let expiry_year = args::text(env, expiry_year, ExpiryYear::FIELD)?;
        let cvv = args::text(env, cvv, Cvv::FIELD)?;
        let holder = args::optional_text(env, holder, "card.holder")?;
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
