//! The facade's tests: the in-process sandbox of the `sandbox` feature, as a shop's tests
//! use it.
#![cfg(test)]

mod cookbook;
mod postgres;
mod test_gateway;
