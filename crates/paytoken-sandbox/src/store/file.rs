//! The file store (feature `sqlite`): what the sandbox remembers, in one SQLite file that
//! outlives the process. The state is loaded whole when the sandbox starts; afterwards each
//! call's journal (`state::Change`) is written in one transaction before its answer leaves,
//! so an answer the client saw is on the file even if the process is killed right after.
//! WAL with `synchronous = NORMAL`: a killed process loses nothing it answered; a power
//! loss may lose the last calls (the docs say so).
//!
//! The file is opened in exclusive locking mode, so a second sandbox on it is refused, with
//! the file's name; one that is not a sandbox's state file, of a newer schema, or damaged,
//! is refused too, and never overwritten.

mod refusal;
mod requests;

use std::collections::HashMap;
use std::path::Path;

use paytoken_types::{
    Amount, Currency, CustomerId, MerchantTransactionId, PaymentBrand, PaymentId, PaymentMode,
    PaymentType, RegistrationId,
};
use rusqlite::types::Value;
use rusqlite::{Connection, OpenFlags, OptionalExtension as _, Row, params};

use refusal::Refusal;

use crate::Error;
use crate::cards::Behaviour;
use crate::config::SandboxConfig;
use crate::faults::NotificationFault;
use crate::notifications::{Attempt, Keep, SentNotification};
use crate::state::{
    Change, Instrument, Invoice, InvoiceStatus, IssuedToken, Moves, NotifyTo, Payment, Principal,
    Registration, State, Status, StoredCard, TokenDigest,
};

/// The schema's first version, as a person reads it: the tables and what each column holds.
const SCHEMA: &str = include_str!("schema.sql");
/// Each later version: the migration from the version before it, in order (`MIGRATIONS[0]`
/// takes version 1 to 2).
const MIGRATIONS: &[&str] = &[
    include_str!("migrations/1_to_2.sql"),
    include_str!("migrations/2_to_3.sql"),
    include_str!("migrations/3_to_4.sql"),
];
/// What `meta.application` says in a sandbox's state file.
const APPLICATION: &str = "paytoken-sandbox";
/// The schema this sandbox writes: the first version and every migration.
pub(crate) const SCHEMA_VERSION: i64 = 4;
// A migration added without its version, or a version without its migration, does not build.
const _: () = assert!(MIGRATIONS.len() + 1 == 4);

/// The order the records of `registrations`, `payments` and `invoices` were made in.
const IN_ORDER: &str = "ORDER BY position";

/// An open state file.
#[derive(Debug)]
pub(crate) struct FileStore {
    connection: Connection,
    owners: Owners,
    /// A defect a simulation plants: every payment is written with nothing refunded.
    #[cfg(feature = "simulation")]
    pub(crate) loses_refunds: bool,
}

impl FileStore {
    /// Opens `path` (created when missing) and loads what it holds; `None` for a new file,
    /// which the caller fills (the seeded invoices) and keeps.
    ///
    /// # Errors
    /// [`Error::State`] for a file that cannot be used, saying why.
    pub(crate) fn open(
        path: &Path,
        config: &SandboxConfig,
    ) -> Result<(Self, Option<State>), Error> {
        let refuse = |refusal: Refusal| refusal.at(path);
        let sqlite = |error: rusqlite::Error| Refusal::from(error).at(path);
        // Known before a byte is written: whose file this is. A foreign file is refused as
        // it was found, its journal mode and bytes unchanged.
        let found = identify(path).map_err(refuse)?;
        let connection = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(sqlite)?;
        // Exclusive: the lock taken by the first write is kept until the sandbox stops, so
        // a second sandbox on the file is refused instead of writing beside this one.
        connection
            .execute_batch("PRAGMA locking_mode = EXCLUSIVE; PRAGMA busy_timeout = 0;")
            .map_err(sqlite)?;
        let journal: String = connection
            .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
            .map_err(sqlite)?;
        if !journal.eq_ignore_ascii_case("wal") {
            return Err(refuse(Refusal::new(format!(
                "its journal cannot be WAL ({journal})"
            ))));
        }
        connection
            .execute_batch("PRAGMA synchronous = NORMAL; BEGIN IMMEDIATE; COMMIT;")
            .map_err(sqlite)?;
        let store = Self {
            connection,
            owners: Owners::of(config),
            #[cfg(feature = "simulation")]
            loses_refunds: false,
        };
        let Some(version) = found else {
            let transaction = store.connection.unchecked_transaction().map_err(sqlite)?;
            transaction.execute_batch(SCHEMA).map_err(sqlite)?;
            transaction
                .execute(
                    "INSERT INTO meta (key, value) VALUES ('application', ?1), ('schema_version', '1'), ('customers_issued', '0')",
                    [APPLICATION],
                )
                .map_err(sqlite)?;
            transaction.commit().map_err(sqlite)?;
            store.migrate(1).map_err(sqlite)?;
            return Ok((store, None));
        };
        store.migrate(version).map_err(sqlite)?;
        let state = store.load().map_err(refuse)?;
        Ok((store, Some(state)))
    }

