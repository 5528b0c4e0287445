//! Input validation, the auth-token life cycle and the invoice pager.

use crate::common;

use std::time::Duration;

use paytoken_protocol::ops::auth_token::FetchAuthToken;
use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::invoice_list::InvoiceList;
use paytoken_protocol::{AuthTokenLifecycle, Error, InvoicePager, Operation, TokenStep, Username};
use paytoken_types::{Customer, PaymentType, RecurringType};

fn field_of(result: Result<paytoken_protocol::Request, Error>) -> &'static str {
    let error = result.expect_err("the request was built");
    assert!(
        error.is_invalid_input() && !error.may_have_reached_gateway(),
        "{error:?}"
    );
    error
        .field()
        .unwrap_or_else(|| panic!("no field in {error:?}"))
}

#[test]
fn invalid_input_names_the_field_and_builds_nothing() {
    let context = common::merchant();
    let mut zero = common::minimal_preauthorization();
    zero.amount = "0.00".parse().unwrap();
    assert_eq!(field_of(zero.request(&context)), "amount");
    let mut refund = common::minimal_preauthorization();
    refund.payment_type = PaymentType::Refund;
    assert_eq!(field_of(refund.request(&context)), "paymentType");
    let repeated = common::minimal_preauthorization().recurring(RecurringType::Repeated);
    assert_eq!(field_of(repeated.request(&context)), "recurringType");
    let url = common::minimal_preauthorization().notification_url("not a url");
    assert_eq!(field_of(url.request(&context)), "notificationUrl");
    let descriptor = common::minimal_preauthorization().order_descriptor("a\u{0}b");
    assert_eq!(field_of(descriptor.request(&context)), "orderDescriptor");
    let mut template = common::minimal_preauthorization();
    template.tmpl_amount = Some("1.00".parse().unwrap());
    assert_eq!(field_of(template.request(&context)), "tmpl_currency");
    let blank_name = common::minimal_preauthorization().customer(Customer {
        surname: Some("  ".into()),
        ..Customer::default()
    });
    assert_eq!(field_of(blank_name.request(&context)), "customer.surname");

    let no_email = CustomerSignup::new(Customer {
        email: None,
        ..common::customer()
    });
    assert_eq!(field_of(no_email.request(&context)), "customer.email");
    let piped = CustomerSignup::new(Customer {
        given_name: Some("a|b".into()),
        ..common::customer()
    });
    assert_eq!(field_of(piped.request(&context)), "customer.givenName");

    assert_eq!(
        field_of(common::token_payment().installment(0).request(&context)),
        "installment"
    );
    let mut delete_by_payment = common::token_payment();
    delete_by_payment.payment_type = PaymentType::Delete;
    assert_eq!(field_of(delete_by_payment.request(&context)), "paymentType");
    assert_eq!(
        field_of(InvoiceList::new(0, 10).request(&context)),
        "pagination.pageno"
    );
    assert_eq!(
        field_of(InvoiceList::new(1, 0).request(&context)),
        "pagination.records"
    );
    let wrong_partner = FetchAuthToken::new("999".parse().unwrap(), Username::new("p").unwrap());
    assert_eq!(
        field_of(wrong_partner.request(&common::partner())),
        "authentication.partnerId"
    );
}

#[test]
fn token_payments_are_never_retry_safe_and_reads_are() {
    let context = common::merchant();
    assert!(
        !common::full_payment()
            .request(&context)
            .unwrap()
            .is_retry_safe()
    );
    assert!(
        !common::token_payment()
            .request(&context)
            .unwrap()
            .is_retry_safe()
    );
    assert!(
        InvoiceList::new(1, 10)
            .request(&context)
            .unwrap()
            .is_retry_safe()
    );
}

#[test]
fn the_auth_token_header_goes_everywhere_but_the_token_endpoints() {
    let context = common::merchant();
    let payment = common::token_payment().request(&context).unwrap();
    assert_eq!(payment.header("AuthToken"), Some(common::TOKEN));
    assert!(
        payment
            .headers()
            .iter()
            .any(|h| h.name() == "AuthToken" && h.is_sensitive())
    );
    let fetch = FetchAuthToken::new("100".parse().unwrap(), Username::new("shop").unwrap());
    assert_eq!(fetch.request(&context).unwrap().header("AuthToken"), None);
    let mut without = context.clone();
    without.auth_token = None;
    assert_eq!(
        common::token_payment()
            .request(&without)
            .unwrap()
            .header("AuthToken"),
        None
    );
}

