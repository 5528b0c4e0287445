//! One function per operation: the command's flags into the protocol's values (nothing is
//! sent when one is wrong), the call, and the report.

use paytoken::ops::cancel::Cancel;
use paytoken::ops::capture::Capture;
use paytoken::ops::cards_and_accounts::CardsAndAccounts;
use paytoken::ops::customer_signup::CustomerSignup;
use paytoken::ops::delete_token::DeleteToken;
use paytoken::ops::inquiry::Inquiry;
use paytoken::ops::installments::Installments;
use paytoken::ops::invoice_list::InvoiceList;
use paytoken::ops::payment::Payment;
use paytoken::ops::refund::Refund;
use paytoken::ops::registration::Registration;
use paytoken::ops::repeat_payment::RepeatPayment;
use paytoken::ops::token_payment::TokenPayment;
use paytoken::types::{PaymentBrand, Tolerant};
use paytoken::{
    BankAccount, Card, CardNumber, Client, Customer, CustomerId, Cvv, Error, OperationKind,
    PaymentId, PaymentStatus, Shipping, Transaction,
};
use zeroize::Zeroizing;

use crate::bounded::read_bounded;
use crate::cli::{
    CardArgs, ChargeArgs, Command, InquiryArgs, MoneyArgs, MoveArgs, PayArgs, PersonArgs,
    RegisterArgs, RepeatArgs, SignupArgs,
};
use crate::listing;
use crate::render;
use crate::report::{Failure, Outcome, Report, status_outcome};

/// Runs one operation against the gateway.
pub(crate) async fn run(client: &Client, command: Command, json: bool) -> Report {
    let result = match command {
        Command::Invoices(args) if args.all => {
            return listing::all_invoices(client, &args, json).await;
        }
        Command::Signup(args) => signup(client, &args).await,
        Command::Pay(args) => pay(client, &args).await,
        Command::Register(args) => register(client, &args).await,
        Command::Charge(args) => charge(client, &args).await,
        Command::DeleteToken { registration_id } => {
            let delete = DeleteToken::new(registration_id);
            answered(
                OperationKind::DeleteToken,
                client.delete_token(&delete),
                render::deleted,
            )
            .await
        }
        Command::Installments { registration_id } => {
            let plans = Installments::new(registration_id);
            answered(
                OperationKind::Installments,
                client.installments(&plans),
                render::installments,
            )
            .await
        }
        Command::Cards { customer_id } => {
            let list =
                customer_id.map_or_else(CardsAndAccounts::all, CardsAndAccounts::of_customer);
            answered(
                OperationKind::CardsAndAccounts,
                client.cards_and_accounts(&list),
                render::stored,
            )
            .await
        }
        Command::Invoices(args) => {
            let page = InvoiceList::new(args.page.unwrap_or(1), args.records);
            answered(
                OperationKind::InvoiceList,
                client.invoice_page(&page),
                |page| render::invoices(&page.invoices),
            )
            .await
        }
        Command::Inquiry(args) => inquiry(client, &args).await,
        Command::Capture(args) => capture(client, &args).await,
        Command::Refund(args) => refund(client, &args).await,
        Command::Cancel { payment_id } => cancel(client, &payment_id).await,
        Command::Repeat(args) => repeat(client, &args).await,
        // The others are not operations; `main` runs them.
        Command::Demo(_)
        | Command::Sandbox(_)
        | Command::Listen(_)
        | Command::AuthToken
        | Command::RegenerateAuthToken
        | Command::Config(_)
        | Command::Console(_)
        | Command::Whoami
        | Command::Doctor
        | Command::Record(_)
        | Command::Replay { .. }
        | Command::Conform(_)
        | Command::Completions { .. }
        | Command::ManPages { .. }
        | Command::Vectors(_) => Err(Failure::usage("not an operation")),
    };
    result.unwrap_or_else(Report::from)
}

