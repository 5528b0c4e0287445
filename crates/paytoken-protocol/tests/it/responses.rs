//! Every fixture under `fixtures/responses/` read by the parser of its operation, with the
//! parsed values checked. `every_fixture_is_read_by_a_test` keeps the list honest.

use std::path::PathBuf;

use crate::common;

use paytoken_protocol::ops::auth_token::{FetchAuthToken, RegenerateAuthToken};
use paytoken_protocol::ops::cancel::Cancel;
use paytoken_protocol::ops::capture::Capture;
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::delete_token::DeleteToken;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::installments::Installments;
use paytoken_protocol::ops::invoice_list::InvoiceList;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::refund::Refund;
use paytoken_protocol::ops::registration::Registration;
use paytoken_protocol::ops::repeat_payment::RepeatPayment;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{Error, Field, FieldValue, Operation, OperationKind, Owner, PaymentStatus};
use paytoken_types::{
    CodeFamily, PaymentBrand, RegistrationStatus, TransactionState, TransactionStatus,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/responses")
}

fn fixture(path: &str) -> Vec<u8> {
    std::fs::read(root().join(path)).unwrap_or_else(|error| panic!("{path}: {error}"))
}

/// An operation that asked for some of the fixtures.
trait AskedFor: Operation + Sized {
    fn from_asked(asked: common::Asked) -> Option<Self>;
}

macro_rules! asked_for {
    ($($op:ident),+) => {$(
        impl AskedFor for $op {
            fn from_asked(asked: common::Asked) -> Option<Self> {
                match asked {
                    common::Asked::$op(op) => Some(op),
                    _ => None,
                }
            }
        }
    )+};
}

asked_for!(
    Payment,
    TokenPayment,
    Registration,
    CustomerSignup,
    DeleteToken,
    Installments,
    CardsAndAccounts,
    InvoiceList,
    FetchAuthToken,
    RegenerateAuthToken,
    Inquiry,
    Capture,
    Refund,
    Cancel,
    RepeatPayment
);

/// The operation that asked for the fixture at `path`.
fn op<O: AskedFor>(path: &str) -> O {
    O::from_asked(common::asked(path)).unwrap_or_else(|| panic!("{path}: another operation"))
}

fn ok<O: AskedFor>(path: &str) -> O::Response
where
    O::Response: std::fmt::Debug,
{
    op::<O>(path)
        .parse(200, &fixture(path))
        .unwrap_or_else(|error| panic!("{path}: {error}"))
}

fn err<O: AskedFor>(path: &str) -> Error
where
    O::Response: std::fmt::Debug,
{
    op::<O>(path).parse(200, &fixture(path)).expect_err(path)
}

/// A refusal with these codes in this family, which nothing processed.
fn assert_refused(error: &Error, operation: OperationKind, codes: &[&str], family: CodeFamily) {
    let refusal = error
        .refusal()
        .unwrap_or_else(|| panic!("not a refusal: {error:?}"));
    assert_eq!(refusal.operation, operation);
    assert_eq!(refusal.result.code.codes().collect::<Vec<_>>(), codes);
    assert_eq!(refusal.family(), family);
    assert_eq!(refusal.entries().count(), codes.len());
    assert!(error.may_have_reached_gateway() && !error.may_have_been_processed());
}

#[test]
fn payment_approved_with_registration() {
    let tx = ok::<Payment>("payment/approved.json");
    assert_eq!(tx.status, PaymentStatus::Approved);
    assert_eq!(tx.payment_id.as_str(), "54279");
    assert_eq!(
        tx.registration_id.value().unwrap().as_str(),
        "8a82944a4cc25ebf014cc2c782423202"
    );
    assert_eq!(tx.amount.value().unwrap().minor_units(), 125_050);
    assert_eq!(tx.currency.value().unwrap().as_str(), "EUR");
    assert_eq!(tx.payment_brand.value(), Some(&PaymentBrand::Visa));
    assert_eq!(tx.descriptor.as_deref(), Some("Shop/Coffee & Cake"));
    let card = tx.card.clone().unwrap();
    assert_eq!(card.bin.as_deref(), Some("400000"));
    assert_eq!(card.last_four.as_deref(), Some("0051"));
    assert_eq!(card.holder.as_deref(), Some("Zoë O'Neil"));
    assert_eq!(card.expiry_year.value().unwrap().get(), 2030);
    assert_eq!(
        tx.timestamp.value().unwrap().to_string(),
        "2026-11-22 10:15:00"
    );
    assert_eq!(
        tx.merchant_transaction_id.as_ref().unwrap().as_str(),
        "order20261122A"
    );
    assert_eq!(tx.tmpl_amount.value().unwrap().to_string(), "1250.50");
    assert_eq!(tx.result.description, "Transaction succeeded");
}

