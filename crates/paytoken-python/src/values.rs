//! The values a caller hands in that hold secrets: a card.

use paytoken_types::{CardNumber, Cvv};
use pyo3::prelude::*;

use crate::errors::invalid;

/// A card: its number, expiry and CVV, each checked. Shown with the number masked
/// (`400000******0051`) and no CVV.
#[pyclass(frozen, module = "paytoken")]
#[derive(Debug, Clone)]
pub(crate) struct Card(pub(crate) paytoken_types::Card);

#[pymethods]
impl Card {
    #[new]
    #[pyo3(signature = (number, expiry_month, expiry_year, cvv, *, holder=None))]
    fn new(
        number: &str,
        expiry_month: &str,
        expiry_year: &str,
        cvv: &str,
        holder: Option<String>,
    ) -> PyResult<Self> {
        Ok(Self(paytoken_types::Card {
            number: CardNumber::new(number).map_err(invalid)?,
            expiry_month: expiry_month.parse().map_err(invalid)?,
            expiry_year: expiry_year.parse().map_err(invalid)?,
            cvv: Cvv::new(cvv).map_err(invalid)?,
            holder,
        }))
    }

    fn __repr__(&self) -> String {
        format!(
            "Card({}, {}/{}, cvv=***)",
            self.0.number.masked(),
            self.0.expiry_month,
            self.0.expiry_year
        )
    }
}
