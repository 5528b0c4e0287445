//! Every endpoint over real HTTP, its answer checked field by field as raw JSON, then read
//! by the protocol crate's parser to prove the two agree.

use crate::common;

use common::*;
use paytoken_protocol::ops::auth_token::{FetchAuthToken, RegenerateAuthToken};
use paytoken_protocol::ops::cards_and_accounts::CardsAndAccounts;
use paytoken_protocol::ops::customer_signup::CustomerSignup;
use paytoken_protocol::ops::delete_token::DeleteToken;
use paytoken_protocol::ops::inquiry::Inquiry;
use paytoken_protocol::ops::installments::Installments;
use paytoken_protocol::ops::invoice_list::InvoiceList;
use paytoken_protocol::ops::payment::Payment;
use paytoken_protocol::ops::registration::Registration;
use paytoken_protocol::ops::token_payment::TokenPayment;
use paytoken_protocol::{Context, Operation, PaymentStatus};
use paytoken_sandbox::{InvoiceShape, SEEDED_INVOICES_PER_MERCHANT, cards};
use paytoken_types::{BankAccount, Customer, Email, RecurringType, RegistrationId};
use serde_json::Value;

fn payment(number: &str, amount: &str) -> Payment {
    Payment::new(
        order_id().parse().unwrap(),
        amount.parse().unwrap(),
        "EUR".parse().unwrap(),
        card(number),
    )
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

#[tokio::test]
async fn auth_tokens_for_a_merchant_a_partner_and_a_regenerated_one() {
    let sandbox = sandbox().await;
    let merchant = merchant(&sandbox);
    let fetch = FetchAuthToken::new(partner(&sandbox).partner_id, merchant.username.clone());
    let raw = send(&sandbox, &fetch.request(&merchant.context()).unwrap()).await;
    let answer = raw.json();
    assert_eq!(answer["partnerId"], "100");
    assert_eq!(answer["memberId"], "11344");
    assert_eq!(answer["result"]["code"], "200");
    assert_eq!(
        answer["result"]["description"],
        "Token generated successfully"
    );
    assert_eq!(answer["LoginName"], "shop.admin");
    assert_timestamp(&answer["timestamp"]);
    let token = answer["AuthToken"].as_str().unwrap();
    assert_eq!(token.split('.').count(), 3, "JWT-shaped: {token}");
    let grant = fetch.parse(raw.status, &raw.body).unwrap();

    let the_partner = partner(&sandbox);
    let fetch = FetchAuthToken::new(the_partner.partner_id, the_partner.username.clone());
    let answer = send(&sandbox, &fetch.request(&the_partner.context()).unwrap())
        .await
        .json();
    assert_eq!(
        keys(&answer),
        ["AuthToken", "LoginName", "partnerId", "result", "timestamp"]
    );
    assert_eq!(answer["partnerId"], "100");
    assert_eq!(answer["LoginName"], "partner.admin");
    assert_eq!(answer["result"]["code"], "200");

    let regenerate = RegenerateAuthToken {
        partner_id: partner(&sandbox).partner_id,
        token: grant.token.clone(),
    };
    let raw = send(&sandbox, &regenerate.request(&merchant.context()).unwrap()).await;
    let answer = raw.json();
    // The documented regenerate answer: `statusInvoiceResult`, `00020`.
    assert_eq!(answer["statusInvoiceResult"]["code"], "00020");
    assert_eq!(
        answer["statusInvoiceResult"]["description"],
        "Auth Token generated successfully"
    );
    assert_eq!(answer["memberId"], "11344");
    let fresh = regenerate.parse(raw.status, &raw.body).unwrap().token;
    assert_ne!(fresh, grant.token);

    // The old token stopped working; the new one works.
    let list = CardsAndAccounts::all();
    let old = Context {
        auth_token: Some(grant.token),
        ..merchant.context()
    };
    let refused = call(&sandbox, &old, &list).await.unwrap_err();
    assert_eq!(refused.refusal().unwrap().result.code.as_str(), "20002");
    let new = Context {
        auth_token: Some(fresh),
        ..merchant.context()
    };
    call(&sandbox, &new, &list).await.unwrap();
}

#[tokio::test]
async fn customer_sign_up_by_a_merchant_and_by_a_partner() {
    let sandbox = sandbox().await;
    let customer = Customer {
        given_name: Some("Zoë".into()),
        surname: Some("O'Neil".into()),
        email: Some(Email::new("zoe@example.com").unwrap()),
        birth_date: Some("19840229".parse().unwrap()),
        ..Customer::default()
    };
    let signup = CustomerSignup::new(customer);
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let answer = send(&sandbox, &signup.request(&context).unwrap())
        .await
        .json();
    assert_eq!(
        keys(&answer),
        ["customerId", "memberId", "result", "timestamp"]
    );
    assert_eq!(answer["memberId"], "11344");
    assert_eq!(answer["result"]["code"], "00007");
    assert_eq!(
        answer["result"]["description"],
        "Cardholder successfully registered"
    );
    let first: u64 = answer["customerId"].as_str().unwrap().parse().unwrap();

    let partner = partner_signed_in(&sandbox).await;
    let signed_up = call(&sandbox, &partner, &signup).await.unwrap();
    assert_eq!(signed_up.customer_id.as_str(), (first + 1).to_string());
    let answer = send(&sandbox, &signup.request(&partner).unwrap())
        .await
        .json();
    assert_eq!(answer["partnerId"], "100");
    assert!(answer.get("memberId").is_none());
}

#[tokio::test]
async fn an_approved_payment_that_stores_the_card_and_its_inquiries() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let mut pay = payment(cards::APPROVED, "1250.50")
        .store_card()
        .recurring(RecurringType::Initial)
        .order_descriptor("Coffee & cake");
    pay.merchant_redirect_url = Some("https://shop.example/back".into());
    let answer = send(&sandbox, &pay.request(&context).unwrap()).await.json();
    let payment_id = answer["paymentId"].as_str().unwrap().to_owned();
    assert!(
        payment_id.bytes().all(|b| b.is_ascii_digit()),
        "{payment_id}"
    );
    assert_eq!(answer["memberId"], "11344");
    let registration = answer["registrationId"].as_str().unwrap();
    assert_eq!(registration.len(), 32);
    assert!(registration.bytes().all(|b| b.is_ascii_alphanumeric()));
    assert_eq!(answer["paymentType"], "DB");
    assert_eq!(answer["paymentBrand"], "VISA");
    assert_eq!(answer["paymentMode"], "CC");
    assert_eq!(answer["amount"], "1250.50");
    assert_eq!(answer["currency"], "EUR");
    assert_eq!(answer["descriptor"], "Coffee & cake");
    assert_eq!(answer["result"]["code"], "00001");
    assert_eq!(answer["result"]["description"], "Transaction succeeded");
    assert_eq!(answer["card"]["bin"], "400000");
    assert_eq!(answer["card"]["last4Digits"], "0051");
    assert_eq!(answer["card"]["holder"], "Zoë O'Neil");
    assert_eq!(answer["card"]["expiryMonth"], "12");
    assert_eq!(answer["card"]["expiryYear"], "2099");
    assert_eq!(
        answer["merchantTransactionId"],
        pay.merchant_transaction_id.as_str()
    );
    assert_eq!(answer["transactionStatus"], "Y");
    assert_timestamp(&answer["timestamp"]);
    assert!(answer.get("redirect").is_none() && answer.get("remark").is_none());
    // Inquiry by either id finds the payment.
    let by_payment = Inquiry::ByPaymentId(payment_id.parse().unwrap());
    let answer = send(&sandbox, &by_payment.request(&context).unwrap())
        .await
        .json();
    assert_eq!(answer["paymentId"], payment_id.as_str());
    assert_eq!(answer["result"]["code"], "00026");
    assert_eq!(answer["result"]["description"], "Record found");
    assert_eq!(answer["transactionStatus"], "Y");
    let by_order = Inquiry::ByMerchantTransactionId(pay.merchant_transaction_id);
    let found = call(&sandbox, &context, &by_order).await.unwrap();
    assert_eq!(found.payment_id.as_str(), payment_id);
    assert_eq!(found.status, PaymentStatus::Approved);
}

