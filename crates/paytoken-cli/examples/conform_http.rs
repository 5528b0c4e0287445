//! paytoken's own client as a client of `paytoken conform --http`: it performs each step of
//! the kit's scenarios through `paytoken::Client`, over real HTTP, and reports its outcome
//! in the kit's words; notifications arrive at a listener of its own, named in its
//! handshake, and are verified with `paytoken::notification`. A payment or move whose
//! answer was lost is settled by inquiry (`Client::settle`), never sent again; what the
//! inquiry cannot tell is reported unknown, with the id to ask about. The adapter an SDK in another
//! language writes looks the same: read the handshake's base URL and merchant, build the
//! SDK's client, map each step's fields to its calls.
//!
//! ```sh
//! cargo build -p paytoken-cli --example conform_http
//! paytoken conform --http --client target/debug/examples/conform_http
//! ```

use std::collections::BTreeMap;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use paytoken::notification::Notification;
use paytoken::prelude::*;
use paytoken::{
    Card, CardNumber, Credentials, Customer, Cvv, Email, PaymentStatus, SecureKey, Transaction,
    Username,
};
use serde_json::{Value, json};

type Failed = Box<dyn std::error::Error>;

fn main() -> Result<(), Failed> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let mut session = None;
    let mut stdout = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let message: Value = serde_json::from_str(&line?)?;
        let reply = match at(&message, "/type").as_str() {
            Some("hello") => {
                let started = Session::start(&message)?;
                let listener = started.listener.url.clone();
                session = Some(started);
                json!({ "type": "hello", "protocol": 1, "name": "paytoken (Rust)", "listener": listener })
            }
            Some("step") => match &session {
                Some(session) => {
                    let outcome = runtime.block_on(perform(session, at(&message, "/step")));
                    json!({ "id": at(&message, "/id"), "outcome": outcome })
                }
                None => return Err("a step before the handshake".into()),
            },
            _ => json!({ "id": at(&message, "/id"), "unsupported": true }),
        };
        writeln!(stdout, "{reply}")?;
        stdout.flush()?;
    }
    Ok(())
}

/// What the handshake sets up: the merchant's client, its secure key (to verify
/// notifications) and the listener they arrive at.
struct Session {
    client: Client,
    key: SecureKey,
    listener: Listener,
}

impl Session {
    fn start(hello: &Value) -> Result<Self, Failed> {
        let key = at(hello, "/merchant/secureKey")
            .as_str()
            .ok_or("no secure key")?;
        Ok(Self {
            client: client_of(hello)?,
            key: SecureKey::new(key)?,
            listener: Listener::start()?,
        })
    }
}

/// Where the sandbox's notifications arrive: a loopback port, each body kept for the step
/// that asks for its payment's.
struct Listener {
    url: String,
    received: Arc<Mutex<Vec<Vec<u8>>>>,
}

impl Listener {
    fn start() -> std::io::Result<Self> {
        let socket = TcpListener::bind("127.0.0.1:0")?;
        let url = format!("http://{}/notifications", socket.local_addr()?);
        let received = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&received);
        std::thread::spawn(move || {
            for stream in socket.incoming().flatten() {
                if let Some(body) = body_of(stream) {
                    kept.lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(body);
                }
            }
        });
        Ok(Self { url, received })
    }

    /// The notification of `payment_id`, waited for a few seconds.
    fn of(&self, payment_id: &str) -> Option<Vec<u8>> {
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            let received = self.received.lock().unwrap_or_else(PoisonError::into_inner);
            let found = received.iter().find(|body| {
                let body: Value = serde_json::from_slice(body).unwrap_or_default();
                at(&body, "/paymentId").as_str() == Some(payment_id)
            });
            if let Some(body) = found {
                return Some(body.clone());
            }
            drop(received);
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

/// Reads one request's body (at most 64 KiB) and answers 200.
fn body_of(mut stream: TcpStream) -> Option<Vec<u8>> {
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut length = 0;
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().ok()?;
        }
    }
    let mut body = vec![0; length.min(64 * 1024)];
    reader.read_exact(&mut body).ok()?;
    let answer = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
    stream.write_all(answer).ok()?;
    Some(body)
}

/// The value at the JSON pointer `pointer`, or `null`.
fn at<'v>(value: &'v Value, pointer: &str) -> &'v Value {
    static NULL: Value = Value::Null;
    value.pointer(pointer).unwrap_or(&NULL)
}