#[test]
fn payment_approved_for_a_partner() {
    let tx = ok::<Payment>("payment/approved_partner.json");
    assert!(tx.is_approved());
    assert_eq!(tx.payment_type.value().unwrap().as_str(), "PA");
    assert_eq!(tx.registration_id, None);
}

#[test]
fn payment_pending() {
    let tx = ok::<Payment>("payment/pending.json");
    assert_eq!(tx.status, PaymentStatus::Pending);
    assert_eq!(tx.transaction_status, Some(TransactionStatus::Pending));
}

#[test]
fn payment_three_d_secure_with_its_redirect() {
    let tx = ok::<Payment>("payment/three_d_secure.json");
    let PaymentStatus::ThreeDSecure {
        redirect: Some(redirect),
    } = tx.status
    else {
        panic!("{:?}", tx.status)
    };
    assert_eq!(
        redirect.url,
        "https://acs.bank.example/3ds/challenge?session=a1"
    );
    assert_eq!(redirect.method, "POST");
    assert_eq!(redirect.target.as_deref(), Some("_self"));
    let names: Vec<_> = redirect
        .parameters
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["PaReq", "TermUrl", "MD"]);
    assert_eq!(redirect.parameters[0].value, "eJxVUttu2zAM/ZXC74slX3Lxm");
    assert_eq!(redirect.parameters[1].value, "https://shop.example/return");

    let tx = ok::<Payment>("payment/three_d_secure_single_parameter.json");
    let PaymentStatus::ThreeDSecure {
        redirect: Some(redirect),
    } = tx.status
    else {
        panic!("{:?}", tx.status)
    };
    assert_eq!(redirect.method, "GET");
    assert_eq!(redirect.parameters.len(), 1);
    assert_eq!(redirect.parameters[0].name, "creq");
}

#[test]
fn payment_declined_is_a_transaction_with_its_codes() {
    let tx = ok::<Payment>("payment/declined.json");
    assert_eq!(tx.status, PaymentStatus::Declined);
    assert_eq!(tx.remark.as_deref(), Some("Insufficient funds"));
    assert_eq!(tx.result.code.as_str(), "10001");

    let tx = ok::<Payment>("payment/declined_joined_codes.json");
    assert_eq!(tx.status, PaymentStatus::Declined);
    let entries: Vec<_> = tx.result.entries().collect();
    assert_eq!(
        entries,
        [
            ("10001", "Transaction failed"),
            ("90012", "Card reported stolen")
        ]
    );
}

#[test]
fn payment_refusals_carry_every_code() {
    let error = err::<Payment>("payment/refused_validation.json");
    assert_refused(
        &error,
        OperationKind::Payment,
        &["30001", "30002"],
        CodeFamily::Validation,
    );
    let descriptions: Vec<_> = error.refusal().unwrap().entries().map(|(_, d)| d).collect();
    assert_eq!(descriptions, ["Invalid amount", "Invalid card number"]);

    let error = err::<Payment>("payment/refused_checksum.json");
    assert_refused(
        &error,
        OperationKind::Payment,
        &["20010"],
        CodeFamily::SystemCheck,
    );
    let error = err::<Payment>("payment/refused_auth_token.json");
    assert_refused(
        &error,
        OperationKind::Payment,
        &["20002"],
        CodeFamily::SystemCheck,
    );
}

