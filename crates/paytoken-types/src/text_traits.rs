//! The standard traits of a value that lives on the wire as one string, each written once
//! for every such type.

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

/// Implements, for each `Type(Trait, ..)`, the traits named, from the type's
/// `new(&str) -> Result<Self, Error>` and `as_str()`: `Display` (the text), `FromStr` and
/// `TryFrom` (`&str`, by `new`), `AsRef` (`str`) and `Deserialize` (a string, by `FromStr`).
macro_rules! text_traits {
    ($($name:ident($($text_trait:ident),+)),+ $(,)?) => {$($(
        $crate::text_traits::text_traits!(@$text_trait $name);
    )+)+};
    (@Display $name:ident) => {
        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
    (@FromStr $name:ident) => {
        impl core::str::FromStr for $name {
            type Err = $crate::Error;
            fn from_str(text: &str) -> Result<Self, $crate::Error> {
                Self::new(text)
            }
        }
    };
    (@TryFrom $name:ident) => {
        impl TryFrom<&str> for $name {
            type Error = $crate::Error;
            fn try_from(text: &str) -> Result<Self, $crate::Error> {
                Self::new(text)
            }
        }
    };
    (@AsRef $name:ident) => {
        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }
    };
    (@Deserialize $name:ident) => {
        $crate::text_traits::deserialize_from_str!($name);
    };
}

pub(crate) use {deserialize_from_str, text_traits};