#[tokio::test]
async fn every_test_card_decides_its_outcome() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    for (number, letter, code, remark) in [
        (cards::APPROVED, "Y", "00001", None),
        (cards::MASTERCARD_APPROVED, "Y", "00001", None),
        (cards::DECLINED, "N", "10001", Some("Do not honour")),
        (
            cards::INSUFFICIENT_FUNDS,
            "N",
            "10001",
            Some("Insufficient funds"),
        ),
        (cards::PENDING, "P", "10004", None),
        (cards::THREE_D_SECURE, "3D", "90026", None),
    ] {
        let pay = payment(number, "10.00");
        let raw = send(&sandbox, &pay.request(&context).unwrap()).await;
        let answer = raw.json();
        assert_eq!(answer["transactionStatus"], letter, "{number}");
        assert_eq!(answer["result"]["code"], code, "{number}");
        assert_eq!(answer["remark"].as_str(), remark, "{number}");
        let transaction = pay.parse(raw.status, &raw.body).unwrap();
        let expected = match letter {
            "Y" => matches!(transaction.status, PaymentStatus::Approved),
            "N" => matches!(transaction.status, PaymentStatus::Declined),
            "P" => matches!(transaction.status, PaymentStatus::Pending),
            _ => matches!(
                transaction.status,
                PaymentStatus::ThreeDSecure { redirect: Some(_) }
            ),
        };
        assert!(expected, "{number}: {:?}", transaction.status);
    }
    assert_eq!(
        send(
            &sandbox,
            &payment(cards::MASTERCARD_APPROVED, "1.00")
                .request(&context)
                .unwrap()
        )
        .await
        .json()["paymentBrand"],
        "MC",
        "the platform's code, told from the number"
    );
}

