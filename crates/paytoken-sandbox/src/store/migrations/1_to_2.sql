-- Schema version 1 to 2: the notifications the sandbox sent, and each attempt.

CREATE TABLE notifications (
    number     INTEGER PRIMARY KEY,        -- in the order they were sent
    payment_id TEXT NOT NULL,
    url        TEXT NOT NULL,
    body       TEXT NOT NULL,              -- the JSON as sent
    fault      TEXT,                       -- twice, late, broken-checksum
    delivered  INTEGER NOT NULL            -- 1 once an attempt was answered 2xx
);

CREATE TABLE notification_attempts (
    notification INTEGER NOT NULL REFERENCES notifications (number),
    position     INTEGER NOT NULL,         -- 0 for the first attempt
    outcome      TEXT NOT NULL,            -- answered, failed, not_sent, resent (a mark)
    status       INTEGER,                  -- the HTTP status, when answered
    reason       TEXT,                     -- why, when failed or not sent
    PRIMARY KEY (notification, position)
);