/// The client the handshake's merchant uses, which fetches its own auth token.
fn client_of(hello: &Value) -> Result<Client, Failed> {
    let merchant = at(hello, "/merchant");
    let text = |key: &str| {
        let value = at(merchant, &format!("/{key}")).as_str();
        value.ok_or(format!("no merchant {key}"))
    };
    let mut builder = Client::builder()
        .base_url(at(hello, "/baseUrl").as_str().ok_or("no baseUrl")?)
        .allow_http(true)
        .request_timeout(Duration::from_millis(
            at(hello, "/requestTimeoutMs").as_u64().unwrap_or(5000),
        ))
        .credentials(Credentials::merchant(
            text("id")?.parse()?,
            SecureKey::new(text("secureKey")?)?,
        ))
        .fetch_auth_token(
            text("partnerId")?.parse()?,
            Username::new(text("username")?)?,
        );
    if let Some(account) = at(merchant, "/accountId").as_str() {
        builder = builder.account_id(account.parse()?);
    }
    if let Some(terminal) = at(merchant, "/terminalId").as_str() {
        builder = builder.terminal_id(terminal.parse()?);
    }
    Ok(builder.build()?)
}

/// One step, its outcome in the kit's words (an error's own words where there is none).
async fn perform(session: &Session, step: &Value) -> Value {
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let fields: BTreeMap<String, String> = at(step, "/fields")
        .as_array()
        .into_iter()
        .flatten()
        .map(|pair| (text(at(pair, "/0")), text(at(pair, "/1"))))
        .collect();
    let path: BTreeMap<String, String> = at(step, "/pathValues")
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, value)| (name.clone(), text(value)))
        .collect();
    let operation = at(step, "/operation").as_str().unwrap_or_default();
    if operation == "notification" {
        return notified(session, fields.get("paymentId").map_or("", String::as_str));
    }
    match call(&session.client, operation, &fields, &path).await {
        Ok(outcome) => outcome,
        Err(error) => json!({ "outcome": "error", "error": error.to_string() }),
    }
}

/// One step: its operation, by the kit's name, called with its fields.
async fn call(
    client: &Client,
    operation: &str,
    fields: &BTreeMap<String, String>,
    path: &BTreeMap<String, String>,
) -> Result<Value, Failed> {
    let field = |name: &str| {
        fields
            .get(name)
            .map(String::as_str)
            .ok_or(format!("no {name}"))
    };
    let id = |name: &str| {
        path.get(name)
            .map(String::as_str)
            .ok_or(format!("no {name}"))
    };
    // A lost answer settled by inquiry, never by sending again.
    let verdict = async |result: Result<Transaction, Error>| {
        let settled = match result {
            Err(error) if error.is_outcome_unknown() => client.settle(error).await,
            other => other,
        };
        Ok(match settled {
            Ok(transaction) => transaction_verdict(&transaction),
            Err(error) => error_verdict(&error),
        })
    };
    match operation {
        "customer_signup" => {
            let customer = Customer {
                given_name: Some(field("customer.givenName")?.into()),
                surname: Some(field("customer.surname")?.into()),
                email: Some(Email::new(field("customer.email")?)?),
                ..Customer::default()
            };
            Ok(
                match client.customer_signup(&CustomerSignup::new(customer)).await {
                    Ok(signed_up) => json!({
                        "outcome": "ok",
                        "customerId": signed_up.customer_id.as_str(),
                        "resultCode": signed_up.result.code.as_str(),
                    }),
                    Err(error) => error_verdict(&error),
                },
            )
        }
        "pay" => {
            let card = Card::new(
                CardNumber::new(field("card.number")?)?,
                field("card.expiryMonth")?.parse()?,
                field("card.expiryYear")?.parse()?,
                Cvv::new(field("card.cvv")?)?,
            );
            let mut payment = Payment::new(
                field("merchantTransactionId")?.parse()?,
                field("amount")?.parse()?,
                field("currency")?.parse()?,
                card,
            );
            if field("paymentType")? == "PA" {
                payment = payment.preauthorization();
            }
            if fields
                .get("createRegistration")
                .is_some_and(|store| store == "true")
            {
                payment = payment.store_card();
            }
            if let Some(url) = fields.get("notificationUrl") {
                payment = payment.notification_url(url.as_str());
            }
            verdict(client.pay(&payment).await).await
        }
        "pay_with_token" => {
            let mut payment = TokenPayment::new(
                id("registrationId")?.parse()?,
                field("amount")?.parse()?,
                field("currency")?.parse()?,
            )
            .merchant_transaction_id(field("merchantTransactionId")?.parse()?);
            if let Ok(recurring) = field("recurringType") {
                payment = payment.recurring(recurring.parse()?);
            }
            verdict(client.pay_with_token(&payment).await).await
        }
        "installments" => {
            let plans = Installments::new(id("registrationId")?.parse()?);
            Ok(match client.installments(&plans).await {
                Ok(plans) => json!({ "outcome": "ok", "installmentCounts": plans.counts }),
                Err(error) => error_verdict(&error),
            })
        }
        "cards_and_accounts" => Ok(
            match client.cards_and_accounts(&CardsAndAccounts::all()).await {
                Ok(stored) => json!({
                    "outcome": "ok",
                    "resultCode": stored.result.code.as_str(),
                    "cards": stored.cards.len(),
                    "bankAccounts": stored.bank_accounts.len(),
                }),
                Err(error) => error_verdict(&error),
            },
        ),
        "invoices" => {
            let records = field("pagination.records")?.parse()?;
            Ok(match client.all_invoices(records).await {
                Ok(invoices) => json!({ "outcome": "ok", "invoices": invoices.len() }),
                Err(error) => error_verdict(&error),
            })
        }
        "capture" | "refund" => {
            let (payment_id, amount, currency) = (
                id("paymentId")?.parse()?,
                field("amount")?.parse()?,
                field("currency")?.parse()?,
            );
            verdict(if operation == "capture" {
                client
                    .capture(&Capture::new(payment_id, amount, currency))
                    .await
            } else {
                client
                    .refund(&Refund::new(payment_id, amount, currency))
                    .await
            })
            .await
        }
        "cancel" => verdict(client.cancel(&Cancel::new(id("paymentId")?.parse()?)).await).await,
        "repeat_payment" => {
            let repeat = RepeatPayment::new(
                id("paymentId")?.parse()?,
                field("amount")?.parse()?,
                field("currency")?.parse()?,
            )
            .merchant_transaction_id(field("merchantTransactionId")?.parse()?);
            verdict(client.repeat_payment(&repeat).await).await
        }
        "inquiry" => {
            let inquiry = Inquiry::ByPaymentId(id("paymentId")?.parse()?);
            verdict(client.inquiry(&inquiry).await).await
        }
        other => Err(format!("an operation this adapter does not perform: {other}").into()),
    }
}