#[tokio::test]
async fn three_d_secure_redirects_to_a_page_where_the_cardholder_approves_the_payment() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let mut pay = payment(cards::THREE_D_SECURE, "50.00");
    pay.merchant_redirect_url = Some("https://shop.example/back".into());
    let answer = send(&sandbox, &pay.request(&context).unwrap()).await.json();
    let payment_id = answer["paymentId"].as_str().unwrap();
    let redirect = &answer["redirect"];
    let url = redirect["url"].as_str().unwrap();
    assert_eq!(
        url,
        format!("{}/sandbox/3ds/{payment_id}", sandbox.base_url())
    );
    assert_eq!(redirect["method"], "POST");
    assert_eq!(redirect["target"], "_self");
    assert_eq!(redirect["parameters"][0]["name"], "MD");
    assert_eq!(redirect["parameters"][0]["value"], payment_id);
    assert_eq!(redirect["parameters"][1]["name"], "TermUrl");
    assert_eq!(
        redirect["parameters"][1]["value"],
        "https://shop.example/back"
    );

    let path = url.strip_prefix(sandbox.base_url()).unwrap();
    let page = exchange(sandbox.address(), "POST", path, &[], b"MD=x")
        .await
        .unwrap();
    assert_eq!(page.status, 200);
    assert!(page.text().contains("Approve"), "{}", page.text());
    let page = exchange(sandbox.address(), "POST", path, &[], b"decision=approve")
        .await
        .unwrap();
    assert!(page.text().contains("approved"), "{}", page.text());
    let inquiry = Inquiry::ByPaymentId(payment_id.parse().unwrap());
    let found = call(&sandbox, &context, &inquiry).await.unwrap();
    assert_eq!(found.status, PaymentStatus::Approved);
}

#[tokio::test]
async fn stand_alone_registrations_of_a_card_and_a_bank_account() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let answer = send(
        &sandbox,
        &Registration::card(card(cards::INSTALLMENTS))
            .request(&context)
            .unwrap(),
    )
    .await
    .json();
    assert_eq!(
        keys(&answer),
        [
            "memberId",
            "paymentBrand",
            "paymentMode",
            "registrationId",
            "result",
            "timestamp"
        ]
    );
    assert_eq!(answer["paymentBrand"], "VISA");
    assert_eq!(answer["paymentMode"], "CC");
    assert_eq!(answer["result"]["code"], "00002");
    assert_eq!(answer["result"]["description"], "Registration successful");

    let account = BankAccount {
        iban: "DE89 3704 0044 0532 0130 00".parse().unwrap(),
        bic: "COBADEFFXXX".parse().unwrap(),
        holder: Some("Zoë O'Neil".into()),
    };
    let registration = Registration::bank_account(account);
    let raw = send(&sandbox, &registration.request(&context).unwrap()).await;
    let answer = raw.json();
    assert_eq!(answer["paymentBrand"], "DIRECTDEBIT");
    assert_eq!(answer["paymentMode"], "SEPA");
    let registered = registration.parse(raw.status, &raw.body).unwrap();
    assert_eq!(
        registered.registration_id.as_str(),
        answer["registrationId"]
    );

    let list = send(
        &sandbox,
        &CardsAndAccounts::all().request(&context).unwrap(),
    )
    .await
    .json();
    assert_eq!(list["memberId"], "11344");
    assert_eq!(list["result"]["code"], "0008");
    assert_eq!(
        list["result"]["description"],
        "Your request processed successfully"
    );
    // One of each: single objects, not arrays.
    let card_entry = &list["cards"]["card"];
    assert!(card_entry.is_object(), "{list}");
    assert_eq!(card_entry["registrationStatus"], "Y");
    assert_eq!(card_entry["cardType"], "VISA");
    assert_eq!(card_entry["bin"], "444433");
    assert_eq!(card_entry["last4Digits"], "1111");
    assert_eq!(card_entry["expiryMonth"], "12");
    assert_eq!(card_entry["expiryYear"], "2099");
    let account_entry = &list["bankaccounts"]["bankaccount"];
    assert!(account_entry.is_object(), "{list}");
    assert_eq!(account_entry["iban"], "DE****************3000");
    assert_eq!(account_entry["bic"], "COBADEFFXXX");
    assert_eq!(
        account_entry["registrationId"],
        registered.registration_id.as_str()
    );
}