#[test]
fn an_html_502_page_is_a_typed_error_for_every_operation() {
    let page = fixture("payment/bad_gateway_502.html");
    let errors = [
        op::<Payment>("payment/approved.json")
            .parse(502, &page)
            .unwrap_err(),
        op::<TokenPayment>("token_payment/approved.json")
            .parse(502, &page)
            .unwrap_err(),
        op::<Registration>("registration/card.json")
            .parse(502, &page)
            .unwrap_err(),
        op::<DeleteToken>("delete_token/success.json")
            .parse(502, &page)
            .unwrap_err(),
        op::<Installments>("installments/success.json")
            .parse(502, &page)
            .unwrap_err(),
        op::<CardsAndAccounts>("cards_and_accounts/empty.json")
            .parse(502, &page)
            .unwrap_err(),
        op::<InvoiceList>("invoice_list/array.json")
            .parse(502, &page)
            .unwrap_err(),
        op::<CustomerSignup>("customer_signup/success.json")
            .parse(502, &page)
            .unwrap_err(),
        op::<FetchAuthToken>("auth_token/merchant.json")
            .parse(502, &page)
            .unwrap_err(),
        op::<Inquiry>("inquiry/approved.json")
            .parse(502, &page)
            .unwrap_err(),
    ];
    for error in errors {
        let Error::UnexpectedStatus {
            status, excerpt, ..
        } = &error
        else {
            panic!("{error:?}")
        };
        assert_eq!(*status, 502);
        assert!(excerpt.contains("502 Bad Gateway"), "{excerpt}");
        assert!(error.may_have_been_processed());
        let shown = format!("{error} {error:?}");
        assert!(
            !shown.contains("4000000000000051") && !shown.contains("eyJhbGci"),
            "{shown}"
        );
    }
    // The same page with a 200 is not JSON: undecodable, located, redacted.
    let error = op::<Payment>("payment/approved.json")
        .parse(200, &page)
        .unwrap_err();
    let Error::Undecodable { line, column, .. } = &error else {
        panic!("{error:?}")
    };
    assert_eq!((*line, *column), (1, 1));
}

#[test]
fn a_truncated_body_is_undecodable_and_may_have_been_processed() {
    let error = err::<Payment>("payment/truncated.json");
    let Error::Undecodable {
        operation,
        line,
        column,
        excerpt,
        ..
    } = &error
    else {
        panic!("{error:?}")
    };
    assert_eq!(*operation, OperationKind::Payment);
    assert_eq!(*line, 1);
    assert!(*column > 90, "{column}");
    assert!(excerpt.starts_with("{\"paymentId\":\"54286\""), "{excerpt}");
    assert!(
        !excerpt.contains("8a82944a4cc25ebf014cc2c782423202"),
        "{excerpt}"
    );
    assert!(error.may_have_been_processed());
}

#[test]
fn token_payments() {
    let tx = ok::<TokenPayment>("token_payment/approved.json");
    assert_eq!(tx.status, PaymentStatus::Approved);
    assert_eq!(tx.payment_id.as_str(), "54290");
    let error = err::<TokenPayment>("token_payment/refused_deleted_token.json");
    assert_refused(
        &error,
        OperationKind::TokenPayment,
        &["90011"],
        CodeFamily::Rejection,
    );
    let error = err::<TokenPayment>("token_payment/refused_auth_token.json");
    assert_refused(
        &error,
        OperationKind::TokenPayment,
        &["20002"],
        CodeFamily::SystemCheck,
    );
}

#[test]
fn inquiries() {
    let tx = ok::<Inquiry>("inquiry/approved.json");
    assert_eq!(tx.status, PaymentStatus::Approved);
    assert_eq!(tx.result.code.as_str(), "00026");
    assert_eq!(
        tx.merchant_transaction_id.unwrap().as_str(),
        "order20261122A"
    );
    // Record found, but nothing says how the payment went: not "approved".
    let tx = ok::<Inquiry>("inquiry/no_status.json");
    assert_eq!(tx.status, PaymentStatus::Unknown);
    let error = err::<Inquiry>("inquiry/not_found.json");
    assert_refused(
        &error,
        OperationKind::Inquiry,
        &["30040"],
        CodeFamily::Validation,
    );
}

#[test]
fn captures() {
    let tx = ok::<Capture>("capture/approved.json");
    assert_eq!(tx.status, PaymentStatus::Approved);
    assert_eq!(tx.result.code.as_str(), "00004");
    assert_eq!(tx.state.value(), Some(&TransactionState::CaptureSuccess));
    // Another deployment names the capture by its own id and echoes the authorised amount,
    // not the captured one: still the capture's success, the currency's case aside.
    let tx = ok::<Capture>("capture/approved_own_id_and_authorised_amount.json");
    assert_eq!(tx.status, PaymentStatus::Approved);
    assert_eq!(tx.payment_id.as_str(), "61007");
    for (path, code, family) in [
        (
            "capture/refused_above_authorised.json",
            "30021",
            CodeFamily::Validation,
        ),
        (
            "capture/refused_other_currency.json",
            "30020",
            CodeFamily::Validation,
        ),
        (
            "capture/refused_already_captured.json",
            "90032",
            CodeFamily::Rejection,
        ),
    ] {
        assert_refused(
            &err::<Capture>(path),
            OperationKind::Capture,
            &[code],
            family,
        );
    }
}

