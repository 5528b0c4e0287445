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
use paytoken::types::{Currency, Email, GatewayResult, RecurringType, RegistrationStatus};
use paytoken::{
    Amount, Card, Client, Customer, Error, FieldValue, MerchantTransactionId, RegistrationId,
    Transaction,
};
use paytoken_sandbox::{DEFAULT_MERCHANT_ID, Sandbox, cards, samples};
use serde_json::{Value, json};

use crate::cli::DemoArgs;
use crate::report::{self, Exit, Failure, Report};
use crate::terminal;

/// How many steps the life cycle has at the least (more when the invoices take more pages).
const STEPS: usize = 11;

/// What a step shows: whether it did what the life cycle expects, the gateway's code and
/// words, and the key fields (secrets masked).
struct Shown {
    ok: bool,
    code: String,
    description: String,
    fields: Vec<(&'static str, String)>,
}

impl Shown {
    /// An answer with a result object.
    fn answer(result: &GatewayResult, fields: Vec<(&'static str, String)>) -> Self {
        Self {
            ok: true,
            code: result.code.as_str().to_owned(),
            description: result.description.clone(),
            fields,
        }
    }

    /// An error: the refusal's code and words, or the error's own.
    fn error(error: &Error) -> Self {
        let (code, description) = match error.refusal() {
            Some(refusal) => (
                refusal.result.code.as_str().to_owned(),
                refusal.result.description.clone(),
            ),
            None => ("-".to_owned(), report::with_causes(error)),
        };
        Self {
            ok: false,
            code,
            description,
            fields: Vec::new(),
        }
    }

    /// A transaction: as expected when approved.
    fn transaction(transaction: &Transaction) -> Self {
        let mut fields = vec![("paymentId", transaction.payment_id.to_string())];
        if let Some(id) = &transaction.registration_id {
            fields.push(("registrationId", id.to_string()));
        }
        if let Some(card) = &transaction.card {
            let bin = card.bin.as_deref().unwrap_or_default();
            let last = card.last_four.as_deref().unwrap_or_default();
            fields.push(("card", format!("{bin}******{last}")));
        }
        if let (Some(amount), Some(currency)) = (&transaction.amount, &transaction.currency) {
            fields.push(("amount", format!("{amount} {currency}")));
        }
        Self {
            ok: transaction.is_approved(),
            ..Self::answer(&transaction.result, fields)
        }
    }
}

/// One step of the transcript.
struct Step {
    name: &'static str,
    operation: &'static str,
    shown: Shown,
    elapsed: Duration,
}

/// The steps so far.
#[derive(Default)]
struct Transcript {
    steps: Vec<Step>,
}

impl Transcript {
    /// Runs `call`, keeps its step, and gives its answer back when it did what it should.
    async fn step<T>(
        &mut self,
        (name, operation): (&'static str, &'static str),
        call: impl Future<Output = Result<T, Error>>,
        show: impl FnOnce(&T) -> Shown,
    ) -> Option<T> {
        let started = Instant::now();
        let result = call.await;
        let elapsed = started.elapsed();
        let (shown, answer) = match result {
            Ok(answer) => {
                let shown = show(&answer);
                let answer = shown.ok.then_some(answer);
                (shown, answer)
            }
            Err(error) => (Shown::error(&error), None),
        };
        self.record((name, operation), shown, elapsed);
        answer
    }

    /// Runs `call`, which the life cycle expects the gateway to refuse.
    async fn refused<T>(
        &mut self,
        (name, operation): (&'static str, &'static str),
        call: impl Future<Output = Result<T, Error>>,
    ) {
        let started = Instant::now();
        let result = call.await;
        let elapsed = started.elapsed();
        let shown = match result {
            Err(error) if error.refusal().is_some() => Shown {
                ok: true,
                fields: vec![("charged", "nothing".to_owned())],
                ..Shown::error(&error)
            },
            Err(error) => Shown::error(&error),
            Ok(_) => Shown {
                ok: false,
                code: "-".to_owned(),
                description: "the gateway did not refuse it".to_owned(),
                fields: Vec::new(),
            },
        };
        self.record((name, operation), shown, elapsed);
    }

