-- The query log becomes aggregates: one row per error fingerprint, language, answer state and
-- UTC day, updated in place, so storage grows with the variety of errors rather than with the
-- number of requests (issue 15: one row per request was about 0.8 GB per million).
-- `answer` is 'unknown' for queries logged before answers had a state (and for records that
-- carry none); for those the report falls back to the scores.
CREATE TABLE query_stats (
    kind            TEXT    NOT NULL,
    exception       TEXT    NOT NULL,
    fingerprint     TEXT    NOT NULL,
    lang            TEXT    NOT NULL,
    answer          TEXT    NOT NULL CHECK (answer IN ('confident', 'uncertain', 'none', 'unknown')),
    day             INTEGER NOT NULL,  -- days since 1970-01-01, UTC
    queries         INTEGER NOT NULL,
    unscored        INTEGER NOT NULL,  -- of which returned no result
    best_score      REAL,              -- highest top score (NULL: no result at all)
    worst_score     REAL,              -- lowest top score among those with a result
    latency_ms_sum  INTEGER NOT NULL,
    latency_ms_max  INTEGER NOT NULL,
    last_seen       INTEGER NOT NULL,
    -- Day first: deleting old days is a range of the primary key, and no second index
    -- repeats the fingerprint.
    PRIMARY KEY (day, kind, exception, fingerprint, lang, answer)
) WITHOUT ROWID;

-- The raw rows are folded into the aggregates once, then dropped: the report reads only
-- query_stats from now on, and match ids were never joined with votes.
INSERT INTO query_stats (kind, exception, fingerprint, lang, answer, day, queries, unscored,
                         best_score, worst_score, latency_ms_sum, latency_ms_max, last_seen)
SELECT kind, exception, fingerprint, lang, COALESCE(answer, 'unknown'), created_at / 86400000,
       COUNT(*), SUM(CASE WHEN top_score IS NULL THEN 1 ELSE 0 END),
       MAX(top_score), MIN(top_score), SUM(latency_ms), MAX(latency_ms), MAX(created_at)
FROM queries
GROUP BY kind, exception, fingerprint, lang, COALESCE(answer, 'unknown'), created_at / 86400000;

DROP TABLE queries;