#[test]
fn refunds() {
    let tx = ok::<Refund>("refund/approved_partial.json");
    assert_eq!(tx.status, PaymentStatus::Approved);
    assert_eq!(tx.result.code.as_str(), "00005");
    assert_eq!(tx.amount.value().unwrap().to_string(), "250.50");
    for (path, code, family) in [
        (
            "refund/refused_more_than_taken.json",
            "90030",
            CodeFamily::Rejection,
        ),
        (
            "refund/refused_nothing_left.json",
            "90033",
            CodeFamily::Rejection,
        ),
        (
            "refund/refused_not_found.json",
            "30040",
            CodeFamily::Validation,
        ),
    ] {
        assert_refused(&err::<Refund>(path), OperationKind::Refund, &[code], family);
    }
}

#[test]
fn cancels() {
    // The cancelled pre-authorisation's status is what a cancel leads to.
    let tx = ok::<Cancel>("cancel/approved.json");
    assert_eq!(tx.status, PaymentStatus::Cancelled);
    assert_eq!(tx.result.code.as_str(), "00006");
    assert_eq!(tx.state.value(), Some(&TransactionState::Reversed));
    let error = err::<Cancel>("cancel/refused_already_captured.json");
    assert_refused(
        &error,
        OperationKind::Cancel,
        &["90031"],
        CodeFamily::Rejection,
    );
}

#[test]
fn repeated_payments_by_the_first_payments_id() {
    let tx = ok::<RepeatPayment>("repeat_payment/approved.json");
    assert_eq!(tx.status, PaymentStatus::Approved);
    assert_eq!(tx.payment_id.as_str(), "54291");
    assert_eq!(
        tx.merchant_transaction_id.unwrap().as_str(),
        "Rest Transaction 02"
    );
    let error = err::<RepeatPayment>("repeat_payment/refused_no_initial.json");
    assert_refused(
        &error,
        OperationKind::RepeatPayment,
        &["30012"],
        CodeFamily::Validation,
    );
    let error = err::<RepeatPayment>("repeat_payment/refused_deleted_token.json");
    assert_refused(
        &error,
        OperationKind::RepeatPayment,
        &["90011"],
        CodeFamily::Rejection,
    );
}

#[test]
fn customer_signups() {
    let signed = ok::<CustomerSignup>("customer_signup/success.json");
    assert_eq!(signed.customer_id.as_str(), "1250");
    assert_eq!(signed.owner, Some(Owner::Member(Field::read("11344"))));
    assert_eq!(signed.result.code.as_str(), "00007");
    let signed = ok::<CustomerSignup>("customer_signup/success_partner.json");
    assert_eq!(signed.owner, Some(Owner::Partner(Field::read("100"))));
    assert_eq!(signed.owner.unwrap().id(), "100");
    let error = err::<CustomerSignup>("customer_signup/refused_joined.json");
    assert_refused(
        &error,
        OperationKind::CustomerSignup,
        &["30011", "30012"],
        CodeFamily::Validation,
    );
    let error = err::<CustomerSignup>("customer_signup/refused_auth_token.json");
    assert_refused(
        &error,
        OperationKind::CustomerSignup,
        &["20002"],
        CodeFamily::SystemCheck,
    );
}

#[test]
fn registrations() {
    let card = ok::<Registration>("registration/card.json");
    assert_eq!(
        card.registration_id.as_str(),
        "8a82944a4cc25ebf014cc2c782423203"
    );
    assert_eq!(card.payment_brand.value(), Some(&PaymentBrand::Visa));
    let account = ok::<Registration>("registration/bank_account.json");
    assert_eq!(
        account.payment_brand.value(),
        Some(&PaymentBrand::DirectDebit)
    );
    assert_eq!(account.payment_mode.value().unwrap().as_str(), "SEPA");
    let partner = ok::<Registration>("registration/partner.json");
    assert_eq!(partner.owner, Some(Owner::Partner(Field::read("100"))));
    let error = err::<Registration>("registration/refused_joined.json");
    assert_refused(
        &error,
        OperationKind::Registration,
        &["30005", "30006"],
        CodeFamily::Validation,
    );
}

