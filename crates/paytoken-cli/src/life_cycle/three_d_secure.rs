//! The 3-D Secure steps of the life cycle: a payment that waits for the cardholder, the
//! cardholder approving on the sandbox's challenge page, and the notification the sandbox
//! then posts, received and verified by `paytoken listen`'s own receiver.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use hyper::header::HeaderValue;
use paytoken::ops::payment::Payment;
use paytoken::types::Currency;
use paytoken::{Amount, Client, OperationKind, PaymentStatus, SecureKey, Transaction};
use paytoken_sandbox::{cards, samples};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

use super::{LifeCycle, Shown, order_id};
use crate::limits;
use crate::listen::{self, Receiver, endpoint::Endpoint};

/// A step's name and operation.
type StepName = (&'static str, &'static str);

const PAY: StepName = (
    "3-D Secure payment, with notificationUrl",
    OperationKind::Payment.name(),
);
const PAGE: StepName = ("3-D Secure page: the cardholder approves", "three_d_secure");
const NOTIFIED: StepName = ("notification received, checksum verified", "notification");

/// How long the script waits for the notification.
const NOTIFICATION_WAIT: Duration = Duration::from_secs(10);

/// Stops the receiver when the steps are done, whichever way they end.
struct Stopping(tokio::task::JoinHandle<()>);

impl Drop for Stopping {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl LifeCycle {
    /// Pays with the 3-D Secure card, approves on the page the redirect leads to, and
    /// waits for the notification, verified with `key`.
    pub(super) async fn three_d_secure(&mut self, client: &Client, key: SecureKey) {
        let Some(listener) = self.own(PAY, TcpListener::bind("127.0.0.1:0").await) else {
            return;
        };
        let Some(address) = self.own(PAY, listener.local_addr()) else {
            return;
        };
        let (sender, mut received) = mpsc::unbounded_channel();
        let receiver = Arc::new(Receiver::new(key, None));
        let _stopping = Stopping(tokio::spawn(listen::serve(
            listener,
            receiver,
            move |printed| {
                let _ = sender.send(printed);
            },
        )));

        let Some(payment) = self.challenged_payment(&format!("http://{address}/")) else {
            return;
        };
        let Some(waiting) = self
            .step(PAY, client.pay(&payment), |transaction| Shown {
                ok: redirect_of(transaction).is_some(),
                ..Shown::transaction(transaction)
            })
            .await
        else {
            return;
        };
        let page = redirect_of(&waiting).map(str::to_owned);
        self.three_d_secure_payment = Some(waiting);
        let Some(page) = page else { return };
        if !self.approve_on(&page).await {
            return;
        }

        let started = Instant::now();
        let printed = tokio::time::timeout(NOTIFICATION_WAIT, received.recv())
            .await
            .ok()
            .flatten();
        let shown = printed.as_ref().map_or_else(
            || Shown {
                ok: false,
                code: "-".to_owned(),
                description: "no notification within 10 s".to_owned(),
                fields: Vec::new(),
            },
            notification_shown,
        );
        self.record(NOTIFIED, shown, started.elapsed());
        self.notification = printed;
    }

    /// 50.00 EUR with the 3-D Secure test card, notified to `url`, the browser sent back
    /// to the shop.
    fn challenged_payment(&mut self, url: &str) -> Option<Payment> {
        let amount = self.own(PAY, "50.00".parse::<Amount>())?;
        let order = self.own(PAY, order_id())?;
        let card = self.own(PAY, samples::card(cards::THREE_D_SECURE))?;
        Some(
            Payment::new(order, amount, Currency::EUR, card)
                .notification_url(url)
                .merchant_redirect_url("https://shop.example/return"),
        )
    }

    /// Posts the cardholder's approval to the challenge page at `page`, as the page's
    /// approve button does; whether the page took it.
    async fn approve_on(&mut self, page: &str) -> bool {
        let started = Instant::now();
        let visited = match Endpoint::parse("the 3-D Secure redirect", page) {
            Ok(endpoint) => {
                let form = HeaderValue::from_static("application/x-www-form-urlencoded");
                endpoint
                    .post(
                        Bytes::from_static(b"decision=approve"),
                        Some(form),
                        limits::CHALLENGE_PAGE,
                    )
                    .await
            }
            Err(reason) => Err(reason),
        };
        let ok = visited.is_ok();
        let shown = match visited {
            Ok(status) => Shown {
                ok,
                code: status.to_string(),
                description: "approved on the sandbox's challenge page".to_owned(),
                fields: vec![("page", page.to_owned())],
            },
            Err(reason) => Shown {
                ok,
                code: "-".to_owned(),
                description: reason,
                fields: vec![("page", page.to_owned())],
            },
        };
        self.record(PAGE, shown, started.elapsed());
        ok
    }
}

/// The redirect of a payment waiting for 3-D Secure.
fn redirect_of(transaction: &Transaction) -> Option<&str> {
    match &transaction.status {
        PaymentStatus::ThreeDSecure {
            redirect: Some(redirect),
        } => Some(redirect.url.as_str()),
        _ => None,
    }
}

/// What the receiver printed, as a step: as expected when verified and approved.
fn notification_shown(printed: &Value) -> Shown {
    let text = |name: &str| {
        printed
            .get(name)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let verdict = text("notification");
    let outcome = text("outcome");
    let fields = if verdict == "rejected" {
        vec![("reason", text("reason"))]
    } else {
        vec![
            ("paymentId", text("paymentId")),
            ("transactionStatus", text("transactionStatus")),
            ("amount", text("amount")),
        ]
    };
    let code = printed
        .pointer("/unauthenticated/result/code")
        .and_then(Value::as_str)
        .unwrap_or("-");
    Shown {
        ok: verdict == "verified" && outcome == "approved",
        code: code.to_owned(),
        description: format!("{verdict}: {outcome}"),
        fields,
    }
}
