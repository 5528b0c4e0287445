//! `paytoken demo`: the whole tokenization life cycle through the real client, over real
//! HTTP, against a sandbox started in this process. One block per step; secrets masked.

use std::fmt::Write as _;
use std::future::Future;
use std::time::{Duration, Instant};

use paytoken::ops::auth_token::FetchAuthToken;
use paytoken::ops::cards_and_accounts::CardsAndAccounts;
use paytoken::ops::customer_signup::CustomerSignup;
use paytoken::ops::delete_token::DeleteToken;
use paytoken::ops::installments::Installments;
use paytoken::ops::invoice_list::InvoiceList;
use paytoken::ops::payment::Payment;
use paytoken::ops::registration::Registration;
use paytoken::ops::token_payment::TokenPayment;
use paytoken::types::{Email, RecurringType, RegistrationStatus};
use paytoken::{Card, CardNumber, Client, Customer, Cvv, Error, RegistrationId, Transaction};
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Sandbox, cards};
use serde_json::{Value, json};

use crate::report::{Exit, Failure, Report};

/// One step of the transcript.
struct Step {
    name: &'static str,
    operation: &'static str,
    /// Whether it did what the life cycle expects (a refusal, for the last step).
    ok: bool,
    code: String,
    description: String,
    fields: Vec<(&'static str, String)>,
    elapsed: Duration,
}

/// The steps so far.
struct Demo {
    steps: Vec<Step>,
}

impl Demo {
    /// Runs `call`, keeps its step, and hands back its answer when it did what it should.
    async fn step<T, F>(
        &mut self,
        name: &'static str,
        operation: &'static str,
        call: F,
        describe: impl FnOnce(&Result<T, Error>) -> (bool, String, String, Vec<(&'static str, String)>),
    ) -> Option<T>
    where
        F: Future<Output = Result<T, Error>>,
    {
        let started = Instant::now();
        let result = call.await;
        let elapsed = started.elapsed();
        let (ok, code, description, fields) = describe(&result);
        self.steps.push(Step {
            name,
            operation,
            ok,
            code,
            description,
            fields,
            elapsed,
        });
        result.ok().filter(|_| ok)
    }
}

/// The code and description of an error: the refusal's, or the error's own words.
fn of_error(error: &Error) -> (String, String) {
    match error.refusal() {
        Some(refusal) => (
            refusal.result.code.as_str().to_owned(),
            refusal.result.description.clone(),
        ),
        None => ("-".to_owned(), error.to_string()),
    }
}

fn of_transaction(
    result: &Result<Transaction, Error>,
) -> (bool, String, String, Vec<(&'static str, String)>) {
    match result {
        Ok(t) => {
            let mut fields = vec![
                ("paymentId", t.payment_id.to_string()),
                ("status", format!("{:?}", t.status)),
            ];
            if let Some(id) = &t.registration_id {
                fields.push(("registrationId", id.to_string()));
            }
            if let Some(card) = &t.card {
                let bin = card.bin.clone().unwrap_or_default();
                let last = card.last_four.clone().unwrap_or_default();
                fields.push(("card", format!("{bin}******{last}")));
            }
            if let (Some(amount), Some(currency)) = (&t.amount, &t.currency) {
                fields.push(("amount", format!("{amount} {currency}")));
            }
            (
                t.is_approved(),
                t.result.code.as_str().to_owned(),
                t.result.description.clone(),
                fields,
            )
        }
        Err(error) => {
            let (code, description) = of_error(error);
            (false, code, description, Vec::new())
        }
    }
}

fn test_card(number: &str) -> Result<Card, Failure> {
    let invalid = |error: paytoken::types::Error| Failure::failed(error.to_string());
    Ok(Card {
        number: CardNumber::new(number).map_err(invalid)?,
        expiry_month: "12".parse().map_err(invalid)?,
        expiry_year: "2099".parse().map_err(invalid)?,
        cvv: Cvv::new("123").map_err(invalid)?,
        holder: Some("Ada Lovelace".into()),
    })
}

/// Runs the demo and reports every step.
pub(crate) async fn run() -> Report {
    match life_cycle().await {
        Ok(report) => report,
        Err(failure) => Report::from(failure),
    }
}

async fn life_cycle() -> Result<Report, Failure> {
    let started = Instant::now();
    let sandbox = Sandbox::start()
        .await
        .map_err(|error| Failure::failed(format!("cannot start the sandbox: {error}")))?;
    let config = sandbox.config();
    let merchant = config
        .merchant(DEFAULT_MERCHANT_ID)
        .ok_or_else(|| Failure::failed("the sandbox has no default merchant"))?;
    let partner_id = config
        .partners
        .first()
        .map(|partner| partner.partner_id)
        .ok_or_else(|| Failure::failed("the sandbox has no partner"))?;
    let mut builder = Client::builder()
        .base_url(sandbox.base_url())
        .allow_http(true)
        .credentials(merchant.credentials())
        .fetch_auth_token(partner_id, merchant.username.clone());
    if let Some(account) = merchant.account_id {
        builder = builder.account_id(account);
    }
    if let Some(terminal) = merchant.terminal_id {
        builder = builder.terminal_id(terminal);
    }
    let client = builder
        .build()
        .map_err(|error| Failure::failed(error.to_string()))?;
    let mut demo = Demo { steps: Vec::new() };
    let order = |n: u32| format!("demo{}x{n}", std::process::id());
    let id = |n: u32| {
        order(n)
            .parse()
            .map_err(|error: paytoken::types::Error| Failure::failed(error.to_string()))
    };

    let fetch = FetchAuthToken::new(partner_id, merchant.username.clone());
    demo.step(
        "auth token",
        "auth_token",
        client.fetch_auth_token(&fetch),
        |r| match r {
            Ok(grant) => (
                true,
                grant.result.code.as_str().to_owned(),
                grant.result.description.clone(),
                vec![(
                    "token",
                    format!(
                        "*** ({} characters, masked)",
                        grant.token.expose_secret().len()
                    ),
                )],
            ),
            Err(error) => {
                let (code, description) = of_error(error);
                (false, code, description, Vec::new())
            }
        },
    )
    .await;

    let customer = Customer {
        given_name: Some("Ada".into()),
        surname: Some("Lovelace".into()),
        email: Some(Email::new("ada@example.com").map_err(|e| Failure::failed(e.to_string()))?),
        ..Customer::default()
    };
    let signup = CustomerSignup::new(customer.clone());
    let signed = demo
        .step(
            "customer sign-up",
            "customer_signup",
            client.customer_signup(&signup),
            |r| match r {
                Ok(s) => (
                    true,
                    s.result.code.as_str().to_owned(),
                    s.result.description.clone(),
                    vec![("customerId", s.customer_id.to_string())],
                ),
                Err(error) => {
                    let (c, d) = of_error(error);
                    (false, c, d, Vec::new())
                }
            },
        )
        .await;
    let customer = Customer {
        customer_id: signed.map(|s| s.customer_id),
        ..customer
    };

    let payment = Payment::new(
        id(1)?,
        "49.90"
            .parse()
            .map_err(|e: paytoken::types::Error| Failure::failed(e.to_string()))?,
        paytoken::types::Currency::EUR,
        test_card(cards::APPROVED)?,
    )
    .store_card()
    .recurring(RecurringType::Initial)
    .customer(customer.clone());
    let first_token = demo
        .step(
            "payment, storing the card",
            "payment",
            client.pay(&payment),
            of_transaction,
        )
        .await
        .and_then(|t| t.registration_id);

    let registration = Registration::card(test_card(cards::INSTALLMENTS)?).customer(customer);
    let second_token = demo
        .step(
            "registration of a second card",
            "registration",
            client.register(&registration),
            |r| match r {
                Ok(reg) => (
                    true,
                    reg.result.code.as_str().to_owned(),
                    reg.result.description.clone(),
                    vec![("registrationId", reg.registration_id.to_string())],
                ),
                Err(error) => {
                    let (c, d) = of_error(error);
                    (false, c, d, Vec::new())
                }
            },
        )
        .await
        .map(|r| r.registration_id);

    let charge = |token: RegistrationId, n: u32, recurring| -> Result<TokenPayment, Failure> {
        Ok(TokenPayment::new(
            token,
            "9.99"
                .parse()
                .map_err(|e: paytoken::types::Error| Failure::failed(e.to_string()))?,
            paytoken::types::Currency::EUR,
        )
        .merchant_transaction_id(id(n)?)
        .recurring(recurring))
    };
    if let Some(token) = first_token {
        let initial = charge(token, 2, RecurringType::Initial)?;
        demo.step(
            "token payment, INITIAL",
            "token_payment",
            client.pay_with_token(&initial),
            of_transaction,
        )
        .await;
        let repeated = charge(token, 3, RecurringType::Repeated)?;
        demo.step(
            "token payment, REPEATED",
            "token_payment",
            client.pay_with_token(&repeated),
            of_transaction,
        )
        .await;
    }
    if let Some(token) = second_token {
        demo.step(
            "installments of the second card",
            "installments",
            client.installments(&Installments::new(token)),
            |r| match r {
                Ok(plans) => {
                    let counts: Vec<String> = plans.counts.iter().map(u16::to_string).collect();
                    (
                        !plans.counts.is_empty(),
                        "-".to_owned(),
                        "installment plans (no result object)".to_owned(),
                        vec![("installments", counts.join(", "))],
                    )
                }
                Err(error) => {
                    let (c, d) = of_error(error);
                    (false, c, d, Vec::new())
                }
            },
        )
        .await;
    }
    demo.step(
        "cards and accounts",
        "cards_and_accounts",
        client.cards_and_accounts(&CardsAndAccounts::all()),
        |r| match r {
            Ok(stored) => {
                let active = stored
                    .cards
                    .iter()
                    .filter(|c| c.registration_status == Some(RegistrationStatus::Active))
                    .count();
                (
                    stored.cards.len() >= 2,
                    stored.result.code.as_str().to_owned(),
                    stored.result.description.clone(),
                    vec![
                        ("cards", stored.cards.len().to_string()),
                        ("active", active.to_string()),
                    ],
                )
            }
            Err(error) => {
                let (c, d) = of_error(error);
                (false, c, d, Vec::new())
            }
        },
    )
    .await;

    // Invoices five at a time, until a short page.
    for page in 1..=20 {
        let name = match page {
            1 => "invoices, page 1",
            2 => "invoices, page 2",
            3 => "invoices, page 3",
            4 => "invoices, page 4",
            _ => "invoices, a further page",
        };
        let answer = demo
            .step(
                name,
                "invoice_list",
                client.invoice_page(&InvoiceList::new(page, 5)),
                |r| match r {
                    Ok(p) => {
                        let (code, description) = p
                            .result
                            .as_ref()
                            .map_or(("-".to_owned(), "invoices".to_owned()), |r| {
                                (r.code.as_str().to_owned(), r.description.clone())
                            });
                        let orders: Vec<String> = p
                            .invoices
                            .iter()
                            .filter_map(|i| i.order_id.clone())
                            .collect();
                        (
                            true,
                            code,
                            description,
                            vec![
                                ("invoices", p.invoices.len().to_string()),
                                ("orderIds", orders.join(", ")),
                            ],
                        )
                    }
                    Err(error) => {
                        let (c, d) = of_error(error);
                        (false, c, d, Vec::new())
                    }
                },
            )
            .await;
        if answer.is_none_or(|p| p.invoices.len() < 5) {
            break;
        }
    }

    if let Some(token) = first_token {
        demo.step(
            "delete the first card's token",
            "delete_token",
            client.delete_token(&DeleteToken::new(token)),
            |r| match r {
                Ok(d) => (
                    true,
                    d.result.code.as_str().to_owned(),
                    d.result.description.clone(),
                    vec![("registrationId", token.to_string())],
                ),
                Err(error) => {
                    let (c, d) = of_error(error);
                    (false, c, d, Vec::new())
                }
            },
        )
        .await;
        let refused = charge(token, 4, RecurringType::Repeated)?;
        demo.step(
            "payment with the deleted token (refused)",
            "token_payment",
            client.pay_with_token(&refused),
            |r| match r {
                // The life cycle expects a refusal here: nothing is charged.
                Err(error) if error.refusal().is_some() => {
                    let (c, d) = of_error(error);
                    (true, c, d, vec![("charged", "nothing".to_owned())])
                }
                other => {
                    let (_, c, d, f) = of_transaction(other);
                    (false, c, d, f)
                }
            },
        )
        .await;
    }

    let base_url = sandbox.base_url().to_owned();
    sandbox.shutdown().await;
    Ok(transcript(&base_url, &demo.steps, started.elapsed()))
}

/// Microseconds, for the JSON (an integer: no float in a report).
fn micros(elapsed: Duration) -> u64 {
    u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX)
}

/// Milliseconds with one decimal, for people.
fn millis(elapsed: Duration) -> String {
    let tenths = micros(elapsed).saturating_add(50) / 100;
    format!("{}.{}", tenths / 10, tenths % 10)
}

fn transcript(base_url: &str, steps: &[Step], total: Duration) -> Report {
    let passed = steps.iter().filter(|s| s.ok).count();
    let all_ok = passed == steps.len() && steps.len() >= 11;
    let mut human =
        format!("paytoken demo: the tokenization life cycle against a sandbox at {base_url}\n\n");
    let mut json_steps = Vec::new();
    for (index, step) in steps.iter().enumerate() {
        let mark = if step.ok { "ok" } else { "FAILED" };
        let description: String = step.description.chars().take(36).collect();
        let _ = writeln!(
            human,
            "{:>2}. {:<41} {:>6}  {:<36} {:>6} ms  {mark}",
            index + 1,
            step.name,
            step.code,
            description,
            millis(step.elapsed)
        );
        for (name, value) in &step.fields {
            let _ = writeln!(human, "      {name}: {value}");
        }
        let fields: serde_json::Map<String, Value> = step
            .fields
            .iter()
            .map(|(name, value)| ((*name).to_owned(), Value::String(value.clone())))
            .collect();
        json_steps.push(json!({
            "step": index + 1,
            "name": step.name,
            "operation": step.operation,
            "ok": step.ok,
            "result": { "code": step.code, "description": step.description },
            "elapsedUs": micros(step.elapsed),
            "fields": fields,
        }));
    }
    let summary = format!(
        "{passed} of {} steps did what they should, in {} ms",
        steps.len(),
        millis(total)
    );
    let _ = writeln!(human, "\n{summary}");
    let exit = if all_ok { Exit::Success } else { Exit::Failed };
    Report {
        exit,
        json: json!({
            "outcome": if all_ok { "ok" } else { "failed" },
            "baseUrl": base_url,
            "steps": json_steps,
            "summary": { "steps": steps.len(), "ok": passed, "elapsedUs": micros(total) },
        }),
        human,
        error_line: (!all_ok).then_some(summary),
    }
}
