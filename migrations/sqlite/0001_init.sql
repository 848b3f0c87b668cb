-- Times are Unix milliseconds (UTC) in both backends, so the Rust side reads one type.

CREATE TABLE feedback (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    article     TEXT    NOT NULL,
    lang        TEXT    NOT NULL,
    section     TEXT,
    helpful     INTEGER NOT NULL CHECK (helpful IN (0, 1)),
    match_id    TEXT,
    created_at  INTEGER NOT NULL
);
CREATE INDEX feedback_article ON feedback (article);

-- One row per match or search. Never the pasted text: only its fingerprint.
CREATE TABLE queries (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id      TEXT,
    endpoint      TEXT    NOT NULL CHECK (endpoint IN ('match', 'search')),
    lang          TEXT    NOT NULL,
    kind          TEXT    NOT NULL,
    exception     TEXT    NOT NULL,
    fingerprint   TEXT    NOT NULL,
    top_article   TEXT,
    top_score     REAL,
    result_count  INTEGER NOT NULL,
    latency_ms    INTEGER NOT NULL,
    created_at    INTEGER NOT NULL
);
CREATE INDEX queries_fingerprint ON queries (kind, exception, fingerprint);
CREATE INDEX queries_created_at ON queries (created_at);

CREATE TABLE api_keys (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    name          TEXT    NOT NULL UNIQUE,
    key_hash      TEXT    NOT NULL UNIQUE,
    created_at    INTEGER NOT NULL,
    last_used_at  INTEGER,
    revoked_at    INTEGER
);
