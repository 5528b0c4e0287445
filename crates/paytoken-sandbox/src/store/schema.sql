-- The state file of paytoken-sandbox (`paytoken sandbox --state FILE`): schema version 1.
-- Each later version is a migration in migrations/ (1_to_2.sql: notifications; 2_to_3.sql:
-- the request log); a new file is made by this file and every migration in order, an older
-- one brought up to date by the migrations it lacks, in one transaction, when a sandbox
-- opens it.
--
-- One row per record the sandbox remembers. Owners are named by the ids of the
-- configuration (`partner_id`, and `member_id` for a merchant's records, NULL for a
-- partner's), so a file outlives a change of the configuration's order. Amounts are in
-- minor units (cents); times are seconds since 1970 on the sandbox's clock. Card numbers
-- and CVVs are never written; secure keys stay in the configuration.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);  -- ('application', 'paytoken-sandbox'), ('schema_version', N), ('customers_issued', N)

CREATE TABLE tokens (
    token      TEXT PRIMARY KEY,
    partner_id TEXT NOT NULL,
    member_id  TEXT,
    expires_at INTEGER NOT NULL
);

CREATE TABLE customers (
    customer_id TEXT PRIMARY KEY,
    partner_id  TEXT NOT NULL,
    member_id   TEXT
);

CREATE TABLE registrations (
    position        INTEGER PRIMARY KEY,   -- the order they were made, for listing
    registration_id TEXT NOT NULL UNIQUE,
    partner_id      TEXT NOT NULL,
    member_id       TEXT,
    customer_id     TEXT,
    card_brand      TEXT,                  -- a card: these six, and its test behaviour
    card_bin        TEXT,
    card_last_four  TEXT,
    card_expiry_month TEXT,
    card_expiry_year  TEXT,
    card_holder     TEXT,
    card_behaviour  TEXT,
    masked_iban     TEXT,                  -- a bank account: these two
    bic             TEXT,
    active          INTEGER NOT NULL,      -- 0 once deleted
    recurring       INTEGER NOT NULL       -- 1 once an INITIAL payment was approved
);

CREATE TABLE payments (
    position        INTEGER PRIMARY KEY,   -- payment ids count up from 60001 by position
    payment_id      TEXT NOT NULL UNIQUE,
    partner_id      TEXT NOT NULL,
    member_id       TEXT,
    merchant_transaction_id TEXT,
    payment_type    TEXT NOT NULL,         -- DB, PA
    brand           TEXT,
    mode            TEXT,
    amount_minor    INTEGER NOT NULL,
    currency        TEXT NOT NULL,
    status          TEXT NOT NULL,         -- transactionStatus: Y, N, P, 3D
    remark          TEXT,                  -- a decline's
    registration_id TEXT,
    card_brand      TEXT,
    card_bin        TEXT,
    card_last_four  TEXT,
    card_expiry_month TEXT,
    card_expiry_year  TEXT,
    card_holder     TEXT,
    card_behaviour  TEXT,
    descriptor      TEXT,
    redirect_back   TEXT,
    notify_url      TEXT,
    notify_fault    TEXT,
    timestamp       TEXT NOT NULL,
    made_at         INTEGER NOT NULL,
    captured_minor  INTEGER,
    refunded_minor  INTEGER NOT NULL,
    cancelled       INTEGER NOT NULL
);

CREATE UNIQUE INDEX payments_by_order
    ON payments (partner_id, ifnull(member_id, ''), merchant_transaction_id)
    WHERE merchant_transaction_id IS NOT NULL;

CREATE TABLE invoices (
    position          INTEGER PRIMARY KEY,
    partner_id        TEXT NOT NULL,
    member_id         TEXT,
    system_invoice_id TEXT NOT NULL,
    amount_minor      INTEGER NOT NULL,
    currency          TEXT NOT NULL,
    created           TEXT NOT NULL,
    unix_seconds      INTEGER NOT NULL,
    status            TEXT NOT NULL,
    customer_name     TEXT NOT NULL,
    customer_email    TEXT NOT NULL,
    order_id          TEXT NOT NULL,
    order_description TEXT NOT NULL
);
