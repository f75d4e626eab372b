#!/usr/bin/env python3
# scripts/bench/duckdb_apps.py — the benchmark's DuckDB contender: one UTC day's per-app totals of a file in any of the five formats, in DuckDB SQL (run with the venv scripts/bench/compare makes).
"""Print one UTC day's per-app totals of a file, as the project computes them, with DuckDB.

Usage: duckdb_apps.py FORMAT FILE DAY     (FORMAT: json, ndjson, csv, aw, timew; DAY: YYYY-MM-DD)

The same rules as python_apps.py (which says them), in SQL: typed `read_json` (the fields whose
type decides whether a row counts read as JSON, the timestamps as text), `read_csv` with every
cell as text, RFC 3339 checked by a regular expression before the cast (DuckDB's cast alone is
laxer: no offset, a space, hour 24), names trimmed of Unicode white space. Rows are first kept
only when their dates (the text's first ten characters, which an offset moves by a day at most)
are near the day: the regular expressions then run on a few percent of them. Output, on one
line: {"APP": microseconds, …}.
"""
import json
import sys

import duckdb

WS = r"[\t\n\x0B\x0C\r \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}]"
RFC3339 = r"^\d{4}-\d{2}-\d{2}[Tt]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$"

MACROS = f"""
CREATE MACRO trim_ws(s) AS regexp_replace(s, '^{WS}+|{WS}+$', '', 'g');
CREATE MACRO app_name(s) AS coalesce(nullif(trim_ws(s), ''), '(unknown)');
-- RFC 3339 (strict) as microseconds since the epoch; NULL when it is not one. Fractions past
-- the microsecond are cut off, as the project cuts them.
CREATE MACRO rfc3339(s) AS CASE WHEN regexp_matches(s, '{RFC3339}')
    THEN epoch_us(TRY_CAST(regexp_replace(upper(s), '(\\.\\d{{6}})\\d+', '\\1') AS TIMESTAMPTZ)) END;
-- A CSV time cell: RFC 3339, else a date and a clock time with an optional offset (none: UTC).
CREATE MACRO cell_parts(t) AS regexp_extract(t,
    '^(\\d{{4}}-\\d{{2}}-\\d{{2}})[Tt ]([01]\\d|2[0-3]):([0-5]\\d)(?::([0-5]\\d)(?:\\.(\\d{{1,9}}))?)?(?: ?(Z|z|UTC|GMT|([+-])([01]\\d|2[0-3])(?::?([0-5]\\d))?))?$',
    ['date', 'hour', 'minute', 'second', 'fraction', 'zone', 'sign', 'oh', 'om']);
CREATE MACRO cell_wall(p) AS CASE WHEN p.date <> ''
    THEN epoch_us(TRY_CAST(p.date || ' ' || p.hour || ':' || p.minute || ':' || coalesce(nullif(p.second, ''), '00') AS TIMESTAMP))
        + coalesce(TRY_CAST(rpad(nullif(p.fraction, ''), 6, '0')[1:6] AS BIGINT), 0)
        - CASE WHEN p.sign = '' THEN 0 ELSE (CASE WHEN p.sign = '-' THEN -1 ELSE 1 END)
            * (p.oh::BIGINT * 3600 + coalesce(TRY_CAST(nullif(p.om, '') AS BIGINT), 0) * 60) * 1000000 END END;
CREATE MACRO cell_time(s) AS coalesce(rfc3339(s), cell_wall(cell_parts(trim_ws(s))));
CREATE MACRO unguard(s) AS CASE WHEN regexp_matches(s, '^''+[=+\\-@\\t\\r]') THEN s[2:] ELSE s END;
-- The date of a timestamp's text as YYYYMMDD (compact or RFC 3339), for a cheap first cut.
CREATE MACRO ymd(s) AS replace(s[1:10], '-', '')[1:8];
CREATE MACRO near(s, e) AS ymd(s) <= getvariable('last') AND (e IS NULL OR ymd(e) >= getvariable('first'));
CREATE MACRO compact(s) AS CASE WHEN regexp_matches(s, '^\\d{{8}}T\\d{{6}}Z$')
    THEN s[1:4] || '-' || s[5:6] || '-' || s[7:8] || 'T' || s[10:11] || ':' || s[12:13] || ':' || s[14:15] || 'Z' ELSE s END;
"""