fn grant(token: &str) -> Vec<u8> {
    format!(r#"{{"result":{{"code":"200","description":"Token generated successfully"}},"AuthToken":"{token}"}}"#)
        .into_bytes()
}

#[test]
fn auth_token_life_cycle() {
    let context = common::merchant();
    let fetch = FetchAuthToken::new("100".parse().unwrap(), Username::new("shop").unwrap());
    let mut tokens = AuthTokenLifecycle::new(fetch);
    let start = Duration::from_secs(1_700_000_000);
    let minute = Duration::from_secs(60);

    // No token: fetch.
    let TokenStep::Renew(request) = tokens.step(&context, start).unwrap() else {
        panic!()
    };
    assert!(request.path().ends_with("/authToken"));
    assert_eq!(
        tokens
            .parse(200, &grant("first.token"), start)
            .unwrap()
            .expose_secret(),
        "first.token"
    );

    // Valid until five minutes before the hour.
    for at in [start, start + 54 * minute] {
        let TokenStep::Valid(token) = tokens.step(&context, at).unwrap() else {
            panic!()
        };
        assert_eq!(token.expose_secret(), "first.token");
    }
    // The life cycle tells when it turns: 55 minutes after the token was asked for.
    assert_eq!(tokens.renew_at(), Some(start + 55 * minute));
    assert!(
        tokens
            .token(start + 55 * minute - Duration::from_nanos(1))
            .is_some()
    );
    assert!(tokens.token(start + 55 * minute).is_none());
    // A renewal can be asked for early: a regenerate, the token still being alive.
    let early = tokens.renewal(&context, start).unwrap();
    assert!(early.path().ends_with("/regenerateToken"));
    // Then regenerate while the old one still works...
    let due = start + 56 * minute;
    let TokenStep::Renew(request) = tokens.step(&context, due).unwrap() else {
        panic!()
    };
    assert!(request.path().ends_with("/regenerateToken"));
    assert!(request.body().ends_with(b"authToken=first.token"));
    // ...and a refusal of that drops the token, so the next step fetches anew.
    let refused = br#"{"result":{"code":"20002","description":"Invalid token"}}"#;
    assert!(tokens.parse(200, refused, due).is_err());
    let TokenStep::Renew(request) = tokens.step(&context, due).unwrap() else {
        panic!()
    };
    assert!(request.path().ends_with("/authToken"));
    tokens.parse(200, &grant("second.token"), due).unwrap();
    assert_eq!(
        tokens.token(due + minute).unwrap().expose_secret(),
        "second.token"
    );

    // Past the expiry a fetch, never a regenerate of a dead token.
    let late = due + 61 * minute;
    let TokenStep::Renew(request) = tokens.step(&context, late).unwrap() else {
        panic!()
    };
    assert!(request.path().ends_with("/authToken"));
    tokens.invalidate();
    assert!(tokens.token(due).is_none());
    assert_eq!(tokens.renew_at(), None, "no token: renew now");
}

fn page_of(ids: std::ops::Range<u32>) -> Vec<u8> {
    let invoices: Vec<String> = ids
        .map(|id| format!(r#"{{"systemInvoiceId":"INV{id}","amount":"1.00"}}"#))
        .collect();
    format!(
        r#"{{"memberId":"11344","invoiceList":[{}]}}"#,
        invoices.join(",")
    )
    .into_bytes()
}

/// Runs a pager against a gateway that answers page `n` with `answer(n)`; returns the
/// invoice ids seen and the pages asked for.
fn run(records: u32, answer: impl Fn(u32) -> Vec<u8>) -> (Vec<String>, Vec<u32>) {
    let context = common::merchant();
    let mut pager = InvoicePager::new(records).unwrap();
    let (mut ids, mut pages) = (Vec::new(), Vec::new());
    while let Some(request) = pager.next_request(&context) {
        let request = request.unwrap();
        let pairs: Vec<(String, String)> = serde_urlencoded::from_bytes(request.body()).unwrap();
        let page: u32 = pairs
            .iter()
            .find(|(k, _)| k == "pagination.pageno")
            .unwrap()
            .1
            .parse()
            .unwrap();
        pages.push(page);
        assert!(pages.len() < 100, "the pager loops");
        let parsed = pager.parse(200, &answer(page)).unwrap();
        ids.extend(
            parsed
                .invoices
                .into_iter()
                .map(|i| i.system_invoice_id.unwrap()),
        );
    }
    (ids, pages)
}

#[test]
fn the_pager_stops_on_a_short_page() {
    let (ids, pages) = run(2, |page| match page {
        1 => page_of(0..2),
        2 => page_of(2..4),
        _ => page_of(4..5),
    });
    assert_eq!(ids, ["INV0", "INV1", "INV2", "INV3", "INV4"]);
    assert_eq!(pages, [1, 2, 3]);
}

#[test]
fn the_pager_stops_on_an_empty_page_and_on_no_records() {
    let (ids, pages) = run(2, |page| {
        if page == 1 {
            page_of(0..2)
        } else {
            page_of(0..0)
        }
    });
    assert_eq!((ids.len(), pages), (2, vec![1, 2]));
    let no_records =
        br#"{"statusInvoiceResult":{"code":"30060","description":"No records found"}}"#;
    let (ids, pages) = run(2, |page| {
        if page == 1 {
            page_of(0..2)
        } else {
            no_records.to_vec()
        }
    });
    assert_eq!((ids.len(), pages), (2, vec![1, 2]));
    let (ids, pages) = run(5, |_| br#"{"memberId":"11344"}"#.to_vec());
    assert_eq!((ids.len(), pages), (0, vec![1]));
}

#[test]
fn the_pager_never_loops_on_a_gateway_that_ignores_the_page_number() {
    let (ids, pages) = run(2, |_| page_of(0..2));
    assert_eq!(ids, ["INV0", "INV1"]);
    assert_eq!(pages, [1, 2]);
}

#[test]
fn the_pager_stays_on_a_page_that_failed() {
    let context = common::merchant();
    let mut pager = InvoicePager::new(2).unwrap();
    assert!(pager.parse(502, b"<html>").is_err());
    assert_eq!(pager.next_page(), Some(1));
    pager.parse(200, &page_of(0..2)).unwrap();
    assert_eq!(pager.next_page(), Some(2));
    assert!(pager.next_request(&context).is_some());
    assert!(InvoicePager::new(0).is_err() && InvoicePager::starting_at(0, 5).is_err());
}

#[test]
fn a_refused_token_payment_keeps_nothing_secret_in_its_error() {
    let refused = br#"{"paymentId":"-","result":{"code":"30001","description":"Invalid cvv 745 for card 4000000000000051"}}"#;
    let error = common::token_payment().parse(200, refused).unwrap_err();
    let shown = format!("{error} {error:?}");
    assert!(!shown.contains("4000000000000051"), "{shown}");
}