/// The client's call of `operation`, its error a failure of that operation.
async fn call<T>(
    operation: OperationKind,
    call: impl Future<Output = Result<T, Error>>,
) -> Result<T, Failure> {
    call.await
        .map_err(|error| Failure::from_error(operation, &error))
}

/// The call of `operation` whose answer is shown as `render` shows it: the operation was
/// done.
async fn answered<T>(
    operation: OperationKind,
    answer: impl Future<Output = Result<T, Error>>,
    render: impl FnOnce(&T) -> serde_json::Value,
) -> Result<Report, Failure> {
    let answer = call(operation, answer).await?;
    Ok(ok_report(operation, render(&answer)))
}

fn transaction_report(operation: OperationKind, transaction: &Transaction) -> Report {
    let detail = match &transaction.status {
        PaymentStatus::ThreeDSecure { .. } => {
            Some("waiting for 3-D Secure: send the cardholder to the redirect")
        }
        PaymentStatus::Cancelled => Some("cancelled"),
        PaymentStatus::Refunded => Some("refunded"),
        PaymentStatus::ChargedBack => Some("charged back"),
        _ => None,
    };
    Report::answer(
        status_outcome(&transaction.status),
        operation,
        detail,
        render::transaction(transaction),
    )
}

/// An answer with no payment in it: the operation was done.
pub(crate) fn ok_report(operation: OperationKind, json: serde_json::Value) -> Report {
    Report::answer(Outcome::Ok, operation, None, json)
}

async fn signup(client: &Client, args: &SignupArgs) -> Result<Report, Failure> {
    let customer = Customer {
        given_name: Some(args.given_name.clone()),
        surname: Some(args.surname.clone()),
        email: Some(args.email.clone()),
        sex: args.sex.clone(),
        phone: args.phone.clone(),
        birth_date: args.birth_date,
        ..Customer::default()
    };
    let mut signup = CustomerSignup::new(customer);
    if args.country.is_some() || args.postcode.is_some() {
        signup = signup.shipping(Shipping {
            country: args.country,
            postcode: args.postcode.clone(),
            ..Shipping::default()
        });
    }
    let signed_up = client.customer_signup(&signup);
    answered(OperationKind::CustomerSignup, signed_up, render::signed_up).await
}

/// A card from the flags. The number and CVV are checked here, so that no error repeats
/// them (a flag parser would print the value it refused).
fn card(args: &CardArgs, holder: Option<&String>) -> Result<Card, Failure> {
    fn required<T: Clone>(value: &Option<T>, flag: &str) -> Result<T, Failure> {
        value
            .clone()
            .ok_or_else(|| Failure::usage(format!("{flag} is required for a card")))
    }
    let (from_stdin_number, from_stdin_cvv) = if args.card_stdin {
        card_from_stdin()?
    } else {
        (None, None)
    };
    let number = Zeroizing::new(required(
        &args.card_number.clone().or(from_stdin_number),
        "--card-number",
    )?);
    let number = CardNumber::new(&number)
        .map_err(|error| Failure::usage(format!("--card-number: {error}")))?;
    let cvv = Zeroizing::new(required(&args.cvv.clone().or(from_stdin_cvv), "--cvv")?);
    let cvv = Cvv::new(&cvv).map_err(|error| Failure::usage(format!("--cvv: {error}")))?;
    Ok(Card {
        number,
        expiry_month: required(&args.expiry_month, "--expiry-month")?,
        expiry_year: required(&args.expiry_year, "--expiry-year")?,
        cvv,
        holder: holder.cloned(),
    })
}

/// The most `--card-stdin` reads: a card number and a CVV fit with room to spare.
const CARD_STDIN_BYTES: u64 = 256;

/// The card number and the CVV from standard input, one a line (the CVV may be left out,
/// for `--cvv` or `PAYTOKEN_CVV`). At most [`CARD_STDIN_BYTES`] are read.
fn card_from_stdin() -> Result<(Option<String>, Option<String>), Failure> {
    let text = read_bounded(
        std::io::stdin(),
        CARD_STDIN_BYTES,
        "--card-stdin",
        "more than 256 bytes: give the card number, then the cvv, one a line",
    )?;
    let mut lines = text.lines().map(str::trim).filter(|line| !line.is_empty());
    Ok((
        lines.next().map(str::to_owned),
        lines.next().map(str::to_owned),
    ))
}