#[test]
fn deletes() {
    let deleted = ok::<DeleteToken>("delete_token/success.json");
    assert_eq!(deleted.result.code.as_str(), "00003");
    assert_eq!(
        deleted.registration_id.value().unwrap().as_str(),
        "8a82944a4cc25ebf014cc2c782423202"
    );
    let error = err::<DeleteToken>("delete_token/refused.json");
    assert_refused(
        &error,
        OperationKind::DeleteToken,
        &["90011"],
        CodeFamily::Rejection,
    );
}

#[test]
fn installments_without_a_result_object() {
    let plans = ok::<Installments>("installments/success.json");
    assert_eq!(plans.counts, [3, 4]);
    assert_eq!(plans.card.bin.as_deref(), Some("444433"));
    assert_eq!(plans.card.last_four.as_deref(), Some("1111"));
    let plans = ok::<Installments>("installments/single_count.json");
    assert_eq!(plans.counts, [6]);
    assert_eq!(plans.card.last_four.as_deref(), Some("0051"));
    let error = err::<Installments>("installments/no_plan.json");
    assert_refused(
        &error,
        OperationKind::Installments,
        &["30050"],
        CodeFamily::Validation,
    );
    let error = err::<Installments>("installments/malformed_counts.json");
    assert!(
        matches!(error, Error::Undecodable { ref detail, .. } if detail.contains("installment"))
    );
}

#[test]
fn cards_and_accounts() {
    let list = ok::<CardsAndAccounts>("cards_and_accounts/success.json");
    assert_eq!(list.owner, Some(Owner::Member(Field::read("11344"))));
    assert_eq!(list.customer_id.value().unwrap().as_str(), "1250");
    assert_eq!(list.cards.len(), 2);
    assert_eq!(
        list.cards[0].registration_status.value(),
        Some(&RegistrationStatus::Active)
    );
    assert_eq!(list.cards[0].customer_id.value().unwrap().as_str(), "1250");
    assert_eq!(
        list.cards[1].registration_status.value(),
        Some(&RegistrationStatus::Inactive)
    );
    assert_eq!(list.cards[1].card_type.as_deref(), Some("MASTERCARD"));
    assert_eq!(list.cards[1].expiry_month.value().unwrap().get(), 12);
    assert_eq!(list.bank_accounts.len(), 1);
    assert_eq!(
        list.bank_accounts[0].masked_iban.as_deref(),
        Some("XXXXXXXXXXXXXXXXXX3000")
    );
    assert_eq!(list.bank_accounts[0].bic.as_deref(), Some("DEUTDEFF"));

    let single = ok::<CardsAndAccounts>("cards_and_accounts/single_card_partner.json");
    assert_eq!(single.owner, Some(Owner::Partner(Field::read("100"))));
    assert_eq!(single.result.code.as_str(), "00008");
    assert_eq!(single.cards.len(), 1);
    assert!(single.bank_accounts.is_empty());

    let empty = ok::<CardsAndAccounts>("cards_and_accounts/empty.json");
    assert!(empty.cards.is_empty() && empty.bank_accounts.is_empty());

    let error = err::<CardsAndAccounts>("cards_and_accounts/refused_joined.json");
    assert_refused(
        &error,
        OperationKind::CardsAndAccounts,
        &["30013", "30014"],
        CodeFamily::Validation,
    );
    let descriptions: Vec<_> = error.refusal().unwrap().entries().map(|(_, d)| d).collect();
    assert_eq!(
        descriptions,
        ["Invalid customer id", "No registrations found"]
    );
    let error = err::<CardsAndAccounts>("cards_and_accounts/refused_auth_token.json");
    assert_refused(
        &error,
        OperationKind::CardsAndAccounts,
        &["20002"],
        CodeFamily::SystemCheck,
    );
}