    fn record(
        &mut self,
        (name, operation): (&'static str, &'static str),
        shown: Shown,
        elapsed: Duration,
    ) {
        self.steps.push(Step {
            name,
            operation,
            shown,
            elapsed,
        });
    }
}

/// A value the demo writes itself; failing to read it is the demo's own bug.
fn value<T>(text: &str) -> Result<T, Failure>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    text.parse()
        .map_err(|error| Failure::failed(format!("the demo's own value {text:?}: {error}")))
}

fn test_card(number: &str) -> Result<Card, Failure> {
    samples::card(number).map_err(|error| Failure::failed(error.to_string()))
}

/// The next merchant transaction id of this run (`demo{process id}x{n}`): the order ids of
/// two runs do not meet.
fn order() -> Result<MerchantTransactionId, Failure> {
    samples::order_id("demo").map_err(|error| Failure::failed(error.to_string()))
}

/// Runs the demo and reports every step.
pub(crate) async fn run(args: &DemoArgs) -> Report {
    life_cycle(args.vary_answers)
        .await
        .unwrap_or_else(Report::from)
}

/// A client for the sandbox's default merchant, fetching its own auth token.
fn client_for(sandbox: &Sandbox) -> Result<(Client, FetchAuthToken), Failure> {
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
    Ok((
        client,
        FetchAuthToken::new(partner_id, merchant.username.clone()),
    ))
}

async fn life_cycle(vary_answers: Option<u64>) -> Result<Report, Failure> {
    let started = Instant::now();
    let mut sandbox = Sandbox::builder();
    if let Some(seed) = vary_answers {
        sandbox = sandbox.vary_answers(seed);
    }
    let sandbox = sandbox
        .start()
        .await
        .map_err(|error| Failure::failed(format!("cannot start the sandbox: {error}")))?;
    let (client, fetch) = client_for(&sandbox)?;
    let mut demo = Transcript::default();

    demo.step(
        ("auth token", "auth_token"),
        client.fetch_auth_token(&fetch),
        |grant| {
            let length = grant.token.expose_secret().len();
            Shown::answer(
                &grant.result,
                vec![("token", format!("*** ({length} characters, masked)"))],
            )
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
    let signed_up = demo
        .step(
            ("customer sign-up", "customer_signup"),
            client.customer_signup(&signup),
            |s| Shown::answer(&s.result, vec![("customerId", s.customer_id.to_string())]),
        )
        .await;
    let customer = Customer {
        customer_id: signed_up.map(|s| s.customer_id),
        ..customer
    };

    let amount: Amount = value("49.90")?;
    let payment = Payment::new(order()?, amount, Currency::EUR, test_card(cards::APPROVED)?)
        .store_card()
        .recurring(RecurringType::Initial)
        .customer(customer.clone());
    let first_token = demo
        .step(
            ("payment, storing the card", "payment"),
            client.pay(&payment),
            Shown::transaction,
        )
        .await
        .and_then(|t| t.registration_id.value().copied());

    let registration = Registration::card(test_card(cards::INSTALLMENTS)?).customer(customer);
    let second_token = demo
        .step(
            ("registration of a second card", "registration"),
            client.register(&registration),
            |r| {
                Shown::answer(
                    &r.result,
                    vec![("registrationId", r.registration_id.to_string())],
                )
            },
        )
        .await
        .map(|r| r.registration_id);

    let charge = |token: RegistrationId, recurring| -> Result<TokenPayment, Failure> {
        Ok(TokenPayment::new(token, value("9.99")?, Currency::EUR)
            .merchant_transaction_id(order()?)
            .recurring(recurring))
    };
    if let Some(token) = first_token {
        let initial = charge(token, RecurringType::Initial)?;
        demo.step(
            ("token payment, INITIAL", "token_payment"),
            client.pay_with_token(&initial),
            Shown::transaction,
        )
        .await;
        let repeated = charge(token, RecurringType::Repeated)?;
        demo.step(
            ("token payment, REPEATED", "token_payment"),
            client.pay_with_token(&repeated),
            Shown::transaction,
        )
        .await;
    }
    if let Some(token) = second_token {
        demo.step(
            ("installments of the second card", "installments"),
            client.installments(&Installments::new(token)),
            |plans| {
                let counts: Vec<String> = plans.counts.iter().map(u16::to_string).collect();
                Shown {
                    ok: !plans.counts.is_empty(),
                    code: "-".to_owned(),
                    description: "installment plans (no result object)".to_owned(),
                    fields: vec![("installments", counts.join(", "))],
                }
            },
        )
        .await;
    }
    demo.step(
        ("cards and accounts", "cards_and_accounts"),
        client.cards_and_accounts(&CardsAndAccounts::all()),
        |stored| {
            let active = stored
                .cards
                .iter()
                .filter(|c| c.registration_status.value() == Some(&RegistrationStatus::Active))
                .count();
            Shown {
                ok: stored.cards.len() >= 2,
                ..Shown::answer(
                    &stored.result,
                    vec![
                        ("cards", stored.cards.len().to_string()),
                        ("active", active.to_string()),
                    ],
                )
            }
        },
    )
    .await;

    // Five invoices a page, until a short one.
    const NAMES: [&str; 4] = [
        "invoices, page 1",
        "invoices, page 2",
        "invoices, page 3",
        "invoices, page 4",
    ];
    for page in 1..=20 {
        let name = NAMES
            .get(page - 1)
            .copied()
            .unwrap_or("invoices, a further page");
        let list = InvoiceList::new(u32::try_from(page).unwrap_or(u32::MAX), 5);
        let answer = demo
            .step((name, "invoice_list"), client.invoice_page(&list), |p| {
                let orders: Vec<String> = p
                    .invoices
                    .iter()
                    .filter_map(|i| i.order_id.clone())
                    .collect();
                let fields = vec![
                    ("invoices", p.invoices.len().to_string()),
                    ("orderIds", orders.join(", ")),
                ];
                match &p.result {
                    Some(result) => Shown::answer(result, fields),
                    None => Shown {
                        ok: true,
                        code: "-".to_owned(),
                        description: "invoices".to_owned(),
                        fields,
                    },
                }
            })
            .await;
        if answer.is_none_or(|p| p.invoices.len() < 5) {
            break;
        }
    }

    if let Some(token) = first_token {
        demo.step(
            ("delete the first card's token", "delete_token"),
            client.delete_token(&DeleteToken::new(token)),
            |d| Shown::answer(&d.result, vec![("registrationId", token.to_string())]),
        )
        .await;
        let refused = charge(token, RecurringType::Repeated)?;
        demo.refused(
            ("payment with the deleted token (refused)", "token_payment"),
            client.pay_with_token(&refused),
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
    let passed = steps.iter().filter(|s| s.shown.ok).count();
    let all_ok = passed == steps.len() && steps.len() >= STEPS;
    let mut human =
        format!("paytoken demo: the tokenization life cycle against a sandbox at {base_url}\n\n");
    let mut json_steps = Vec::new();
    for (index, step) in steps.iter().enumerate() {
        let shown = &step.shown;
        let mark = if shown.ok { "ok" } else { "FAILED" };
        // The gateway's words, on one line each, their control characters shown.
        let description: String = terminal::escape(&shown.description)
            .chars()
            .take(36)
            .collect();
        let _ = writeln!(
            human,
            "{:>2}. {:<41} {:>6}  {:<36} {:>6} ms  {mark}",
            index + 1,
            step.name,
            terminal::escape(&shown.code),
            description,
            millis(step.elapsed)
        );
        for (name, value) in &shown.fields {
            let _ = writeln!(human, "      {name}: {}", terminal::escape(value));
        }
        let fields: serde_json::Map<String, Value> = shown
            .fields
            .iter()
            .map(|(name, value)| ((*name).to_owned(), Value::String(value.clone())))
            .collect();
        json_steps.push(json!({
            "step": index + 1,
            "name": step.name,
            "operation": step.operation,
            "ok": shown.ok,
            "result": { "code": shown.code, "description": shown.description },
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
