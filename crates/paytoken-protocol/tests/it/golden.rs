//! Golden tests: every operation's request, byte for byte, against `fixtures/requests/`.
//!
//! Run with `PAYTOKEN_BLESS=1` to write the files after a deliberate change, then read the
//! diff: the files are the specification of what goes on the wire.

use crate::common;

use std::path::PathBuf;

use md5_oracle as md5;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/requests")
}

#[test]
fn every_request_matches_its_golden_file() {
    let bless = std::env::var_os("PAYTOKEN_BLESS").is_some();
    let mut mismatches = Vec::new();
    for (name, request) in common::golden_requests() {
        let path = fixtures().join(format!("{name}.http"));
        let actual = common::render(&request);
        if bless {
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        if expected != actual {
            mismatches.push(format!(
                "{name}:\n--- expected\n{expected}--- actual\n{actual}"
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn every_golden_file_belongs_to_a_request() {
    let names: Vec<_> = common::golden_requests()
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    for entry in std::fs::read_dir(fixtures()).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        let stem = file.strip_suffix(".http").unwrap_or(&file);
        assert!(
            names.contains(&stem),
            "fixtures/requests/{file} is not built by any test"
        );
    }
}

/// The checksum in each golden body is MD5 of the joined text the spec names, computed by
/// a second implementation from text written out by hand here.
#[test]
fn golden_checksums_hash_the_joined_text_of_the_spec() {
    let key = common::SECURE_KEY;
    let partner_key = common::PARTNER_KEY;
    let registration = common::REGISTRATION;
    let cases = [
        (
            "customer_signup",
            format!("11344|{key}|Zoë|O'Neil|zoe.oneil@example.com"),
        ),
        (
            "customer_signup_partner",
            format!("100|{partner_key}|Zoë|O'Neil|zoe.oneil@example.com"),
        ),
        ("payment", format!("11344|{key}|order20261122A|1250.50")),
        (
            "payment_preauthorization",
            format!("11344|{key}|order1002|9.99"),
        ),
        ("registration_card", format!("11344|{key}|4000000000000051")),
        ("registration_bank_account", format!("11344|{key}|DEUTDEFF")),
        ("token_payment", format!("11344|{key}|{registration}|25.00")),
        ("delete_token", format!("11344|{key}|{registration}")),
        ("installments", format!("11344|{key}|{registration}")),
        ("cards_and_accounts", format!("11344|{key}")),
        (
            "cards_and_accounts_partner_customer",
            format!("100|{partner_key}"),
        ),
        ("invoice_list", format!("11344|{key}")),
        ("inquiry_by_payment_id", format!("11344|{key}|54279")),
        (
            "inquiry_by_merchant_transaction_id",
            format!("11344|{key}|order20261122A"),
        ),
        (
            "payment_sample_id",
            format!("11344|{key}|Rest Transaction 01|50.00"),
        ),
        (
            "token_payment_sample_id",
            format!("11344|{key}|{registration}|25.00"),
        ),
        (
            "inquiry_by_sample_id_with_space_and_slash",
            format!("11344|{key}|Test Transaction01/ORD-2026:7"),
        ),
        ("capture", format!("11344|{key}|54280|9.99")),
        ("refund_partial", format!("11344|{key}|54279|250.50")),
        ("cancel", format!("11344|{key}|54280")),
        ("repeat_payment", format!("11344|{key}|54279|9.99")),
        (
            "repeat_payment_partner",
            format!("100|{partner_key}|54279|12.00"),
        ),
    ];
    let requests = common::golden_requests();
    for (name, joined) in cases {
        let request = &requests.iter().find(|(n, _)| *n == name).unwrap().1;
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(request.body()).unwrap();
        let sent = pairs
            .iter()
            .find(|(field, _)| field == "authentication.checksum")
            .map(|(_, value)| value.as_str())
            .unwrap_or_else(|| panic!("{name}: no checksum"));
        assert_eq!(
            sent,
            format!("{:x}", md5::compute(joined.as_bytes())),
            "{name}"
        );
    }
}