#[tokio::test]
async fn no_registrations_is_the_gateways_error_and_a_customer_filter_narrows_the_list() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let list = send(
        &sandbox,
        &CardsAndAccounts::all().request(&context).unwrap(),
    )
    .await
    .json();
    assert_eq!(list["result"]["description"], "Invalid Recurring Type.");
    assert_eq!(list["result"]["code"], "30025");
    let empty = call(&sandbox, &context, &CardsAndAccounts::all())
        .await
        .unwrap();
    assert!(empty.cards.is_empty() && empty.bank_accounts.is_empty());

    let customer = Customer {
        given_name: Some("Ann".into()),
        surname: Some("Example".into()),
        email: Some(Email::new("ann@example.com").unwrap()),
        ..Customer::default()
    };
    let customer_id = call(&sandbox, &context, &CustomerSignup::new(customer.clone()))
        .await
        .unwrap()
        .customer_id;
    let with_customer = Registration::card(card(cards::APPROVED)).customer(Customer {
        customer_id: Some(customer_id),
        ..customer
    });
    call(&sandbox, &context, &with_customer).await.unwrap();
    call(
        &sandbox,
        &context,
        &Registration::card(card(cards::APPROVED)),
    )
    .await
    .unwrap();
    call(
        &sandbox,
        &context,
        &Registration::card(card(cards::MASTERCARD_APPROVED)),
    )
    .await
    .unwrap();

    let everything = send(
        &sandbox,
        &CardsAndAccounts::all().request(&context).unwrap(),
    )
    .await
    .json();
    assert_eq!(everything["cards"]["card"].as_array().unwrap().len(), 3);
    let list = CardsAndAccounts::of_customer(customer_id);
    let answer = send(&sandbox, &list.request(&context).unwrap())
        .await
        .json();
    assert_eq!(answer["customerId"], customer_id.as_str());
    assert_eq!(answer["cards"]["card"]["customerId"], customer_id.as_str());
    let parsed = call(&sandbox, &context, &list).await.unwrap();
    assert_eq!(parsed.cards.len(), 1);
}

#[tokio::test]
async fn token_payments_plain_initial_repeated_with_installments_then_delete() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    let token: RegistrationId = call(
        &sandbox,
        &context,
        &Registration::card(card(cards::INSTALLMENTS)),
    )
    .await
    .unwrap()
    .registration_id;

    let plans = Installments::new(token);
    let answer = send(&sandbox, &plans.request(&context).unwrap())
        .await
        .json();
    assert_eq!(keys(&answer), ["card", "installment", "registrationId"]);
    assert_eq!(answer["registrationId"], token.as_str());
    assert_eq!(answer["card"]["bin"], "444433");
    assert_eq!(answer["card"]["last4Digits"], "1111");
    assert_eq!(answer["card"]["lastFourDigits"], "1111");
    assert_eq!(answer["installment"], "3,4");
    assert_eq!(
        call(&sandbox, &context, &plans).await.unwrap().counts,
        [3, 4]
    );

    let plain = TokenPayment::new(token, "25.00".parse().unwrap(), "EUR".parse().unwrap());
    let answer = send(&sandbox, &plain.request(&context).unwrap())
        .await
        .json();
    assert_eq!(answer["paymentType"], "DB");
    assert_eq!(answer["result"]["code"], "00001");
    assert_eq!(answer["registrationId"], token.as_str());
    assert_eq!(answer["transactionStatus"], "Y");
    assert_timestamp(&answer["timestamp"]);

    let initial = plain
        .clone()
        .merchant_transaction_id(order_id().parse().unwrap())
        .recurring(RecurringType::Initial);
    let transaction = call(&sandbox, &context, &initial).await.unwrap();
    assert_eq!(transaction.status, PaymentStatus::Approved);
    let repeated = plain
        .clone()
        .recurring(RecurringType::Repeated)
        .installment(4);
    let answer = send(&sandbox, &repeated.request(&context).unwrap())
        .await
        .json();
    assert_eq!(answer["result"]["code"], "00001", "{answer}");

    let delete = DeleteToken::new(token);
    let answer = send(&sandbox, &delete.request(&context).unwrap())
        .await
        .json();
    assert_eq!(keys(&answer), ["registrationId", "result", "timestamp"]);
    assert_eq!(answer["registrationId"], token.as_str());
    assert_eq!(answer["result"]["code"], "00003");
    assert_eq!(
        answer["result"]["description"],
        "Registration successfully deleted"
    );

    let list = call(&sandbox, &context, &CardsAndAccounts::all())
        .await
        .unwrap();
    assert_eq!(list.cards.len(), 1);
    assert_eq!(
        list.cards[0].registration_status.as_ref().unwrap().raw(),
        "N"
    );
}