    /// Brings a file of schema `version` up to [`SCHEMA_VERSION`], in one transaction.
    fn migrate(&self, version: i64) -> rusqlite::Result<()> {
        let first = usize::try_from(version.saturating_sub(1)).unwrap_or(usize::MAX);
        let Some(missing) = MIGRATIONS
            .get(first..)
            .filter(|missing| !missing.is_empty())
        else {
            return Ok(());
        };
        let transaction = self.connection.unchecked_transaction()?;
        for migration in missing {
            transaction.execute_batch(migration)?;
        }
        if version < 4 {
            digest_tokens(&transaction)?;
        }
        transaction.execute(
            "UPDATE meta SET value = ?1 WHERE key = 'schema_version'",
            [SCHEMA_VERSION.to_string()],
        )?;
        transaction.commit()
    }

    /// Keeps notification `number` as it stands, its attempts so far included, in one
    /// transaction.
    ///
    /// # Errors
    /// SQLite's, when the file cannot be written.
    pub(crate) fn keep_notification(
        &mut self,
        number: u64,
        sent: &SentNotification,
    ) -> rusqlite::Result<()> {
        let number = i64::try_from(number).unwrap_or(i64::MAX);
        let transaction = self.connection.transaction()?;
        transaction.execute(
            "INSERT OR REPLACE INTO notifications VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                number,
                sent.payment_id,
                sent.url,
                sent.body,
                sent.fault.map(NotificationFault::name),
                sent.delivered
            ],
        )?;
        transaction.execute(
            "DELETE FROM notification_attempts WHERE notification = ?1",
            [number],
        )?;
        for (position, attempt) in sent.attempts.iter().enumerate() {
            let (outcome, status, reason) = match attempt {
                Attempt::Answered(status) => ("answered", Some(*status), None),
                Attempt::Failed(reason) => ("failed", None, Some(reason.as_str())),
                Attempt::NotSent(reason) => ("not_sent", None, Some(reason.as_str())),
                Attempt::Resent => ("resent", None, None),
            };
            transaction.execute(
                "INSERT INTO notification_attempts VALUES (?1, ?2, ?3, ?4, ?5)",
                params![number, number_of(position), outcome, status, reason],
            )?;
        }
        transaction.commit()
    }

    /// Every notification kept, by number, with its attempts.
    pub(crate) fn notifications(&self) -> Result<Vec<(u64, SentNotification)>, Refusal> {
        let mut attempts: HashMap<i64, Vec<Attempt>> = HashMap::new();
        let order = "ORDER BY notification, position";
        for (number, attempt) in self.rows("notification_attempts", order, |row| {
            let attempt = match (row.get::<String>(2)?.as_str(), row.get(3)?, row.get(4)?) {
                ("answered", Some(status), None) => Attempt::Answered(status),
                ("failed", None, Some(reason)) => Attempt::Failed(reason),
                ("not_sent", None, Some(reason)) => Attempt::NotSent(reason),
                ("resent", None, None) => Attempt::Resent,
                _ => return Err(row.damaged(2)),
            };
            Ok((row.get::<i64>(0)?, attempt))
        })? {
            attempts.entry(number).or_default().push(attempt);
        }
        self.rows("notifications", "ORDER BY number", |row| {
            let number = row.get::<i64>(0)?;
            let kept = u64::try_from(number).map_err(|_| row.damaged(0))?;
            let sent = SentNotification {
                payment_id: row.get(1)?,
                url: row.get(2)?,
                body: row.get(3)?,
                fault: row.optional(4, NotificationFault::named)?,
                attempts: attempts.remove(&number).unwrap_or_default(),
                delivered: row.get(5)?,
            };
            Ok((kept, sent))
        })
    }

    /// Writes the state's journal in one transaction.
    ///
    /// # Errors
    /// SQLite's, when the file cannot be written: nothing of the call is kept.
    pub(crate) fn keep(&mut self, state: &State) -> rusqlite::Result<()> {
        if state.changes().is_empty() {
            return Ok(());
        }
        let owners = &self.owners;
        let refunds_kept = self.keeps_refunds();
        let transaction = self.connection.transaction()?;
        for change in state.changes() {
            match change {
                Change::TokenIssued(digest) => {
                    if let Some(issued) = state.token_by_digest(digest) {
                        let (partner, member) = owners.ids(issued.principal);
                        transaction.execute(
                            "INSERT OR REPLACE INTO tokens VALUES (?1, ?2, ?3, ?4)",
                            params![digest.as_str(), partner, member, issued.expires_at],
                        )?;
                    }
                }
                Change::TokenRevoked(digest) => {
                    transaction
                        .execute("DELETE FROM tokens WHERE digest = ?1", [digest.as_str()])?;
                }
                Change::ClockAdvanced(advanced_ms) => {
                    transaction.execute(
                        "INSERT OR REPLACE INTO meta (key, value) VALUES ('clock_advanced_ms', ?1)",
                        [advanced_ms.to_string()],
                    )?;
                }
                Change::TokensExpired(now) => {
                    transaction.execute("DELETE FROM tokens WHERE expires_at <= ?1", [now])?;
                }
                Change::Customer(id) => {
                    if let Some(owner) = state.customer_owner(id) {
                        let (partner, member) = owners.ids(owner);
                        transaction.execute(
                            "INSERT OR REPLACE INTO customers VALUES (?1, ?2, ?3)",
                            params![id.as_str(), partner, member],
                        )?;
                    }
                    transaction.execute(
                        "UPDATE meta SET value = ?1 WHERE key = 'customers_issued'",
                        [state.customers_issued().to_string()],
                    )?;
                }
                Change::Registration(id) => {
                    if let (Some(registration), Some(position)) =
                        (state.registration(id), state.registration_position(id))
                    {
                        let values = Self::registration_row(owners, position, registration);
                        transaction.execute(
                            "INSERT OR REPLACE INTO registrations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
                            rusqlite::params_from_iter(values),
                        )?;
                    }
                }
                Change::Payment(position) => {
                    if let Some(payment) = state.payments().get(*position) {
                        let values = Self::payment_row(owners, *position, payment, refunds_kept);
                        transaction.execute(
                            "INSERT OR REPLACE INTO payments VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29)",
                            rusqlite::params_from_iter(values),
                        )?;
                    }
                }
                Change::Invoice(position) => {
                    if let Some(invoice) = state.invoices().get(*position) {
                        let values = Self::invoice_row(owners, *position, invoice);
                        transaction.execute(
                            "INSERT OR REPLACE INTO invoices VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                            rusqlite::params_from_iter(values),
                        )?;
                    }
                }
            }
        }
        transaction.commit()
    }

    fn registration_row(
        owners: &Owners,
        position: usize,
        registration: &Registration,
    ) -> Vec<Value> {
        let (partner, member) = owners.ids(registration.owner);
        let mut values = vec![
            number(position),
            text(registration.id.as_str()),
            text(partner),
            optional(member),
            optional(registration.customer_id.as_ref().map(CustomerId::as_str)),
        ];
        match &registration.instrument {
            Instrument::Card(card) => {
                values.extend(card_values(Some(card)));
                values.extend([Value::Null, Value::Null]);
            }
            Instrument::BankAccount { masked_iban, bic } => {
                values.extend(card_values(None));
                values.extend([text(masked_iban), text(bic)]);
            }
        }
        values.extend([flag(registration.active), flag(registration.recurring)]);
        values
    }

    /// Whether payments are written with their refunds: always, but for a planted defect.
    const fn keeps_refunds(&self) -> bool {
        #[cfg(feature = "simulation")]
        return !self.loses_refunds;
        #[cfg(not(feature = "simulation"))]
        true
    }

    fn payment_row(
        owners: &Owners,
        position: usize,
        payment: &Payment,
        refunds_kept: bool,
    ) -> Vec<Value> {
        let refunded = if refunds_kept {
            payment.moves.refunded
        } else {
            Amount::ZERO
        };
        let (partner, member) = owners.ids(payment.owner);
        let notify = payment.notify.as_ref();
        let mut values = vec![
            number(position),
            text(payment.payment_id.as_str()),
            text(partner),
            optional(member),
            optional(
                payment
                    .merchant_transaction_id
                    .as_ref()
                    .map(MerchantTransactionId::as_str),
            ),
            text(payment.payment_type.as_str()),
            optional(payment.brand.as_ref().map(PaymentBrand::as_str)),
            optional(payment.mode.as_ref().map(PaymentMode::as_str)),
            minor(payment.amount),
            text(payment.currency.as_str()),
            text(payment.status.short().as_str()),
            optional(payment.status.remark()),
            optional(payment.registration_id.as_ref().map(RegistrationId::as_str)),
        ];
        values.extend(card_values(payment.card.as_ref()));
        values.extend([
            optional(payment.descriptor.as_deref()),
            optional(payment.redirect_back.as_deref()),
            optional(notify.map(|to| to.url.as_str())),
            optional(notify.and_then(|to| to.fault).map(NotificationFault::name)),
            text(&payment.timestamp),
            Value::Integer(payment.made_at),
            payment.moves.captured.map_or(Value::Null, minor),
            minor(refunded),
            flag(payment.moves.cancelled),
        ]);
        values
    }

    fn invoice_row(owners: &Owners, position: usize, invoice: &Invoice) -> Vec<Value> {
        let (partner, member) = owners.ids(invoice.owner);
        vec![
            number(position),
            text(partner),
            optional(member),
            text(&invoice.system_invoice_id),
            minor(invoice.amount),
            text(invoice.currency.as_str()),
            text(&invoice.created),
            Value::Integer(invoice.unix_seconds),
            text(invoice.status.as_str()),
            text(&invoice.customer_name),
            text(&invoice.customer_email),
            text(&invoice.order_id),
            text(&invoice.order_description),
        ]
    }

    /// Reads every table into a state, in the order its records were made.
    fn load(&self) -> Result<State, Refusal> {
        let mut state = State::default();
        let issued: String = self.connection.query_row(
            "SELECT value FROM meta WHERE key = 'customers_issued'",
            [],
            |row| row.get(0),
        )?;
        state.restore_customers_issued(
            issued
                .parse()
                .map_err(|_| Refusal::damaged("meta", "customers_issued"))?,
        );
        // Absent until the console first moves the clock.
        let advanced: Option<String> = self
            .connection
            .query_row(
                "SELECT value FROM meta WHERE key = 'clock_advanced_ms'",
                [],
                |row| row.get(0),
            )
            .optional()?;
        if let Some(advanced) = advanced {
            state.restore_clock_advanced(
                advanced
                    .parse()
                    .map_err(|_| Refusal::damaged("meta", "clock_advanced_ms"))?,
            );
        }
        for (digest, issued) in self.rows("tokens", "", |row| {
            let principal = row.owner(&self.owners, 1)?;
            let expires_at = row.get(3)?;
            Ok((
                TokenDigest::kept(row.get(0)?),
                IssuedToken {
                    principal,
                    expires_at,
                },
            ))
        })? {
            state.issue_digest(digest, issued);
        }
        for (id, owner) in self.rows("customers", "", |row| {
            Ok((
                row.parsed(0, |id| CustomerId::new(id).ok())?,
                row.owner(&self.owners, 1)?,
            ))
        })? {
            state.insert_customer(id, owner);
        }
        for registration in self.rows("registrations", IN_ORDER, |row| {
            row.registration(&self.owners)
        })? {
            state.insert_registration(registration);
        }
        for payment in self.rows("payments", IN_ORDER, |row| row.payment(&self.owners))? {
            if payment.status == Status::Pending {
                state.add_pending(payment.made_at, state.payments().len());
            }
            state.insert_payment(payment);
        }
        for invoice in self.rows("invoices", IN_ORDER, |row| row.invoice(&self.owners))? {
            state.push_invoice(invoice);
        }
        state.forget_changes();
        Ok(state)
    }

    /// Every row of `table`, every column in the schema's order, sorted by `order` (an
    /// `ORDER BY` clause or nothing), each read by `read`.
    fn rows<T>(
        &self,
        table: &'static str,
        order: &str,
        mut read: impl FnMut(&Record<'_, '_>) -> Result<T, Refusal>,
    ) -> Result<Vec<T>, Refusal> {
        let mut statement = self
            .connection
            .prepare(&format!("SELECT * FROM {table} {order}"))?;
        let mut rows = statement.query([])?;
        let mut read_all = Vec::new();
        while let Some(row) = rows.next()? {
            read_all.push(read(&Record { row, table })?);
        }
        Ok(read_all)
    }
}

