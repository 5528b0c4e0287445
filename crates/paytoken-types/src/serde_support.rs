//! `Deserialize` for types that live on the wire as one JSON string.

/// Implements `Deserialize` for a type with `FromStr`, reading a JSON string (borrowed or
/// not) and refusing it with the type's own error message.
macro_rules! deserialize_from_str {
    ($($ty:ty),+ $(,)?) => {$(
        #[cfg(feature = "serde")]
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct Visitor;
                impl serde::de::Visitor<'_> for Visitor {
                    type Value = $ty;
                    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                        f.write_str(concat!("a string holding a ", stringify!($ty)))
                    }
                    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<$ty, E> {
                        text.parse().map_err(E::custom)
                    }
                }
                deserializer.deserialize_str(Visitor)
            }
        }
    )+};
}

pub(crate) use deserialize_from_str;
