-- The query log becomes daily sums: one row per error fingerprint, language, answer state and
-- UTC day, updated in place, so storage grows with the variety of errors rather than with the
-- number of requests (issue 15: one row per request was about 0.8 GB per million). Each
-- fingerprint's text is stored once, in `fingerprints`; the sums refer to it by id.

CREATE TABLE fingerprints (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT    NOT NULL,
    exception   TEXT    NOT NULL,
    message     TEXT    NOT NULL,
    UNIQUE (kind, exception, message)
);

-- `answer` is 'unknown' for queries logged before answers had a state (and for records that
-- carry none); for those the report falls back to the scores. No foreign key: fingerprints no
-- longer referenced are deleted with the old days, in bulk.
CREATE TABLE query_stats (
    day             INTEGER NOT NULL,  -- days since 1970-01-01, UTC
    fingerprint_id  INTEGER NOT NULL,
    lang            TEXT    NOT NULL,
    answer          TEXT    NOT NULL CHECK (answer IN ('confident', 'uncertain', 'none', 'unknown')),
    queries         INTEGER NOT NULL,
    unscored        INTEGER NOT NULL,  -- of which returned no result
    best_score      REAL,              -- highest top score (NULL: no result at all)
    worst_score     REAL,              -- lowest top score among those with a result
    latency_ms_sum  INTEGER NOT NULL,
    latency_ms_max  INTEGER NOT NULL,
    last_seen       INTEGER NOT NULL,
    -- Day first: deleting old days is a range of the primary key.
    PRIMARY KEY (day, fingerprint_id, lang, answer)
) WITHOUT ROWID;

-- The raw rows are folded into the sums once, then dropped: the report reads only the sums
-- from now on, and match ids were never joined with votes.
INSERT INTO fingerprints (kind, exception, message)
SELECT DISTINCT kind, exception, fingerprint FROM queries;

INSERT INTO query_stats (day, fingerprint_id, lang, answer, queries, unscored, best_score,
                         worst_score, latency_ms_sum, latency_ms_max, last_seen)
SELECT q.created_at / 86400000, f.id, q.lang, COALESCE(q.answer, 'unknown'),
       COUNT(*), SUM(CASE WHEN q.top_score IS NULL THEN 1 ELSE 0 END),
       MAX(q.top_score), MIN(q.top_score), SUM(q.latency_ms), MAX(q.latency_ms),
       MAX(q.created_at)
FROM queries q
JOIN fingerprints f
  ON f.kind = q.kind AND f.exception = q.exception AND f.message = q.fingerprint
GROUP BY q.created_at / 86400000, f.id, q.lang, COALESCE(q.answer, 'unknown');

DROP TABLE queries;