impl Keep for std::sync::Mutex<FileStore> {
    fn keep(&self, number: u64, sent: &SentNotification) -> Result<(), String> {
        self.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keep_notification(number, sent)
            .map_err(|error| error.to_string())
    }
}

/// Whose `path` is, read without writing: `None` when it is missing, empty or an empty
/// database (the sandbox makes it its own); its schema version when it is a sandbox's;
/// why not otherwise (not a database, another program's, newer, damaged, in use).
/// Removes the state file at `path` with the write-ahead log and shared-memory files
/// SQLite keeps beside it (`-wal`, `-shm`); a file already gone is no error. For a state
/// file no sandbox has open: a test's, once its sandbox stopped.
///
/// # Errors
/// The first removal that failed for another reason than the file being gone.
pub fn remove_state_file(path: &Path) -> std::io::Result<()> {
    for suffix in ["", "-wal", "-shm"] {
        let mut companion = path.as_os_str().to_owned();
        companion.push(suffix);
        match std::fs::remove_file(companion) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => return Err(error),
            _ => {}
        }
    }
    Ok(())
}

fn identify(path: &Path) -> Result<Option<i64>, Refusal> {
    let empty = std::fs::metadata(path).map_or(true, |found| found.len() == 0);
    if empty {
        return Ok(None);
    }
    let connection = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    connection.execute_batch("PRAGMA busy_timeout = 0;")?;
    let tables: i64 =
        connection.query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0))?;
    if tables == 0 {
        return Ok(None);
    }
    schema_of(&connection).map(Some)
}