/// `--brand`, when given; without it the request tells the brand from the card number,
/// and refuses a number it cannot place (the flag then says which brand it is).
fn brand(args: &CardArgs) -> Option<PaymentBrand> {
    // The platform's code for a brand's name too: `MASTERCARD` is sent as `MC`.
    args.brand.as_deref().map(|brand| {
        PaymentBrand::read_tolerant(brand).unwrap_or_else(|| PaymentBrand::from_wire(brand))
    })
}

/// The customer block of `pay`: names, contact, id.
fn customer(
    person: &PersonArgs,
    customer_id: Option<&CustomerId>,
    with_names: bool,
) -> Option<Customer> {
    let customer = Customer {
        given_name: person.given_name.clone().filter(|_| with_names),
        surname: person.surname.clone().filter(|_| with_names),
        email: person.email.clone(),
        phone: person.phone.clone(),
        telnocc: person.telnocc,
        ip: person.ip,
        birth_date: person.birth_date,
        customer_id: customer_id.cloned(),
        ..Customer::default()
    };
    (customer != Customer::default()).then_some(customer)
}

/// The shipping block: the address, and (for registrations) the names.
fn shipping(person: &PersonArgs, with_names: bool) -> Option<Shipping> {
    let shipping = Shipping {
        country: person.country,
        city: person.city.clone(),
        state: person.state.clone(),
        postcode: person.postcode.clone(),
        street1: person.street.clone(),
        given_name: person.given_name.clone().filter(|_| with_names),
        surname: person.surname.clone().filter(|_| with_names),
        ..Shipping::default()
    };
    (shipping != Shipping::default()).then_some(shipping)
}

async fn pay(client: &Client, args: &PayArgs) -> Result<Report, Failure> {
    let card = card(&args.card, args.holder.as_ref())?;
    let MoneyArgs { amount, currency } = args.money;
    let order = args.merchant_transaction_id.clone();
    let mut payment = Payment::new(order, amount, currency, card);
    payment.payment_brand = brand(&args.card);
    if let Some(mode) = &args.card.mode {
        payment.payment_mode = mode.clone();
    }
    payment.payment_type = args.payment_type.into();
    payment.create_registration = args.store_card;
    payment.recurring_type = args.recurring.map(Into::into);
    payment.customer = customer(&args.person, args.customer_id.as_ref(), true);
    payment.shipping = shipping(&args.person, false);
    payment.notification_url = args.notification_url.clone();
    payment.merchant_redirect_url = args.redirect_url.clone();
    let transaction = call(OperationKind::Payment, client.pay(&payment)).await?;
    Ok(transaction_report(OperationKind::Payment, &transaction))
}

async fn register(client: &Client, args: &RegisterArgs) -> Result<Report, Failure> {
    let mut registration = match (&args.iban, &args.bic) {
        (Some(iban), Some(bic)) => Registration::bank_account(BankAccount {
            iban: iban.clone(),
            bic: *bic,
            holder: None,
        }),
        _ => {
            let mut registration = Registration::card(card(&args.card, None)?);
            registration.payment_brand = brand(&args.card);
            registration
        }
    };
    registration.payment_mode = args.card.mode.clone();
    // The interface takes a registration's names in the shipping block.
    registration.customer = customer(&args.person, args.customer_id.as_ref(), false);
    registration.shipping = shipping(&args.person, true);
    let registered = client.register(&registration);
    answered(OperationKind::Registration, registered, render::registered).await
}

