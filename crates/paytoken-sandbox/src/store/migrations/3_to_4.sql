-- Schema version 3 to 4: auth tokens are kept by their digest (MD5, in hex, over a label
-- and the token), never as the token. The sandbox replaces each kept token by its digest
-- as it migrates the file.

ALTER TABLE tokens RENAME COLUMN token TO digest;