/// Refuses a file that is not a sandbox's, of a newer schema, or damaged; its schema
/// version otherwise.
fn schema_of(connection: &Connection) -> Result<i64, Refusal> {
    let meta = |key: &str| -> Result<Option<String>, Refusal> {
        connection
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |row| {
                row.get(0)
            })
            .map(Some)
            .or_else(|error| match error {
                rusqlite::Error::QueryReturnedNoRows => Ok(None),
                _ => Err(Refusal::new("not a paytoken sandbox state file")),
            })
    };
    if meta("application")?.as_deref() != Some(APPLICATION) {
        return Err(Refusal::new("not a paytoken sandbox state file"));
    }
    let version = meta("schema_version")?
        .and_then(|version| version.parse::<i64>().ok())
        .ok_or_else(|| Refusal::new("its schema version cannot be read"))?;
    if version > SCHEMA_VERSION {
        return Err(Refusal::new(format!(
            "its schema version {version} is newer than this sandbox's {SCHEMA_VERSION}: use a newer paytoken"
        )));
    }
    let check: String = connection.query_row("PRAGMA quick_check", [], |row| row.get(0))?;
    if check != "ok" {
        return Err(Refusal::new(format!("it is damaged ({check})")));
    }
    if version < 1 {
        return Err(Refusal::new(format!(
            "its schema version {version} was never written by a sandbox"
        )));
    }
    Ok(version)
}

