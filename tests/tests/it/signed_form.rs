//! Money is never a float (ARCHITECTURE.md, invariant 2), across crates: the checksum
//! hashes the very text that goes into the `amount` field, whatever the amount.

use paytoken_checksum::{Credentials, SecureKey, rules};
use paytoken_types::internal::FormWriter;
use paytoken_types::{Amount, MemberId, MerchantTransactionId, RegistrationId};
use proptest::prelude::*;

fn credentials() -> Credentials {
    Credentials::merchant(
        MemberId::new("11344").unwrap(),
        SecureKey::new("k3y").unwrap(),
    )
}

/// Reads a decoded form body back as pairs, with `serde_urlencoded` (not our decoder).
fn pairs(body: &[u8]) -> Vec<(String, String)> {
    serde_urlencoded::from_bytes(body).unwrap()
}

fn value<'a>(pairs: &'a [(String, String)], name: &str) -> &'a str {
    pairs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
        .unwrap()
}

proptest! {
    #[test]
    fn a_payment_checksum_hashes_the_amount_text_that_was_sent(minor in any::<u64>()) {
        let credentials = credentials();
        let transaction = MerchantTransactionId::new("Tx1").unwrap();
        let amount = Amount::from_minor_units(minor);
        let checksum = rules::payment(&credentials, &transaction, amount).compute();

        let mut body = Vec::new();
        let mut form = FormWriter::new(&mut body);
        form.field("authentication.memberId", credentials.id());
        form.field("merchantTransactionId", transaction.as_str());
        form.field("amount", amount.to_wire().as_str());
        form.field("authentication.checksum", checksum.to_hex().as_str());

        // What a gateway does: join what it received with the key it knows, and hash.
        let received = pairs(&body);
        let joined = format!(
            "{}|k3y|{}|{}",
            value(&received, "authentication.memberId"),
            value(&received, "merchantTransactionId"),
            value(&received, "amount"),
        );
        let expected = format!("{:x}", md5_oracle::compute(joined.as_bytes()));
        prop_assert_eq!(value(&received, "authentication.checksum"), expected.as_str());
        prop_assert_eq!(value(&received, "amount").parse::<Amount>(), Ok(amount));
    }

    #[test]
    fn a_token_payment_checksum_hashes_the_amount_text_that_was_sent(minor in any::<u64>()) {
        let credentials = credentials();
        let registration = RegistrationId::new("8a82944a4cc25ebf014cc2c782423202").unwrap();
        let amount = Amount::from_minor_units(minor);
        let checksum = rules::token_payment(&credentials, &registration, amount).compute();
        let mut body = Vec::new();
        FormWriter::new(&mut body).field("amount", amount.to_wire().as_str());
        let sent = pairs(&body);
        let joined = format!("11344|k3y|{}|{}", registration, value(&sent, "amount"));
        prop_assert_eq!(
            checksum.to_string(),
            format!("{:x}", md5_oracle::compute(joined.as_bytes()))
        );
    }
}
