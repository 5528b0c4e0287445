//! Headless chromium goes from the shop's checkout to the 3-D Secure page the payment's
//! redirect names, approves, and lands back on the shop's `merchantRedirectUrl` with
//! fields that verify.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use fantoccini::Locator;
use paytoken::notification::Notification;
use paytoken::ops::payment::Payment;
use paytoken::{Amount, PaymentStatus};
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Sandbox, cards};
use paytoken_test_support::http::{Received, read_request};
use tokio::io::AsyncWriteExt as _;
use tokio::net::TcpListener;

use super::headless_chromium;
use crate::common::{card, client_for, order_id};

/// What the shop received on its return URL: the browser's form.
type Returned = Arc<Mutex<Option<String>>>;

/// The shop: `GET /checkout` answers the page a merchant renders for a 3-D Secure redirect
/// (the page `checkout` holds once the payment answered); `POST /return` keeps the
/// browser's form and thanks it.
async fn shop(checkout: Arc<Mutex<String>>, returned: Returned) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let Some(Received { head, body }) = read_request(&mut stream).await else {
                continue;
            };
            let page = if head.starts_with("POST /return") {
                *returned.lock().unwrap() = Some(String::from_utf8_lossy(&body).into_owned());
                "<!doctype html><title>Thanks</title><p id=\"thanks\">Thank you.</p>".to_owned()
            } else {
                checkout.lock().unwrap().clone()
            };
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html;charset=UTF-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{page}",
                page.len()
            );
            let _ = stream.write_all(answer.as_bytes()).await;
        }
    });
    format!("http://{address}")
}

/// The page a merchant renders for a redirect: a form posting its parameters to its URL,
/// submitted on load. (The values are the sandbox's: digits and a URL of the test's.)
fn checkout_page(url: &str, parameters: &[(String, String)]) -> String {
    let inputs: String = parameters
        .iter()
        .map(|(name, value)| format!("<input type=\"hidden\" name=\"{name}\" value=\"{value}\">"))
        .collect();
    format!(
        "<!doctype html><title>Checkout</title><body onload=\"document.forms[0].submit()\"><form method=\"post\" action=\"{url}\">{inputs}</form></body>"
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Debian's chromium and chromium-driver; cargo xtask ci installs them and runs it"]
async fn a_browser_approves_on_the_3ds_page_and_returns_to_the_shop_with_fields_that_verify() {
    let sandbox = Sandbox::start().await.unwrap();
    let client = client_for(&sandbox).build().unwrap();
    let key = sandbox
        .config()
        .merchant(DEFAULT_MERCHANT_ID)
        .unwrap()
        .secure_key
        .clone();
    let checkout = Arc::new(Mutex::new(String::new()));
    let returned = Returned::default();
    let shop = shop(Arc::clone(&checkout), Arc::clone(&returned)).await;

    let payment = Payment::new(
        order_id(),
        "50.00".parse::<Amount>().unwrap(),
        "EUR".parse().unwrap(),
        card(cards::THREE_D_SECURE),
    )
    .merchant_redirect_url(format!("{shop}/return"));
    let waiting = client.pay(&payment).await.unwrap();
    let PaymentStatus::ThreeDSecure {
        redirect: Some(redirect),
    } = &waiting.status
    else {
        panic!("a 3-D Secure redirect: {waiting:?}");
    };
    let parameters: Vec<(String, String)> = redirect
        .parameters
        .iter()
        .map(|parameter| (parameter.name.clone(), parameter.value.clone()))
        .collect();
    *checkout.lock().unwrap() = checkout_page(&redirect.url, &parameters);

    let (_driver, browser) = headless_chromium().await;

    // The shop's checkout sends the browser on to the sandbox's challenge.
    browser.goto(&format!("{shop}/checkout")).await.unwrap();
    let approve = browser
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Id("approve"))
        .await
        .unwrap();
    approve.click().await.unwrap();
    // The page sends the browser back to the shop, which thanks it.
    browser
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Id("thanks"))
        .await
        .unwrap();
    let landed = browser.current_url().await.unwrap();
    browser.close().await.unwrap();
    assert_eq!(landed.as_str(), format!("{shop}/return"));

    let form = returned
        .lock()
        .unwrap()
        .clone()
        .expect("the browser's form");
    let verified = Notification::from_form(form.as_bytes())
        .unwrap()
        .verify(&key)
        .unwrap();
    assert_eq!(verified.payment_id, waiting.payment_id);
    assert_eq!(verified.status, PaymentStatus::Approved);
    assert_eq!(verified.amount.raw(), "50.00");
}
