#!/usr/bin/env python3
# scripts/bench/python_apps.py — the benchmark's Python contender: one UTC day's per-app totals of a file in any of the five formats, standard library only.
"""Print one UTC day's per-app totals of a file, as the project's
`usage-shell FILE --day DAY --tz UTC --format json -c apps` computes them.

Usage: python_apps.py FORMAT FILE DAY     (FORMAT: json, ndjson, csv, aw, timew; DAY: YYYY-MM-DD)

Plain CPython as a user would write it (json, csv, datetime; no C extension, no shim), with the
project's rules (docs/DATA.md):
  * sessions JSON and NDJSON: a row counts when both timestamps are valid RFC 3339 strings,
    end > start, and app_name and category are strings or null;
  * CSV: cells are text (empty is null; a `'` guarding a formula is taken off); times are RFC 3339,
    or a date and a clock time with an optional offset (`2026-02-23 10:00:00`, `… +0100`), those
    without one read as UTC (the day is cut in UTC, and `--tz UTC` reads them so);
  * ActivityWatch export: `currentwindow` events (timestamp + duration), only their parts inside
    the same host's `not-afk` periods when the host has an `afkstatus` bucket;
  * Timewarrior export: the activity is the interval's tag set (trimmed, unique, sorted by
    bytes, joined by ", "), an interval without an end runs to now, tags that are not all
    strings skip it;
  * names trimmed of Unicode white space, null or blank app -> "(unknown)"; sessions clipped to
    [DAY, DAY + 1) UTC in whole microseconds.
Output, on one line: {"APP": microseconds, …} for every app with time that day.
"""
import csv
import json
import math
import re
import sys
import time
from datetime import date, datetime, timedelta, timezone

WHITE_SPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
               "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
MICROSECOND = timedelta(microseconds=1)
DIGITS = "0123456789"