async fn charge(client: &Client, args: &ChargeArgs) -> Result<Report, Failure> {
    let MoneyArgs { amount, currency } = args.money;
    let mut payment = TokenPayment::new(args.registration_id, amount, currency);
    // Without one, the client makes the id up, so that `inquiry` can find the charge.
    payment.merchant_transaction_id = args.merchant_transaction_id.clone();
    payment.payment_type = args.payment_type.into();
    payment.recurring_type = args.recurring.map(Into::into);
    payment.installment = args.installment;
    payment.cvv = args
        .cvv
        .as_deref()
        .map(Cvv::new)
        .transpose()
        .map_err(|error| Failure::usage(format!("--cvv: {error}")))?;
    let transaction = call(OperationKind::TokenPayment, client.pay_with_token(&payment)).await?;
    Ok(transaction_report(
        OperationKind::TokenPayment,
        &transaction,
    ))
}

async fn inquiry(client: &Client, args: &InquiryArgs) -> Result<Report, Failure> {
    let inquiry = match (&args.payment_id, &args.merchant_transaction_id) {
        (Some(id), _) => Inquiry::ByPaymentId(*id),
        (None, Some(id)) => Inquiry::ByMerchantTransactionId(id.clone()),
        (None, None) => {
            return Err(Failure::usage(
                "give a payment id or --merchant-transaction-id",
            ));
        }
    };
    let transaction = call(OperationKind::Inquiry, client.inquiry(&inquiry)).await?;
    // The inquiry found the transaction; what became of it is the transaction's own, and
    // so is the exit code: `paytoken inquiry ID && ship` ships approved payments only.
    let state = status_outcome(&transaction.status);
    let mut json = render::transaction(&transaction);
    if let Some(object) = json.as_object_mut() {
        object.insert("transactionOutcome".into(), state.name().into());
    }
    Ok(Report::answer(
        Outcome::Found,
        OperationKind::Inquiry,
        Some(state.name()),
        json,
    )
    .with_exit(state.exit()))
}

/// A move of the back office that the gateway made: approved, whatever the payment's
/// status now says (a cancelled pre-authorisation is what a cancel asks for).
fn move_report(operation: OperationKind, what: &str, transaction: &Transaction) -> Report {
    Report::answer(
        Outcome::Approved,
        operation,
        Some(what),
        render::transaction(transaction),
    )
}

async fn capture(client: &Client, args: &MoveArgs) -> Result<Report, Failure> {
    let MoneyArgs { amount, currency } = args.money;
    let capture = Capture::new(args.payment_id, amount, currency);
    let transaction = call(OperationKind::Capture, client.capture(&capture)).await?;
    Ok(move_report(
        OperationKind::Capture,
        "captured",
        &transaction,
    ))
}

async fn refund(client: &Client, args: &MoveArgs) -> Result<Report, Failure> {
    let MoneyArgs { amount, currency } = args.money;
    let refund = Refund::new(args.payment_id, amount, currency);
    let transaction = call(OperationKind::Refund, client.refund(&refund)).await?;
    Ok(move_report(OperationKind::Refund, "refunded", &transaction))
}

async fn cancel(client: &Client, payment_id: &PaymentId) -> Result<Report, Failure> {
    let cancel = Cancel::new(*payment_id);
    let transaction = call(OperationKind::Cancel, client.cancel(&cancel)).await?;
    Ok(move_report(
        OperationKind::Cancel,
        "cancelled",
        &transaction,
    ))
}

async fn repeat(client: &Client, args: &RepeatArgs) -> Result<Report, Failure> {
    let MoneyArgs { amount, currency } = args.money;
    let mut payment = RepeatPayment::new(args.first_payment_id, amount, currency);
    // Without one, the client makes the id up, so that `inquiry` can find the payment.
    payment.merchant_transaction_id = args.merchant_transaction_id.clone();
    payment.payment_type = args.payment_type.into();
    let transaction = call(
        OperationKind::RepeatPayment,
        client.repeat_payment(&payment),
    )
    .await?;
    Ok(transaction_report(
        OperationKind::RepeatPayment,
        &transaction,
    ))
}