#[test]
fn invoice_list_as_an_array() {
    let page = ok::<InvoiceList>("invoice_list/array.json");
    assert_eq!(page.invoices.len(), 2);
    let first = &page.invoices[0];
    assert_eq!(first.amount.value().unwrap().to_string(), "10.00");
    assert_eq!(
        first.created_date.value().unwrap().to_string(),
        "2018-07-26 17:10:06.0"
    );
    assert_eq!(
        first.transaction_url.as_deref(),
        Some("https://gw.example/invoice/1001")
    );
    assert_eq!(first.invoice_status.as_deref(), Some("processed"));
    assert_eq!(first.transaction_status.raw(), Some("capturesuccess"));
    let customer = first.customer.as_ref().unwrap();
    assert_eq!(customer.name.as_deref(), Some("Zoë O'Neil"));
    assert_eq!(customer.address.as_deref(), Some("Marienplatz 1, München"));
    assert_eq!(first.tracking_id.as_deref(), Some("T1"));
    assert_eq!(first.dtstamp.as_deref(), Some("1532617806"));
    assert_eq!(
        page.invoices[1].created_date.value().unwrap().nanosecond(),
        500_000_000
    );
}

#[test]
fn invoice_list_as_a_single_object() {
    let page = ok::<InvoiceList>("invoice_list/single_object.json");
    assert_eq!(page.invoices.len(), 1);
    assert_eq!(
        page.invoices[0].system_invoice_id.as_deref(),
        Some("INV-1003")
    );
    assert_eq!(page.result, None);
}

#[test]
fn invoice_list_as_an_irregular_position_map() {
    let page = ok::<InvoiceList>("invoice_list/position_map.json");
    assert_eq!(page.result.unwrap().code.as_str(), "00001");
    let ids: Vec<_> = page
        .invoices
        .iter()
        .map(|i| i.system_invoice_id.as_deref().unwrap())
        .collect();
    assert_eq!(ids, ["INV-1001", "INV-1002", "INV-1003"]);
    let orders: Vec<_> = page
        .invoices
        .iter()
        .map(|i| i.order_id.as_deref().unwrap())
        .collect();
    assert_eq!(orders, ["A1", "A2", "A3"]);
    assert_eq!(
        page.invoices[0].customer.as_ref().unwrap().name.as_deref(),
        Some("Ann Example")
    );
    assert_eq!(page.invoices[0].raised_by.as_deref(), Some("shop"));
    assert_eq!(
        page.invoices[1]
            .customer
            .as_ref()
            .unwrap()
            .mobile
            .as_deref(),
        Some("5550100")
    );
    assert_eq!(page.invoices[1].tracking_id.as_deref(), Some("T2"));
    assert_eq!(page.invoices[2].raised_by.as_deref(), Some("partner"));
    assert_eq!(page.invoices[2].customer, None);
}

#[test]
fn invoice_list_empty_no_records_and_refused() {
    assert!(
        ok::<InvoiceList>("invoice_list/empty.json")
            .invoices
            .is_empty()
    );
    let page = ok::<InvoiceList>("invoice_list/no_records.json");
    assert!(page.invoices.is_empty());
    assert_eq!(page.result.unwrap().code.as_str(), "30060");
    let error = err::<InvoiceList>("invoice_list/refused_auth_token.json");
    assert_refused(
        &error,
        OperationKind::InvoiceList,
        &["20002"],
        CodeFamily::SystemCheck,
    );
}

#[test]
fn auth_tokens() {
    let grant = ok::<FetchAuthToken>("auth_token/merchant.json");
    assert_eq!(
        grant.token.expose_secret(),
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzaG9wIn0.c2lnbmF0dXJl"
    );
    assert_eq!(grant.member_id.unwrap().as_str(), "11344");
    assert_eq!(grant.login_name.as_deref(), Some("shop.admin"));
    assert!(
        !format!("{grant:?}").contains("eyJ"),
        "the token leaks through Debug"
    );
    let grant = ok::<FetchAuthToken>("auth_token/partner.json");
    assert_eq!(grant.partner_id.unwrap().as_str(), "100");
    assert_eq!(grant.member_id, None);
    let grant = ok::<RegenerateAuthToken>("auth_token/regenerated.json");
    assert!(
        grant
            .token
            .expose_secret()
            .starts_with("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJuZXci")
    );
    // The documented regenerate answer: `statusInvoiceResult` with `00020`.
    let grant = ok::<RegenerateAuthToken>("auth_token/regenerated_documented.json");
    assert_eq!(grant.result.code.as_str(), "00020");
    assert!(grant.token.expose_secret().contains("eyJzdWIiOiJkb2NzIn0"));
    let error = err::<FetchAuthToken>("auth_token/refused.json");
    assert_refused(
        &error,
        OperationKind::AuthToken,
        &["20001"],
        CodeFamily::SystemCheck,
    );
}