def rfc3339(value):
    """Microseconds since the epoch of an RFC 3339 timestamp, or None when it is not valid."""
    if type(value) is not str or len(value) < 20:
        return None
    if value[4] != "-" or value[7] != "-" or value[10] not in "Tt" or value[13] != ":" or value[16] != ":":
        return None
    if not (value[:4].isdigit() and value[5:7].isdigit() and value[8:10].isdigit() and value[11:13].isdigit()
            and value[14:16].isdigit() and value[17:19].isdigit() and value[:19].isascii()):
        return None
    i, n = 19, len(value)
    fraction = 0
    if value[i] == ".":
        i += 1
        while i < n and value[i] in DIGITS:
            i += 1
        digits = value[20:i]
        if not 1 <= len(digits) <= 9:
            return None
        fraction = int((digits + "000000")[:6])
    zone = value[i:]
    if zone in ("Z", "z"):
        offset = 0
    elif len(zone) == 6 and zone[0] in "+-" and zone[3] == ":" and zone[1:3].isdigit() and zone[4:].isdigit() \
            and zone[1:].isascii() and int(zone[1:3]) <= 23 and int(zone[4:]) <= 59:
        offset = (int(zone[1:3]) * 3600 + int(zone[4:]) * 60) * (-1 if zone[0] == "-" else 1)
    else:
        return None
    try:
        wall = datetime(int(value[:4]), int(value[5:7]), int(value[8:10]), int(value[11:13]), int(value[14:16]),
                        int(value[17:19]), tzinfo=timezone.utc)
    except ValueError:
        return None
    return ((wall - EPOCH) // MICROSECOND) - offset * 1_000_000 + fraction


CELL_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(.*)", re.S | re.A)


def cell_time(text):
    """A CSV time cell (CellTimestamp): RFC 3339, else a date and clock time with an optional
    offset; without one, the time is UTC. None when it is neither."""
    t = rfc3339(text)
    if t is not None:
        return t
    m = CELL_TIME.fullmatch(text.strip(WHITE_SPACE))
    if not m:
        return None
    year, month, day, hour, minute, second, fraction, rest = m.groups()
    if int(hour) > 23 or int(minute) > 59 or (second is not None and int(second) > 59):
        return None
    try:
        wall = datetime(int(year), int(month), int(day), int(hour), int(minute), int(second or 0), tzinfo=timezone.utc)
    except ValueError:
        return None
    micros = (wall - EPOCH) // MICROSECOND + (int((fraction + "000000")[:6]) if fraction else 0)
    if rest == "":
        return micros
    if rest.startswith(" "):
        rest = rest[1:]
    if rest in ("Z", "z", "UTC", "GMT"):
        return micros
    om = re.fullmatch(r"([+-])(\d{2})(?::?(\d{2}))?", rest, re.A)
    if not om or (om.group(3) is None and ":" in rest):
        return None
    hours, minutes = int(om.group(2)), int(om.group(3) or 0)
    if hours > 23 or minutes > 59:
        return None
    return micros - (hours * 3600 + minutes * 60) * (-1 if om.group(1) == "-" else 1) * 1_000_000


def app_name(raw):
    name = (raw or "").strip(WHITE_SPACE)
    return name or "(unknown)"


class Day:
    def __init__(self, text):
        d = date.fromisoformat(text)
        self.start = (datetime(d.year, d.month, d.day, tzinfo=timezone.utc) - EPOCH) // MICROSECOND
        self.end = self.start + 86_400_000_000
        self.totals = {}

    def add(self, app, start, end):
        low = max(start, self.start)
        high = min(end, self.end)
        if high > low:
            name = app_name(app)
            self.totals[name] = self.totals.get(name, 0) + (high - low)


def sessions_rows(rows, day):
    for row in rows:
        if type(row) is not dict:
            continue
        start = rfc3339(row.get("start_timestamp"))
        end = rfc3339(row.get("end_timestamp"))
        app, category = row.get("app_name"), row.get("category")
        if start is None or end is None or end <= start:
            continue
        if not (app is None or type(app) is str) or not (category is None or type(category) is str):
            continue
        day.add(app, start, end)


def read_json(path, day):
    with open(path, encoding="utf-8", errors="replace") as f:
        sessions_rows(json.load(f), day)


def read_ndjson(path, day):
    with open(path, encoding="utf-8", errors="replace") as f:
        sessions_rows((json.loads(line) for line in f if line.strip()), day)


def unguard(cell):
    """A CSV cell without the spreadsheet guard (a `'` before `=`, `+`, `-`, `@`, TAB, CR)."""
    if cell.startswith("'"):
        rest = cell[1:].lstrip("'")
        if rest[:1] in ("=", "+", "-", "@", "\t", "\r") and rest:
            return cell[1:]
    return cell


def read_csv(path, day):
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        at = {name: k for k, name in enumerate(header)}
        a, s, e = at["app_name"], at["start_timestamp"], at["end_timestamp"]
        for row in rows:
            if len(row) <= max(s, e) or not row[s] or not row[e]:
                continue
            start, end = cell_time(row[s]), cell_time(row[e])
            if start is None or end is None or end <= start:
                continue
            day.add(unguard(row[a]) if a < len(row) and row[a] else None, start, end)


def is_number(v):
    return type(v) in (int, float) and math.isfinite(v)


def event_span(event):
    """An ActivityWatch event's [start, end), or None when it is not a valid one."""
    if type(event) is not dict:
        return None
    start = rfc3339(event.get("timestamp"))
    duration = event.get("duration")
    if start is None or not is_number(duration) or duration < 0 or duration >= 1e9:
        return None
    v = duration * 1e6
    whole = math.floor(v)
    return start, start + (whole + 1 if v - whole >= 0.5 else whole)


def read_aw(path, day):
    with open(path, encoding="utf-8", errors="replace") as f:
        buckets = json.load(f)["buckets"]
    periods = {}
    for bucket in buckets.values():
        if bucket.get("type") != "afkstatus":
            continue
        host = bucket.get("hostname") or ""
        spans = periods.setdefault(host, [])
        for event in bucket.get("events") or []:
            span = event_span(event)
            data = event.get("data") if type(event) is dict else None
            if span and span[1] > span[0] and type(data) is dict and data.get("status") == "not-afk":
                spans.append(span)
    unions = {}
    for host, spans in periods.items():
        merged = []
        for s, e in sorted(spans):
            if merged and s <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], e)
            else:
                merged.append([s, e])
        unions[host] = merged
    for bucket in buckets.values():
        if bucket.get("type") != "currentwindow":
            continue
        active = unions.get(bucket.get("hostname") or "")
        for event in bucket.get("events") or []:
            span = event_span(event)
            if not span or span[1] <= span[0]:
                continue
            data = event.get("data")
            app = data.get("app") if type(data) is dict else None
            if not (app is None or type(app) is str):
                continue
            if active is None:
                day.add(app, *span)
                continue
            for s, e in active:  # few periods a day: a plain scan is what a user writes
                if s >= span[1]:
                    break
                if e > span[0]:
                    day.add(app, max(s, span[0]), min(e, span[1]))


def timew_time(value):
    """A Timewarrior time: the compact `20260223T093500Z`, else RFC 3339."""
    if type(value) is str and len(value) == 16 and value[8] == "T" and value[15] == "Z" \
            and (value[:8] + value[9:15]).isdigit() and value.isascii():
        value = "%s-%s-%sT%s:%s:%sZ" % (value[:4], value[4:6], value[6:8], value[9:11], value[11:13], value[13:15])
    return rfc3339(value)


def read_timew(path, day):
    now = int(time.time() * 1_000_000)
    with open(path, encoding="utf-8", errors="replace") as f:
        intervals = json.load(f)
    for interval in intervals:
        if type(interval) is not dict:
            continue
        tags = interval.get("tags")
        if tags is not None and (type(tags) is not list or any(type(t) is not str for t in tags)):
            continue
        kept = sorted({t.strip(WHITE_SPACE) for t in tags or []} - {""}, key=lambda t: t.encode())
        app = ", ".join(kept) or None
        start = timew_time(interval.get("start"))
        end = interval.get("end")
        if end is None and start is not None:  # still running: up to now
            day.add(app, start, now) if now > start else None
            continue
        end = timew_time(end)
        if start is None or end is None or end <= start:
            continue
        day.add(app, start, end)


READERS = {"json": read_json, "ndjson": read_ndjson, "csv": read_csv, "aw": read_aw, "timew": read_timew}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in READERS:
        sys.exit("usage: python_apps.py json|ndjson|csv|aw|timew FILE DAY")
    day = Day(sys.argv[3])
    READERS[sys.argv[1]](sys.argv[2], day)
    print(json.dumps(day.totals, ensure_ascii=False, separators=(",", ":"), sort_keys=True))


if __name__ == "__main__":
    main()
