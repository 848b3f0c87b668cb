-- Times are Unix milliseconds (UTC) in both backends, so the Rust side reads one type.

CREATE TABLE feedback (
    id          BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    article     TEXT    NOT NULL,
    lang        TEXT    NOT NULL,
    section     TEXT,
    helpful     BOOLEAN NOT NULL,
    match_id    TEXT,
    created_at  BIGINT  NOT NULL
);
CREATE INDEX feedback_article ON feedback (article);

-- One row per match or search. Never the pasted text: only its fingerprint.
CREATE TABLE queries (
    id            BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    match_id      TEXT,
    endpoint      TEXT    NOT NULL CHECK (endpoint IN ('match', 'search')),
    lang          TEXT    NOT NULL,
    kind          TEXT    NOT NULL,
    exception     TEXT    NOT NULL,
    fingerprint   TEXT    NOT NULL,
    top_article   TEXT,
    top_score     DOUBLE PRECISION,
    result_count  BIGINT  NOT NULL,
    latency_ms    BIGINT  NOT NULL,
    created_at    BIGINT  NOT NULL
);
CREATE INDEX queries_fingerprint ON queries (kind, exception, fingerprint);
CREATE INDEX queries_created_at ON queries (created_at);

CREATE TABLE api_keys (
    id            BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name          TEXT    NOT NULL UNIQUE,
    key_hash      TEXT    NOT NULL UNIQUE,
    created_at    BIGINT  NOT NULL,
    last_used_at  BIGINT,
    revoked_at    BIGINT
);