# Every query yields (app, start, end) in microseconds; the day is cut and summed after.
SESSIONS = """
WITH near_rows AS MATERIALIZED (
    SELECT app_name, category, start_timestamp, end_timestamp
    FROM read_json({path}, format := '{fmt}', maximum_object_size := 1073741824,
                   columns := {{app_name: 'JSON', category: 'JSON', start_timestamp: 'VARCHAR', end_timestamp: 'VARCHAR'}})
    WHERE near(start_timestamp, end_timestamp)
)
SELECT app_name(CASE WHEN json_type(app_name) = 'VARCHAR' THEN app_name ->> '$' END) AS app,
       rfc3339(start_timestamp) AS s, rfc3339(end_timestamp) AS e
FROM near_rows
WHERE coalesce(json_type(app_name), 'NULL') IN ('VARCHAR', 'NULL') AND coalesce(json_type(category), 'NULL') IN ('VARCHAR', 'NULL')
"""

CSV = """
WITH near_rows AS MATERIALIZED (
    SELECT app_name, start_timestamp, end_timestamp
    FROM read_csv({path}, header := true, all_varchar := true, quote := '"', escape := '"')
    WHERE near(trim_ws(start_timestamp), trim_ws(end_timestamp))
)
SELECT app_name(unguard(nullif(app_name, ''))) AS app, cell_time(nullif(start_timestamp, '')) AS s,
       cell_time(nullif(end_timestamp, '')) AS e
FROM near_rows
"""

AW = """
WITH buckets AS (
    SELECT unnest(map_entries(buckets)) AS b
    FROM read_json({path}, format := 'unstructured', maximum_object_size := 4000000000,
                   columns := {{buckets: 'MAP(VARCHAR, STRUCT(type VARCHAR, hostname VARCHAR, events STRUCT("timestamp" VARCHAR, duration JSON, data STRUCT(app JSON, status VARCHAR))[]))'}})
), events AS (
    SELECT b.value.type AS type, coalesce(b.value.hostname, '') AS host, unnest(b.value.events) AS ev FROM buckets
), near_events AS MATERIALIZED (
    SELECT type, host, ev FROM events
    -- A first cut on the date of the start and the duration: the event may reach the day.
    WHERE ev IS NOT NULL AND ymd(ev."timestamp") <= getvariable('last')
      AND epoch(TRY_CAST(ev."timestamp"[1:10] AS DATE)) + coalesce(TRY_CAST(ev.duration AS DOUBLE), 0) + 86400
          >= epoch(strptime(getvariable('first'), '%Y%m%d'))
), spans AS (
    SELECT type, host, ev.data.status AS status,
           CASE WHEN coalesce(json_type(ev.data.app), 'NULL') = 'VARCHAR' THEN ev.data.app ->> '$' END AS app,
           coalesce(json_type(ev.data.app), 'NULL') IN ('VARCHAR', 'NULL') AS app_ok,
           rfc3339(ev."timestamp") AS s,
           CASE WHEN json_type(ev.duration) IN ('UBIGINT', 'BIGINT', 'DOUBLE') THEN ev.duration::DOUBLE END AS d
    FROM near_events
), valid AS (
    SELECT type, host, status, app, app_ok, s, s + round(d * 1e6)::BIGINT AS e
    FROM spans WHERE s IS NOT NULL AND d >= 0 AND d < 1e9 AND isfinite(d)
), afk AS (
    SELECT host, s, e FROM valid WHERE type = 'afkstatus' AND status = 'not-afk' AND e > s
), islands AS (
    SELECT host, min(s) AS s, max(e) AS e FROM (
        SELECT host, s, e, sum(CASE WHEN s > reach THEN 1 ELSE 0 END) OVER (PARTITION BY host ORDER BY s, e) AS island
        FROM (SELECT host, s, e, coalesce(max(e) OVER (PARTITION BY host ORDER BY s, e ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), -1) AS reach FROM afk))
    GROUP BY host, island
), afk_hosts AS (
    SELECT DISTINCT coalesce(b.value.hostname, '') AS host FROM buckets WHERE b.value.type = 'afkstatus'
), window_events AS (
    SELECT app_name(app) AS app, host, s, e FROM valid WHERE type = 'currentwindow' AND app_ok AND e > s
)
SELECT w.app, greatest(w.s, i.s) AS s, least(w.e, i.e) AS e
FROM window_events w JOIN islands i ON w.host = i.host AND i.s < w.e AND i.e > w.s
UNION ALL
SELECT app, s, e FROM window_events WHERE host NOT IN (SELECT host FROM afk_hosts)
"""