#[tokio::test]
async fn invoices_page_through_seeded_and_paid_ones() {
    let sandbox = sandbox().await;
    let context = signed_in(&sandbox, merchant(&sandbox)).await;
    call(&sandbox, &context, &payment(cards::APPROVED, "42.00"))
        .await
        .unwrap();
    call(&sandbox, &context, &payment(cards::DECLINED, "43.00"))
        .await
        .unwrap();
    let total = SEEDED_INVOICES_PER_MERCHANT + 1;

    let first = send(&sandbox, &InvoiceList::new(1, 5).request(&context).unwrap())
        .await
        .json();
    assert_eq!(first["memberId"], "11344");
    assert_eq!(first["result"]["code"], "00001");
    let invoices = first["invoiceList"].as_array().unwrap();
    assert_eq!(invoices.len(), 5);
    let invoice = &invoices[0];
    for field in [
        "amount",
        "currency",
        "expirationPeriod",
        "createdDate",
        "systemInvoiceId",
        "transactionUrl",
        "invoiceStatus",
        "transactionStatus",
        "customerDetails",
        "raiseby",
        "orderId",
        "orderDescription",
        "trackingid",
        "dtstamp",
    ] {
        assert!(invoice.get(field).is_some(), "{field} in {invoice}");
    }
    assert!(invoice["createdDate"].as_str().unwrap().ends_with(".0"));
    assert!(invoice["customerDetails"]["customername"].is_string());

    // The last page holds the one paid invoice, alone: a single object.
    let last_page = u32::try_from(total).unwrap();
    let last = send(
        &sandbox,
        &InvoiceList::new(last_page, 1).request(&context).unwrap(),
    )
    .await
    .json();
    assert_eq!(last["invoiceList"]["amount"], "42.00");
    assert_eq!(last["invoiceList"]["invoiceStatus"], "processed");

    let past = send(
        &sandbox,
        &InvoiceList::new(last_page + 1, 1)
            .request(&context)
            .unwrap(),
    )
    .await
    .json();
    assert_eq!(past["statusInvoiceResult"]["code"], "30060");
    assert_eq!(
        past["statusInvoiceResult"]["description"],
        "No records found"
    );
    let empty = call(&sandbox, &context, &InvoiceList::new(last_page + 1, 1))
        .await
        .unwrap();
    assert!(empty.invoices.is_empty());

    let mut read = 0;
    for page in 1..=3 {
        read += call(&sandbox, &context, &InvoiceList::new(page, 5))
            .await
            .unwrap()
            .invoices
            .len();
    }
    assert_eq!(read, total);
}

