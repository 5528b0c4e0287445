//! The values a caller hands in that need more than a `str`: a card (which holds secrets)
//! and an amount (which is never a float).

use paytoken_types::{Amount, CardNumber, Cvv};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyString};

use crate::errors::{invalid, invalid_field};

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

/// An amount as the caller gives it: a `str` with two decimals (`"19.90"`) or a `Decimal`
/// (with fewer decimals, padded: `Decimal("19.9")` is `19.90`; with more, refused, never
/// rounded). A `float` is refused, naming `field`, for it cannot hold most amounts exactly;
/// an `int` too, which some payment interfaces read as cents.
pub(crate) fn amount(value: &Bound<'_, PyAny>, field: &'static str) -> PyResult<Amount> {
    let text = if let Ok(text) = value.cast::<PyString>() {
        text.to_cow()?.into_owned()
    } else if value.is_instance_of::<PyFloat>() {
        return Err(invalid_field(
            field,
            "is a float, which cannot hold money exactly: give a str or a Decimal, such as \"19.90\"",
        ));
    } else if value.is_instance(&value.py().import("decimal")?.getattr("Decimal")?)? {
        // Fixed-point notation (`str(Decimal("1E+2"))` is `1E+2`), padded to two decimals.
        let fixed: String = value.call_method1("__format__", ("f",))?.extract()?;
        match fixed.split_once('.') {
            None => format!("{fixed}.00"),
            Some((_, decimals)) if decimals.len() == 1 => format!("{fixed}0"),
            Some(_) => fixed,
        }
    } else {
        return Err(invalid_field(
            field,
            "is a str or a Decimal, such as \"19.90\"",
        ));
    };
    text.parse().map_err(invalid)
}