TIMEW = """
WITH intervals AS MATERIALIZED (
    SELECT start, "end", tags FROM read_json({path}, format := 'array', maximum_object_size := 1073741824,
                                                columns := {{start: 'JSON', "end": 'JSON', tags: 'JSON'}})
    WHERE json_type(start) = 'VARCHAR' AND near(start ->> '$', CASE WHEN json_type("end") = 'VARCHAR' THEN "end" ->> '$' END)
), typed AS (
    SELECT rfc3339(compact(CASE WHEN json_type(start) = 'VARCHAR' THEN start ->> '$' END)) AS s,
           "end" IS NULL OR json_type("end") = 'NULL' AS running,
           rfc3339(compact(CASE WHEN json_type("end") = 'VARCHAR' THEN "end" ->> '$' END)) AS e,
           CASE WHEN tags IS NULL OR json_type(tags) = 'NULL' THEN []::VARCHAR[]
                WHEN json_type(tags) = 'ARRAY' AND list_bool_and(list_transform(json_extract(tags, '$[*]'), lambda x: json_type(x) = 'VARCHAR'))
                     IS NOT false THEN list_transform(json_extract_string(tags, '$[*]'), lambda x: trim_ws(x)) END AS names
    FROM intervals
)
SELECT app_name(array_to_string(list_sort(list_distinct(list_filter(names, lambda x: x <> ''))), ', ')) AS app,
       s, CASE WHEN running THEN epoch_us(now()) ELSE e END AS e
FROM typed WHERE names IS NOT NULL AND s IS NOT NULL
"""


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("json", "ndjson", "csv", "aw", "timew"):
        sys.exit("usage: duckdb_apps.py json|ndjson|csv|aw|timew FILE DAY")
    fmt, path, day = sys.argv[1:]
    literal = "'" + path.replace("'", "''") + "'"
    query = {
        "json": SESSIONS.format(path=literal, fmt="array"), "ndjson": SESSIONS.format(path=literal, fmt="newline_delimited"),
        "csv": CSV.format(path=literal), "aw": AW.format(path=literal), "timew": TIMEW.format(path=literal),
    }[fmt]
    con = duckdb.connect()
    # The dates a session overlapping the day may have in its text: an offset moves a date by a
    # day at most.
    d = __import__("datetime").date.fromisoformat(day)
    one = __import__("datetime").timedelta(days=1)
    for name, value in (("first", d - one), ("last", d + one)):
        con.execute("SET VARIABLE %s = '%s'" % (name, value.strftime("%Y%m%d")))
    con.execute(MACROS)
    totals = con.execute(f"""
        WITH rows AS ({query}), day AS (SELECT epoch_us(DATE '{day}'::TIMESTAMP) AS d0)
        SELECT app, sum(least(e, d0 + 86400000000) - greatest(s, d0))::BIGINT
        FROM rows, day
        WHERE s IS NOT NULL AND e IS NOT NULL AND e > s AND s < d0 + 86400000000 AND e > d0
        GROUP BY app""").fetchall()
    print(json.dumps(dict(sorted(totals)), ensure_ascii=False, separators=(",", ":")))


if __name__ == "__main__":
    main()