fn text(value: &str) -> Value {
    Value::Text(value.to_owned())
}

fn optional(value: Option<&str>) -> Value {
    value.map_or(Value::Null, text)
}

fn number(value: usize) -> Value {
    Value::Integer(number_of(value))
}

fn number_of(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

fn minor(amount: Amount) -> Value {
    Value::Integer(i64::try_from(amount.minor_units()).unwrap_or(i64::MAX))
}

fn flag(value: bool) -> Value {
    Value::Integer(i64::from(value))
}

fn card_values(card: Option<&StoredCard>) -> [Value; 7] {
    match card {
        None => std::array::from_fn(|_| Value::Null),
        Some(card) => [
            text(&card.brand),
            text(&card.bin),
            text(&card.last_four),
            text(&card.expiry_month),
            text(&card.expiry_year),
            optional(card.holder.as_deref()),
            text(card.behaviour.name()),
        ],
    }
}

/// The configuration's principals by their ids, both ways: a file names owners by id.
#[derive(Debug)]
struct Owners {
    ids: HashMap<Principal, (String, Option<String>)>,
    principals: HashMap<(String, Option<String>), Principal>,
}

impl Owners {
    fn of(config: &SandboxConfig) -> Self {
        let mut ids = HashMap::new();
        for (partner, partner_config) in config.partners.iter().enumerate() {
            let partner_id = partner_config.partner_id.to_string();
            ids.insert(Principal::Partner { partner }, (partner_id.clone(), None));
            for (merchant, merchant_config) in partner_config.merchants.iter().enumerate() {
                ids.insert(
                    Principal::Merchant { partner, merchant },
                    (
                        partner_id.clone(),
                        Some(merchant_config.member_id.to_string()),
                    ),
                );
            }
        }
        let principals = ids
            .iter()
            .map(|(principal, id)| (id.clone(), *principal))
            .collect();
        Self { ids, principals }
    }

    /// The partner id and member id of `principal`; every principal comes from the
    /// configuration, so the fallback is never taken.
    fn ids(&self, principal: Principal) -> (&str, Option<&str>) {
        self.ids
            .get(&principal)
            .map_or(("", None), |(partner, member)| {
                (partner.as_str(), member.as_deref())
            })
    }

    fn principal(&self, partner: String, member: Option<String>) -> Result<Principal, Refusal> {
        let shown = format!(
            "{partner}{}",
            member.as_deref().map_or(String::new(), |m| format!("/{m}"))
        );
        self.principals.get(&(partner, member)).copied().ok_or_else(|| {
            Refusal::new(format!("it holds records of {shown}, which the configuration does not name: start with the configuration that made it"))
        })
    }
}

/// One row being read: its columns by index, and a refusal naming the column (read from
/// the statement) when one holds what the sandbox never writes.
struct Record<'r, 's> {
    row: &'r Row<'s>,
    table: &'static str,
}

impl Record<'_, '_> {
    fn get<T: rusqlite::types::FromSql>(&self, index: usize) -> Result<T, Refusal> {
        Ok(self.row.get(index)?)
    }

    fn damaged(&self, index: usize) -> Refusal {
        let column = self.row.as_ref().column_name(index).unwrap_or("?");
        Refusal::damaged(self.table, column)
    }

    /// The text at `index`, read by `parse`.
    fn parsed<T>(&self, index: usize, parse: impl FnOnce(&str) -> Option<T>) -> Result<T, Refusal> {
        self.optional(index, parse)?
            .ok_or_else(|| self.damaged(index))
    }

    /// The text at `index`, read by `parse` unless it is `NULL`.
    fn optional<T>(
        &self,
        index: usize,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<Option<T>, Refusal> {
        self.get::<Option<String>>(index)?
            .map(|text| parse(&text).ok_or_else(|| self.damaged(index)))
            .transpose()
    }

    /// The amount in minor units at `index`.
    fn amount(&self, index: usize) -> Result<Amount, Refusal> {
        self.optional_amount(index)?
            .ok_or_else(|| self.damaged(index))
    }

    /// The amount in minor units at `index` unless it is `NULL`.
    fn optional_amount(&self, index: usize) -> Result<Option<Amount>, Refusal> {
        self.get::<Option<i64>>(index)?
            .map(|minor| {
                u64::try_from(minor)
                    .map(Amount::from_minor_units)
                    .map_err(|_| self.damaged(index))
            })
            .transpose()
    }

    fn owner(&self, owners: &Owners, partner: usize) -> Result<Principal, Refusal> {
        owners.principal(self.get(partner)?, self.get(partner + 1)?)
    }

    /// The stored card in the seven columns from `first`, when they hold one.
    fn card(&self, first: usize) -> Result<Option<StoredCard>, Refusal> {
        let text = |offset: usize| self.get::<Option<String>>(first + offset);
        let (Some(brand), Some(bin), Some(last_four), Some(expiry_month), Some(expiry_year)) =
            (text(0)?, text(1)?, text(2)?, text(3)?, text(4)?)
        else {
            return Ok(None);
        };
        Ok(Some(StoredCard {
            brand,
            bin,
            last_four,
            expiry_month,
            expiry_year,
            holder: text(5)?,
            behaviour: self.parsed(first + 6, Behaviour::from_name)?,
        }))
    }

    /// A row of `registrations`.
    fn registration(&self, owners: &Owners) -> Result<Registration, Refusal> {
        let bank = (self.get(12)?, self.get(13)?);
        let instrument = match (self.card(5)?, bank) {
            (Some(card), (None, None)) => Instrument::Card(card),
            (None, (Some(masked_iban), Some(bic))) => Instrument::BankAccount { masked_iban, bic },
            _ => return Err(self.damaged(6)),
        };
        Ok(Registration {
            id: self.parsed(1, |id| RegistrationId::new(id).ok())?,
            owner: self.owner(owners, 2)?,
            customer_id: self.optional(4, |id| CustomerId::new(id).ok())?,
            instrument,
            active: self.get(14)?,
            recurring: self.get(15)?,
        })
    }

    /// A row of `payments`.
    fn payment(&self, owners: &Owners) -> Result<Payment, Refusal> {
        let notify = match self.get::<Option<String>>(22)? {
            Some(url) => Some(NotifyTo {
                url,
                fault: self.optional(23, NotificationFault::named)?,
            }),
            None if self.get::<Option<String>>(23)?.is_none() => None,
            None => return Err(self.damaged(23)),
        };
        let remark: Option<String> = self.get(11)?;
        Ok(Payment {
            payment_id: self.parsed(1, |id| PaymentId::new(id).ok())?,
            owner: self.owner(owners, 2)?,
            merchant_transaction_id: self.optional(4, |id| MerchantTransactionId::new(id).ok())?,
            payment_type: self.parsed(5, |text| Some(PaymentType::from_wire(text)))?,
            brand: self.optional(6, |text| Some(PaymentBrand::from_wire(text)))?,
            mode: self.optional(7, |text| Some(PaymentMode::from_wire(text)))?,
            amount: self.amount(8)?,
            currency: self.parsed(9, |code| Currency::new(code).ok())?,
            status: self.parsed(10, |short| Status::from_stored(short, remark.as_deref()))?,
            registration_id: self.optional(12, |id| RegistrationId::new(id).ok())?,
            card: self.card(13)?,
            descriptor: self.get(20)?,
            redirect_back: self.get(21)?,
            notify,
            timestamp: self.get(24)?,
            made_at: self.get(25)?,
            moves: Moves {
                captured: self.optional_amount(26)?,
                refunded: self.amount(27)?,
                cancelled: self.get(28)?,
            },
        })
    }

    /// A row of `invoices`.
    fn invoice(&self, owners: &Owners) -> Result<Invoice, Refusal> {
        Ok(Invoice {
            owner: self.owner(owners, 1)?,
            system_invoice_id: self.get(3)?,
            amount: self.amount(4)?,
            currency: self.parsed(5, |code| Currency::new(code).ok())?,
            created: self.get(6)?,
            unix_seconds: self.get(7)?,
            status: self.parsed(8, InvoiceStatus::from_wire)?,
            customer_name: self.get(9)?,
            customer_email: self.get(10)?,
            order_id: self.get(11)?,
            order_description: self.get(12)?,
        })
    }
}

/// Version 4 keeps auth tokens by their digest: each token a file of an older version
/// kept is replaced by its digest (`3_to_4.sql` renamed the column), so the callers it
/// signed in stay signed in.
fn digest_tokens(transaction: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    let tokens: Vec<String> = transaction
        .prepare("SELECT digest FROM tokens")?
        .query_map([], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    for token in tokens {
        transaction.execute(
            "UPDATE tokens SET digest = ?1 WHERE digest = ?2",
            [TokenDigest::of(&token).as_str(), token.as_str()],
        )?;
    }
    Ok(())
}
