//! The whole tokenization life cycle, as a merchant meets it: the demo's own script
//! (`paytoken_cli::life_cycle`), then a close look at every answer it kept and the calls
//! the demo leaves out (a payment in installments, the listing of one customer, invoices
//! all at once, inquiry, reconcile, the deleted token's status).

use paytoken::ops::auth_token::FetchAuthToken;
use paytoken::ops::cards_and_accounts::CardsAndAccounts;
use paytoken::ops::inquiry::Inquiry;
use paytoken::ops::invoice_list::InvoiceList;
use paytoken::ops::token_payment::TokenPayment;
use paytoken::types::{RegistrationStatus, TransactionState};
use paytoken::{Client, CodeFamily, FieldValue, PaymentStatus};
use paytoken_cli::life_cycle::{self, LifeCycle};
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Sandbox};

use super::order_id;

/// Every operation, in the order a merchant meets them.
pub(crate) async fn life_cycle(client: &Client, sandbox: &Sandbox) {
    let config = sandbox.config();
    let merchant = config.merchant(DEFAULT_MERCHANT_ID).unwrap();
    let fetch = FetchAuthToken::new(config.partners[0].partner_id, merchant.username.clone());
    // The 3-D Secure steps visit the sandbox's page over plain http.
    let plain_http = sandbox.base_url().starts_with("http://");
    let key = plain_http.then(|| merchant.secure_key.clone());
    let run = life_cycle::run(client, fetch, key).await;
    assert!(run.all_ok(), "{:#?}", run.steps);
    if plain_http {
        check_the_notification(&run);
    }
    check_the_script(&run);
    beyond_the_script(client, &run).await;
}

/// The 3-D Secure payment waited, and its notification verified as approved.
fn check_the_notification(run: &LifeCycle) {
    let waiting = run.three_d_secure_payment.as_ref().unwrap();
    assert!(
        matches!(
            waiting.status,
            PaymentStatus::ThreeDSecure { redirect: Some(_) }
        ),
        "{waiting:?}"
    );
    let notification = run.notification.as_ref().unwrap();
    assert_eq!(notification["notification"], "verified");
    assert_eq!(notification["outcome"], "approved");
    assert_eq!(notification["paymentId"], waiting.payment_id.to_string());
    assert_eq!(notification["amount"], "50.00");
    assert_eq!(notification["unauthenticated"]["status"], "capturesuccess");
}

/// What each step of the script kept.
fn check_the_script(run: &LifeCycle) {
    let grant = run.grant.as_ref().unwrap();
    assert_eq!(grant.result.code.as_str(), "200");
    assert_eq!(grant.member_id.unwrap().as_str(), DEFAULT_MERCHANT_ID);
    assert_eq!(
        run.signed_up.as_ref().unwrap().result.code.as_str(),
        "00007"
    );

    let paid = run.paid.as_ref().unwrap();
    assert_eq!(paid.status, PaymentStatus::Approved);
    assert_eq!(paid.amount.value().unwrap().to_string(), "49.90");
    let first_token = run.first_token().expect("the card was stored");
    assert_eq!(
        run.registered.as_ref().unwrap().result.code.as_str(),
        "00002"
    );
    let second_token = run.second_token().unwrap();

    // The recurring series on the first token: INITIAL, then REPEATED.
    let [initial, repeated] = run.token_payments.as_slice() else {
        panic!("two token payments: {:?}", run.token_payments);
    };
    assert_eq!(initial.status, PaymentStatus::Approved);
    assert_eq!(repeated.status, PaymentStatus::Approved);
    assert_ne!(initial.payment_id, repeated.payment_id);

    assert_eq!(run.plans.as_ref().unwrap().counts, [3, 4]);

    // Both cards are listed, active.
    let stored = run.stored.as_ref().unwrap();
    let tokens: Vec<_> = stored
        .cards
        .iter()
        .filter_map(|c| c.registration_id.value().copied())
        .collect();
    assert!(
        tokens.contains(&first_token) && tokens.contains(&second_token),
        "{tokens:?}"
    );

    assert!(
        run.invoices.len() > 12,
        "seeded invoices and ours: {}",
        run.invoices.len()
    );

    assert_eq!(run.deleted.as_ref().unwrap().result.code.as_str(), "00003");
    let error = run.refused.as_ref().expect("the deleted token is refused");
    let refusal = error.refusal().expect("a refusal, not a transport error");
    assert!(refusal.contains("90011"), "{refusal}");
    assert_eq!(refusal.family(), CodeFamily::Rejection);
    assert!(!error.may_have_been_processed());

    // The back office: a capture, two partial refunds and a cancel, each confirmed by the
    // inquiry's long status.
    let codes: Vec<&str> = run.moves.iter().map(|m| m.result.code.as_str()).collect();
    assert_eq!(codes, ["00004", "00005", "00005", "00006"]);
    assert_eq!(
        run.statuses,
        [
            TransactionState::CaptureSuccess,
            TransactionState::MarkedForReversal,
            TransactionState::Reversed,
            TransactionState::Cancelled,
        ]
    );
}

/// The calls the demo leaves out, on what the script made.
async fn beyond_the_script(client: &Client, run: &LifeCycle) {
    let first_token = run.first_token().unwrap();
    let second_token = run.second_token().unwrap();

    // A payment in three installments on the second token.
    let in_three = client
        .pay_with_token(
            &TokenPayment::new(
                second_token,
                "120.00".parse().unwrap(),
                "EUR".parse().unwrap(),
            )
            .merchant_transaction_id(order_id())
            .installment(3),
        )
        .await
        .unwrap();
    assert_eq!(in_three.status, PaymentStatus::Approved);

    // The customer's own cards: both, the deleted one inactive.
    let customer_id = run.signed_up.as_ref().unwrap().customer_id;
    let of_customer = client
        .cards_and_accounts(&CardsAndAccounts::of_customer(customer_id))
        .await
        .unwrap();
    assert_eq!(of_customer.cards.len(), 2);
    let status = of_customer
        .cards
        .iter()
        .find(|c| c.registration_id.value() == Some(&first_token))
        .and_then(|c| c.registration_status.value().cloned());
    assert_eq!(status, Some(RegistrationStatus::Inactive));

    // Invoices page by page, and all at once: the same list, now with the payment in three.
    let mut by_page = Vec::new();
    for page in 1.. {
        let answer = client
            .invoice_page(&InvoiceList::new(page, 5))
            .await
            .unwrap();
        let count = answer.invoices.len();
        by_page.extend(answer.invoices);
        if count < 5 {
            break;
        }
    }
    assert!(by_page.len() > run.invoices.len(), "{}", by_page.len());
    assert_eq!(client.all_invoices(5).await.unwrap(), by_page);

    // The first payment, found by its id and by the merchant's.
    let paid = run.paid.as_ref().unwrap();
    let found = client
        .inquiry(&Inquiry::ByPaymentId(paid.payment_id))
        .await
        .unwrap();
    assert_eq!(found.status, PaymentStatus::Approved);
    let payment = run.payment.as_ref().unwrap();
    let reconciled = client
        .reconcile(&payment.merchant_transaction_id)
        .await
        .unwrap();
    assert_eq!(reconciled.payment_id, paid.payment_id);
}
