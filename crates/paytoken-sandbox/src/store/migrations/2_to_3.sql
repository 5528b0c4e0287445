-- Schema version 2 to 3: the request log, the newest entries the console shows (the
-- sandbox keeps a bounded number and deletes older rows as it writes).

CREATE TABLE requests (
    number      INTEGER PRIMARY KEY,       -- 1 for the first request answered
    at          INTEGER NOT NULL,          -- seconds since 1970 on the sandbox's clock
    method      TEXT NOT NULL,
    path        TEXT NOT NULL,
    operation   TEXT,                      -- pay, capture, ...; NULL for no operation
    caller      TEXT,                      -- the member or partner id sent
    status      INTEGER NOT NULL,          -- the HTTP status answered
    result_code TEXT,
    explanation TEXT,                      -- why a refusal was refused
    fields      TEXT NOT NULL              -- JSON [[name, value], ...], masked: no CVV, key, checksum or token
);
