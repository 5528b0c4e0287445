//! The checksum written as a request is: the id and the key first, then each signed value
//! as it is written into the request, never the joined text.

use core::fmt;

use md5::{Digest, Md5};

use crate::{Checksum, Credentials, Error};

/// Hashes `id|key|value|value...` one value at a time, in the order the values come.
///
/// [`ChecksumInput::compute`](crate::ChecksumInput::compute) uses it for a rule's fields; a
/// request builder uses it to sign each value in the same step that writes it into the
/// request, so that what is signed and what is sent cannot differ.
///
/// ```
/// use paytoken_checksum::{ChecksumWriter, Credentials, SecureKey, rules};
///
/// let credentials = Credentials::merchant("11344".parse()?, SecureKey::new("key")?);
/// let mut writer = ChecksumWriter::new(&credentials);
/// writer.part("merchantTransactionId", "order1001")?;
/// writer.part("amount", "50.00")?;
/// let id = "order1001".parse()?;
/// assert_eq!(writer.finish(), rules::payment(&credentials, &id, "50.00".parse()?).compute());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct ChecksumWriter {
    md5: Md5,
}

impl ChecksumWriter {
    /// Starts with `id|key`.
    #[must_use]
    pub fn new(credentials: &Credentials) -> Self {
        let mut md5 = Md5::new();
        md5.update(credentials.id().as_bytes());
        md5.update(b"|");
        md5.update(credentials.secure_key().expose_secret().as_bytes());
        Self { md5 }
    }

    /// Appends `|value`.
    ///
    /// # Errors
    /// [`Error::Separator`] for `field` when the value holds `|`: the joined text would be
    /// ambiguous. Nothing is appended then.
    pub fn part(&mut self, field: &'static str, value: &str) -> Result<(), Error> {
        if value.contains('|') {
            return Err(Error::Separator { field });
        }
        self.append(value.as_bytes());
        Ok(())
    }

    /// Appends `|bytes`, known to hold no `|` (a rule's checked parts).
    pub(crate) fn append(&mut self, bytes: &[u8]) {
        self.md5.update(b"|");
        self.md5.update(bytes);
    }

    /// The checksum of everything appended.
    #[must_use]
    pub fn finish(self) -> Checksum {
        Checksum::from_bytes(self.md5.finalize().into())
    }
}

impl fmt::Debug for ChecksumWriter {
    /// The state holds the key: nothing of it is shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ChecksumWriter(***)")
    }
}