/// The notification the listener received for `payment_id`, verified, in the words of the
/// kit's notification vectors.
fn notified(session: &Session, payment_id: &str) -> Value {
    let Some(body) = session.listener.of(payment_id) else {
        return json!({ "verifies": false, "reason": "not_received" });
    };
    match Notification::from_json(&body).and_then(|read| read.verify(&session.key)) {
        Ok(verified) => json!({
            "verifies": true,
            "paymentId": verified.payment_id.as_str(),
            "transactionStatus": verified.transaction_status.raw().trim(),
            "paymentStatus": status_name(&verified.status),
        }),
        Err(error) => json!({ "verifies": false, "reason": error.to_string() }),
    }
}

/// A payment's status in the kit's words.
fn status_name(status: &PaymentStatus) -> &'static str {
    match status {
        PaymentStatus::Approved => "approved",
        PaymentStatus::Pending => "pending",
        PaymentStatus::ThreeDSecure { .. } => "three_d_secure",
        PaymentStatus::Declined => "declined",
        PaymentStatus::Cancelled => "cancelled",
        PaymentStatus::Refunded => "refunded",
        PaymentStatus::ChargedBack => "charged_back",
        _ => "unknown",
    }
}

/// A payment-shaped answer in the kit's words, with the token it stored.
fn transaction_verdict(transaction: &Transaction) -> Value {
    let mut verdict = json!({
        "outcome": "ok",
        "paymentId": transaction.payment_id.as_str(),
        "paymentStatus": status_name(&transaction.status),
        "resultCode": transaction.result.code.as_str(),
    });
    if let (Some(token), Some(fields)) = (&transaction.registration_id, verdict.as_object_mut()) {
        fields.insert("registrationId".to_owned(), json!(token.raw().trim()));
    }
    verdict
}

/// A call that did not reach a verdict: a refusal with its code, or another error (with,
/// when its outcome is unknown, the id to inquire).
fn error_verdict(error: &Error) -> Value {
    if let Some(refusal) = error.refusal() {
        return json!({
            "outcome": "refused",
            "resultCode": refusal.result.code.as_str(),
            "mayHaveBeenProcessed": false,
        });
    }
    let inquire = match (error.merchant_transaction_id(), error.payment_id()) {
        (Some(order), _) => json!({ "merchantTransactionId": order.as_str() }),
        (None, Some(payment)) => json!({ "paymentId": payment.as_str() }),
        (None, None) => Value::Null,
    };
    json!({
        "outcome": "error",
        "error": error.to_string(),
        "mayHaveBeenProcessed": error.may_have_been_processed(),
        "inquire": inquire,
    })
}
