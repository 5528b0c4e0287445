//! The whole tokenization life cycle, as a merchant meets it: every operation once.

use paytoken::ops::auth_token::FetchAuthToken;
use paytoken::ops::cards_and_accounts::CardsAndAccounts;
use paytoken::ops::customer_signup::CustomerSignup;
use paytoken::ops::delete_token::DeleteToken;
use paytoken::ops::inquiry::Inquiry;
use paytoken::ops::installments::Installments;
use paytoken::ops::invoice_list::InvoiceList;
use paytoken::ops::payment::Payment;
use paytoken::ops::registration::Registration;
use paytoken::ops::token_payment::TokenPayment;
use paytoken::types::{RecurringType, RegistrationStatus};
use paytoken::{Client, CodeFamily, Customer, FieldValue, PaymentStatus};
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Sandbox, cards};

use super::{card, customer, order_id};

/// Every operation, in the order a merchant meets them.
pub(crate) async fn life_cycle(client: &Client, sandbox: &Sandbox) {
    // An auth token on request (the client fetched its own before the first call too).
    let config = sandbox.config();
    let merchant = config.merchant(DEFAULT_MERCHANT_ID).unwrap();
    let fetch = FetchAuthToken::new(config.partners[0].partner_id, merchant.username.clone());
    let grant = client.fetch_auth_token(&fetch).await.unwrap();
    assert_eq!(grant.result.code.as_str(), "200");
    assert_eq!(grant.member_id.unwrap().as_str(), DEFAULT_MERCHANT_ID);

    let signed_up = client
        .customer_signup(&CustomerSignup::new(customer()))
        .await
        .unwrap();
    assert_eq!(signed_up.result.code.as_str(), "00007");
    let with_id = Customer {
        customer_id: Some(signed_up.customer_id),
        ..customer()
    };

    // Pay and store the card.
    let payment = Payment::new(
        order_id(),
        "50.00".parse().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::APPROVED),
    )
    .store_card()
    .customer(with_id.clone());
    let paid = client.pay(&payment).await.unwrap();
    assert_eq!(paid.status, PaymentStatus::Approved);
    assert_eq!(paid.amount.value().unwrap().to_string(), "50.00");
    let first_token = *paid.registration_id.value().expect("the card was stored");

    // A second card, stored without a payment.
    let registered = client
        .register(&Registration::card(card(cards::INSTALLMENTS)).customer(with_id.clone()))
        .await
        .unwrap();
    assert_eq!(registered.result.code.as_str(), "00002");
    let second_token = registered.registration_id;

    // A recurring series on the first token: INITIAL, then REPEATED.
    let series = |recurring| {
        TokenPayment::new(first_token, "9.99".parse().unwrap(), "EUR".parse().unwrap())
            .merchant_transaction_id(order_id())
            .recurring(recurring)
    };
    let initial = client
        .pay_with_token(&series(RecurringType::Initial))
        .await
        .unwrap();
    assert_eq!(initial.status, PaymentStatus::Approved);
    let repeated = client
        .pay_with_token(&series(RecurringType::Repeated))
        .await
        .unwrap();
    assert_eq!(repeated.status, PaymentStatus::Approved);
    assert_ne!(initial.payment_id, repeated.payment_id);

    // Installments on the second token, and a payment in three.
    let plans = client
        .installments(&Installments::new(second_token))
        .await
        .unwrap();
    assert_eq!(plans.counts, [3, 4]);
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

    // Both cards are listed, for the merchant and for the customer.
    let stored = client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap();
    let tokens: Vec<_> = stored
        .cards
        .iter()
        .filter_map(|c| c.registration_id.value().copied())
        .collect();
    assert!(
        tokens.contains(&first_token) && tokens.contains(&second_token),
        "{tokens:?}"
    );
    let of_customer = client
        .cards_and_accounts(&CardsAndAccounts::of_customer(signed_up.customer_id))
        .await
        .unwrap();
    assert_eq!(of_customer.cards.len(), 2);

    // Invoices page by page, and all at once: the same list.
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
    assert!(
        by_page.len() > 12,
        "seeded invoices and ours: {}",
        by_page.len()
    );
    assert_eq!(client.all_invoices(5).await.unwrap(), by_page);

    // The payment, found by its id and by the merchant's.
    let found = client
        .inquiry(&Inquiry::ByPaymentId(paid.payment_id))
        .await
        .unwrap();
    assert_eq!(found.status, PaymentStatus::Approved);
    let reconciled = client
        .reconcile(&payment.merchant_transaction_id)
        .await
        .unwrap();
    assert_eq!(reconciled.payment_id, paid.payment_id);

    // Delete the first token: it is listed inactive, and a payment with it is refused.
    let deleted = client
        .delete_token(&DeleteToken::new(first_token))
        .await
        .unwrap();
    assert_eq!(deleted.result.code.as_str(), "00003");
    let stored = client
        .cards_and_accounts(&CardsAndAccounts::all())
        .await
        .unwrap();
    let status = stored
        .cards
        .iter()
        .find(|c| c.registration_id.value() == Some(&first_token))
        .and_then(|c| c.registration_status.value().cloned());
    assert_eq!(status, Some(RegistrationStatus::Inactive));
    let error = client
        .pay_with_token(&series(RecurringType::Repeated))
        .await
        .unwrap_err();
    let refusal = error.refusal().expect("a refusal, not a transport error");
    assert!(refusal.contains("90011"), "{refusal}");
    assert_eq!(refusal.family(), CodeFamily::Rejection);
    assert!(!error.may_have_been_processed());
}