/// The shapes other deployments answer in: a numeric `paymentId`, `"50"`, `"eur"`, lower-case
/// codes, a `card` in a one-element list with `"7"` and `"30"`, an ISO timestamp, `""` and
/// objects where text belongs, `null`s and an unknown field. The verdict is the same.
#[test]
fn an_approved_payment_in_another_deployments_shape_is_approved() {
    let tx = ok::<Payment>("payment/approved_varied.json");
    assert_eq!(tx.status, PaymentStatus::Approved);
    assert_eq!(tx.payment_id.as_str(), "54279");
    assert_eq!(tx.amount.raw(), Some("50"));
    assert_eq!(tx.amount.value().unwrap().minor_units(), 5000);
    assert_eq!(tx.currency.value().unwrap().as_str(), "EUR");
    assert_eq!(tx.currency.raw(), Some("eur"));
    assert_eq!(tx.payment_brand.value(), Some(&PaymentBrand::Visa));
    assert_eq!(tx.payment_type.raw(), Some("db"));
    let card = tx.card.clone().unwrap();
    assert_eq!(card.expiry_month.value().unwrap().get(), 7);
    assert_eq!(card.expiry_year.value().unwrap().get(), 2030);
    assert_eq!(card.holder, None);
    assert_eq!(tx.descriptor, None);
    assert_eq!(tx.tmpl_amount, None);
    assert_eq!(tx.tmpl_currency.raw(), Some(r#"{"code":"EUR"}"#));
    assert_eq!(tx.tmpl_currency.value(), None);
    assert_eq!(
        tx.timestamp.value().unwrap().to_string(),
        "2026-11-22 10:15:00"
    );
    assert_eq!(
        tx.merchant_transaction_id.unwrap().as_str(),
        "Rest Transaction 01"
    );
}

#[test]
fn an_inquiry_is_decided_by_its_long_status_too() {
    let tx = ok::<Inquiry>("inquiry/long_status.json");
    assert_eq!(tx.state.value(), Some(&TransactionState::Reversed));
    assert_eq!(tx.status, PaymentStatus::Refunded);
    assert!(!tx.is_approved(), "a refunded payment is not to be shipped");
    for (fixture, status) in [
        ("inquiry/captured.json", PaymentStatus::Approved),
        ("inquiry/cancelled.json", PaymentStatus::Cancelled),
        ("inquiry/chargeback.json", PaymentStatus::ChargedBack),
        ("inquiry/long_status_unknown.json", PaymentStatus::Unknown),
    ] {
        let tx = ok::<Inquiry>(fixture);
        assert_eq!(tx.transaction_status, Some(TransactionStatus::Approved));
        assert_eq!(tx.status, status, "{fixture}");
    }
}

#[test]
fn a_repeated_token_payment_answers_in_short() {
    let tx = ok::<TokenPayment>("token_payment/repeated_short.json");
    assert_eq!(tx.status, PaymentStatus::Approved);
    assert_eq!(tx.amount, None);
}

#[test]
fn no_registrations_is_an_empty_list() {
    let list = ok::<CardsAndAccounts>("cards_and_accounts/no_registrations.json");
    assert!(list.cards.is_empty() && list.bank_accounts.is_empty());
    assert_eq!(list.result.description, "Invalid Recurring Type.");
}

#[test]
fn every_fixture_is_read_by_a_test() {
    let source = include_str!("responses.rs");
    let mut unread = Vec::new();
    for dir in std::fs::read_dir(root()).unwrap() {
        let dir = dir.unwrap();
        for file in std::fs::read_dir(dir.path()).unwrap() {
            let name = format!(
                "{}/{}",
                dir.file_name().to_string_lossy(),
                file.unwrap().file_name().to_string_lossy()
            );
            if !source.contains(&format!("\"{name}\"")) {
                unread.push(name);
            }
        }
    }
    assert!(unread.is_empty(), "fixtures no test reads: {unread:?}");
}
