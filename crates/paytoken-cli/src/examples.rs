//! The example lines that end each command's long help (`paytoken help pay`). A test runs
//! every one against a sandbox, with the connection from a profile and the words in
//! capitals (`REGISTRATION_ID`, `PAYMENT_ID`, `CUSTOMER_ID`, `AUTH_TOKEN_FILE`) filled in
//! from earlier calls;
//! `~` stands for a folder of the test's own.

pub(crate) const DEMO: &str = "Examples:
  $ paytoken demo --vary-answers 7
  $ paytoken demo --answers-like ~/staging.jsonl";

pub(crate) const SANDBOX: &str = "Examples:
  $ paytoken sandbox --addr 127.0.0.1:8080 --write-profile local
  $ paytoken sandbox --addr 127.0.0.1:8080 --answers-like ~/staging.jsonl";

pub(crate) const LISTEN: &str = "Examples:
  $ paytoken listen --addr 127.0.0.1:8090 --forward-to http://127.0.0.1:3000/notifications";

pub(crate) const CUSTOMER_SIGNUP: &str = "Examples:
  $ paytoken customer-signup --given-name Ada --surname Lovelace --email ada@example.com";

pub(crate) const PAY: &str = "Examples:
  $ paytoken pay --amount 50.00 --currency EUR --merchant-transaction-id order-1001 --store-card --card-number 4000000000000051 --expiry-month 12 --expiry-year 2030 --cvv 745
  $ paytoken pay --type preauthorization --amount 80.00 --currency EUR --merchant-transaction-id order-1002 --card-number 5101080000000009 --expiry-month 12 --expiry-year 2030 --cvv 123";

pub(crate) const REGISTER: &str = "Examples:
  $ paytoken register --card-number 5101080000000009 --expiry-month 12 --expiry-year 2030 --cvv 123 --customer-id CUSTOMER_ID
  $ paytoken register --iban DE89370400440532013000 --bic COBADEFFXXX --given-name Ada --surname Lovelace";

pub(crate) const PAY_WITH_TOKEN: &str = "Examples:
  $ paytoken pay-with-token REGISTRATION_ID --amount 9.99 --currency EUR
  $ paytoken pay-with-token REGISTRATION_ID --amount 9.99 --currency EUR --recurring initial";

pub(crate) const DELETE_TOKEN: &str = "Examples:
  $ paytoken delete-token REGISTRATION_ID";

pub(crate) const INSTALLMENTS: &str = "Examples:
  $ paytoken installments REGISTRATION_ID";

pub(crate) const CARDS_AND_ACCOUNTS: &str = "Examples:
  $ paytoken cards-and-accounts
  $ paytoken cards-and-accounts --customer-id CUSTOMER_ID";

pub(crate) const INVOICES: &str = "Examples:
  $ paytoken invoices --page 1 --records 50
  $ paytoken invoices --all --json";

pub(crate) const FETCH_AUTH_TOKEN: &str = "Examples:
  $ paytoken fetch-auth-token";

pub(crate) const REGENERATE_AUTH_TOKEN: &str = "Examples:
  $ paytoken regenerate-auth-token --auth-token-file AUTH_TOKEN_FILE";

pub(crate) const INQUIRY: &str = "Examples:
  $ paytoken inquiry PAYMENT_ID
  $ paytoken inquiry --merchant-transaction-id order-1001";

pub(crate) const CAPTURE: &str = "Examples:
  $ paytoken capture PAYMENT_ID --amount 30.00 --currency EUR";

pub(crate) const REFUND: &str = "Examples:
  $ paytoken refund PAYMENT_ID --amount 10.00 --currency EUR";

pub(crate) const CANCEL: &str = "Examples:
  $ paytoken cancel PAYMENT_ID";

pub(crate) const REPEAT_PAYMENT: &str = "Examples:
  $ paytoken repeat-payment PAYMENT_ID --amount 9.99 --currency EUR";

pub(crate) const CONFIG_LIST: &str = "Examples:
  $ paytoken config list";

pub(crate) const CONFIG_SHOW: &str = "Examples:
  $ paytoken config show staging
  $ paytoken --profile staging config show";

pub(crate) const WHOAMI: &str = "Examples:
  $ paytoken whoami
  $ paytoken --profile staging --member-id 11345 whoami";

pub(crate) const DOCTOR: &str = "Examples:
  $ paytoken doctor
  $ paytoken --profile staging doctor --json";

pub(crate) const RECORD: &str = "Examples:
  $ paytoken record --upstream https://test.gateway.example --addr 127.0.0.1:8070 --cassette ~/staging.jsonl
  $ paytoken --json record --upstream https://test.gateway.example --addr 127.0.0.1:8071";

pub(crate) const CONFORM: &str = "Examples:
  $ paytoken conform --client ~/paytoken-conformance/adapter.py
  $ paytoken --json conform --client ~/paytoken-conformance/adapter.py --source specification";

pub(crate) const REPLAY: &str = "Examples:
  $ paytoken replay --check ~/staging.jsonl
  $ paytoken --json replay --check ~/staging.jsonl";

pub(crate) const COMPLETIONS: &str = "Examples:
  $ paytoken completions bash > ~/.local/share/bash-completion/completions/paytoken
  $ paytoken completions zsh > ~/.zfunc/_paytoken";

pub(crate) const MAN_PAGES: &str = "Examples:
  $ paytoken man-pages --out ~/.local/share/man/man1";

pub(crate) const VECTORS: &str = "Examples:
  $ paytoken vectors --out ~/paytoken-conformance";

pub(crate) const LOGS_TAIL: &str = "Examples:
  $ paytoken logs tail --once
  $ paytoken --profile staging logs tail --json";

pub(crate) const EVENTS_LIST: &str = "Examples:
  $ paytoken events list";

pub(crate) const EVENTS_RESEND: &str = "Examples:
  $ paytoken events resend EVENT_ID";

pub(crate) const CLOCK_SHOW: &str = "Examples:
  $ paytoken clock show";

pub(crate) const CLOCK_ADVANCE: &str = "Examples:
  $ paytoken clock advance 2h";

pub(crate) const FAULTS_LIST: &str = "Examples:
  $ paytoken faults list";

pub(crate) const FAULTS_NEXT: &str = "Examples:
  $ paytoken faults next drop=after
  $ paytoken faults next status=502 --count 2 --for inquiry";

pub(crate) const FAULTS_CLEAR: &str = "Examples:
  $ paytoken faults clear";

pub(crate) const BOOKS: &str = "Examples:
  $ paytoken books";