#[tokio::test]
async fn invoices_in_each_of_the_three_shapes() {
    for shape in [
        InvoiceShape::Array,
        InvoiceShape::OneOrMany,
        InvoiceShape::PositionMap,
    ] {
        let sandbox = builder().invoice_shape(shape).start().await.unwrap();
        let context = signed_in(&sandbox, merchant(&sandbox)).await;
        let single = InvoiceList::new(1, 1);
        let raw = send(&sandbox, &single.request(&context).unwrap()).await;
        assert_eq!(raw.status, 200);
        let text = raw.text();
        let parsed = single.parse(raw.status, &raw.body).unwrap();
        assert_eq!(parsed.invoices.len(), 1, "{shape:?}");
        match shape {
            InvoiceShape::Array => assert!(text.contains(r#""invoiceList":[{"#), "{text}"),
            InvoiceShape::OneOrMany => {
                assert!(text.contains(r#""invoiceList":{"amount""#), "{text}")
            }
            _ => assert!(text.contains(r#""invoiceList":{"0 ":{"#), "{text}"),
        }
        let page = call(&sandbox, &context, &InvoiceList::new(1, 3))
            .await
            .unwrap();
        assert_eq!(page.invoices.len(), 3, "{shape:?}");
        let orders: Vec<_> = page
            .invoices
            .iter()
            .map(|i| i.order_id.clone().unwrap())
            .collect();
        assert_eq!(orders, ["ORDER0001", "ORDER0002", "ORDER0003"], "{shape:?}");
        let names: Vec<_> = page
            .invoices
            .iter()
            .map(|i| i.customer.as_ref().and_then(|c| c.name.clone()).unwrap())
            .collect();
        assert_eq!(
            names,
            ["Ann Example", "Bob Example", "Chidi Okafor"],
            "{shape:?}"
        );
    }
}

#[tokio::test]
async fn a_tap_holds_each_gateway_request_whole_and_nothing_of_the_console() {
    let tap = paytoken_sandbox::tap::Tap::default();
    let sandbox = builder().tap(tap.clone()).start().await.unwrap();
    let merchant = merchant(&sandbox);
    let payment = payment(cards::APPROVED, "50.00");
    let request = payment.request(&merchant.context()).unwrap();
    let token = paytoken_protocol::AUTH_TOKEN_HEADER;
    let answered = send_with(&sandbox, &request, &[(token, "eyJ0.tapped.c2ln")]).await;
    assert_eq!(answered.status, 200);
    // The console answers (here a refusal, without the console's own headers): untapped.
    exchange(
        sandbox.address(),
        "GET",
        &format!("{}clock", paytoken_sandbox::CONSOLE_PREFIX),
        &[],
        b"",
    )
    .await
    .unwrap();
    let tapped = tap.take().unwrap();
    assert_eq!(tapped.len(), 1, "{tapped:?}");
    assert_eq!(tapped[0].method, "POST");
    assert_eq!(tapped[0].path, request.path());
    assert_eq!(tapped[0].query, None);
    assert_eq!(
        tapped[0].body,
        &request.body()[..],
        "the body unmasked and unclipped"
    );
    let sent = tapped[0]
        .headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(token));
    assert_eq!(
        sent.map(|(_, value)| value.as_str()),
        Some("eyJ0.tapped.c2ln")
    );
    assert!(tap.take().unwrap().is_empty());
    sandbox.shutdown().await;
}

/// A sandbox serving the gateway's paths only: its console, dashboard and 3-D Secure
/// page answer `404` (and are tapped, for the harness to see), a fault header steers
/// nothing, and a payment is taken as ever.
#[tokio::test]
async fn a_gateway_only_sandbox_hides_its_own_paths_and_reads_no_fault_header() {
    let tap = paytoken_sandbox::tap::Tap::default();
    let sandbox = builder()
        .gateway_only()
        .tap(tap.clone())
        .start()
        .await
        .unwrap();
    let merchant = merchant(&sandbox);
    let own = [
        (
            "POST",
            format!("{}faults/clear", paytoken_sandbox::CONSOLE_PREFIX),
        ),
        ("GET", paytoken_sandbox::DASHBOARD_PATH.to_owned()),
        ("POST", "/sandbox/3ds/60001".to_owned()),
    ];
    for (method, path) in &own {
        let answered = exchange(sandbox.address(), method, path, &[], b"decision=approve")
            .await
            .unwrap();
        assert_eq!(answered.status, 404, "{method} {path}");
    }
    let tapped: Vec<String> = tap.take().unwrap().into_iter().map(|t| t.path).collect();
    assert_eq!(
        tapped,
        own.iter().map(|(_, path)| path.clone()).collect::<Vec<_>>()
    );
    // The fault header asks for the answer to be dropped: the payment is answered anyway.
    let request = payment(cards::APPROVED, "50.00")
        .request(&merchant.context())
        .unwrap();
    let answered = send_with(
        &sandbox,
        &request,
        &[(paytoken_sandbox::FAULT_HEADER, "drop=after")],
    )
    .await;
    assert_eq!(answered.status, 200);
    sandbox.shutdown().await;
}
