#!/usr/bin/env python3
"""Generate the end-to-end oracle fixtures (deterministic, stdlib only).

Run from anywhere:

    python3 scripts/gen_fixtures.py          # (re)write both fixtures
    python3 scripts/gen_fixtures.py --check  # exit 1 if either fixture is stale

Outputs (in ``Tests/EndToEndTests/Fixtures/``)
----------------------------------------------
* ``oracle-dirty.json`` -- about 300 rows of one person's sessions over
  2026-02-21 .. 2026-02-26 (around the clock, so that every zone's day is
  busy), with deliberate dirt:

  - every skip reason several times, including rows that qualify for two
    reasons (the first one in the order missing_timestamp, bad_timestamp,
    bad_field_type, end_not_after_start must win) and not_an_object values
    (number, string, null, array, boolean);
  - null, empty, blank and padded app names (" Safari ", "\\tSlack ", "\\n ");
  - categories "others", "OTHER", " Others ", "", "  ", null and a missing key;
  - overlapping sessions (background music, an exact duplicate row);
  - sessions crossing midnight in UTC, America/Los_Angeles (08:00Z) and
    Asia/Kolkata (18:30Z), sessions ending / starting exactly on a midnight,
    one stuck session longer than a day;
  - timestamps with offsets Z, +00:00, +05:30, -08:00, +01:00, -04:00, +09:00
    and 0 to 9 fraction digits;
  - non-ASCII names ("微信", "Café", "🎵 Tunes", "Ärzte");
  - one app used under two categories on the same day, and one app whose two
    categories tie (alphabetically first must win); three apps with equal
    seconds (name order by Unicode scalars: "Zebra Notes" < "alarm" < "Ärzte");
  - a number as session_id, a missing session_id, an unknown nested field.

* ``oracle-dst.ndjson`` and ``oracle-dst.csv`` -- the same rows as NDJSON and as CSV
  (converted here, independently of the program's own export), to load to the same reports.

* ``oracle-dst.json`` -- sessions around America/New_York's DST changes on
  2026-03-08 (23-hour day) and 2026-11-01 (25-hour day): straddling 02:00 local
  on both days, across local midnight on both sides, plus ordinary daytime
  sessions on 03-07 .. 03-09 and 10-31 .. 11-02.

Determinism: ``random.Random(SEED)`` with only ``random()``, ``randint`` and
``choice``; instants are integer nanoseconds since the Unix epoch, formatted by
hand (no dependence on the machine's zone or locale).
"""

import csv
import io
import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone

SEED = 20260223
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
FIXTURES = os.path.join(ROOT, "Tests", "EndToEndTests", "Fixtures")

NS = 1_000_000_000
S = NS
M = 60 * S
H = 3600 * S
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def instant(y, mo, d, h=0, mi=0, s=0, offset_minutes=0):
    """Integer nanoseconds of the given wall time at a fixed offset."""
    dt = datetime(y, mo, d, h, mi, s, tzinfo=timezone(timedelta(minutes=offset_minutes)))
    return int((dt - EPOCH).total_seconds()) * NS


def ts(t_ns, offset_minutes=0, digits=0, zulu=True):
    """RFC 3339 text of instant t_ns at the given offset with `digits` fraction digits.

    The instant is truncated to what `digits` can express.  With a zero offset,
    `zulu` picks "Z" over "+00:00".
    """
    secs, frac = divmod(t_ns, NS)
    local = EPOCH + timedelta(seconds=secs, minutes=offset_minutes)
    text = "%04d-%02d-%02dT%02d:%02d:%02d" % (
        local.year, local.month, local.day, local.hour, local.minute, local.second)
    if digits:
        text += "." + ("%09d" % frac)[:digits]
    if offset_minutes == 0 and zulu:
        return text + "Z"
    sign = "+" if offset_minutes >= 0 else "-"
    a = abs(offset_minutes)
    return text + "%s%02d:%02d" % (sign, a // 60, a % 60)


def quantize(t_ns, digits):
    step = 10 ** (9 - digits)
    return t_ns - t_ns % step


def row(sid, app, cat, start, end, **extra):
    r = {"session_id": sid, "app_name": app, "category": cat,
         "start_timestamp": start, "end_timestamp": end}
    r.update(extra)
    return r


# --------------------------------------------------------------------------- dirty

APPS = [
    # name, category, (min, max) seconds, weight
    ("Safari", "Productivity", (120, 1500), 5),
    ("Slack", "Productivity", (120, 1500), 5),
    ("Mail", "Productivity", (90, 900), 4),
    ("Notes", "Productivity", (120, 900), 2),
    ("Messages", "Social", (60, 720), 5),
    ("Instagram", "Social", (180, 1500), 4),
    ("微信", "Social", (60, 900), 3),
    ("WhatsApp", None, (60, 900), 3),
    ("YouTube", "Entertainment", (600, 3000), 3),
    ("Netflix", "Entertainment", (1800, 5400), 1),
    ("Café", "Food & Drink", (60, 600), 1),
    ("Maps", "Navigation", (300, 1800), 1),
    ("Settings", "System", (45, 180), 1),
    ("Duolingo", "Education", (240, 900), 1),
    ("Reddit", "others", (120, 1200), 2),
    ("Weather", "OTHER", (45, 180), 1),
]

OFFSETS = [0, 0, 0, 330, -480, 60, -240, 540]


def pick_app(rng):
    total = sum(a[3] for a in APPS)
    x = rng.random() * total
    for a in APPS:
        x -= a[3]
        if x < 0:
            return a
    return APPS[-1]


def render(rng, t_ns):
    """A random rendering of t_ns: random offset, random 0..9 fraction digits."""
    digits = rng.choice([0, 0, 0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9])
    off = rng.choice(OFFSETS)
    zulu = rng.random() < 0.6
    return ts(quantize(t_ns, digits), off, digits, zulu)


def dirty_rows():
    rng = random.Random(SEED)
    valid = []  # (start_ns, row)
    n = 0

    def sid():
        nonlocal n
        n += 1
        return "D-%04d" % n

    # Foreground sessions around the clock (a phone shared across time zones:
    # every UTC hour of 2026-02-21 .. 2026-02-26 gets some use), not
    # overlapping each other, with gaps.
    t = instant(2026, 2, 21, 0, 7, 13) + 123_456_789
    end_all = instant(2026, 2, 27)
    while True:
        t += rng.randint(2 * 60, 55 * 60) * S + rng.randint(0, NS - 1)
        name, cat, (lo, hi), _ = pick_app(rng)
        dur = rng.randint(lo, hi) * S + rng.randint(0, NS - 1)
        if t + dur >= end_all:
            break
        start = render(rng, t)
        end = render(rng, t + dur)
        valid.append((t, row(sid(), name, cat, start, end)))
        t += dur

    # Background music overlapping the foreground.
    for day in range(21, 27):
        for _ in range(2):
            t = instant(2026, 2, day, rng.randint(0, 22), rng.randint(0, 59), rng.randint(0, 59))
            dur = rng.randint(20 * 60, 75 * 60) * S + rng.randint(0, 999) * 1_000_000
            valid.append((t, row(sid(), "🎵 Tunes", "Music", render(rng, t), render(rng, t + dur))))

    def add(app, cat, t0, t1, o0=0, o1=0, d0=0, d1=0, **extra):
        valid.append((t0, row(sid(), app, cat, ts(t0, o0, d0), ts(t1, o1, d1), **extra)))

    # Crossing UTC midnight (start and end written in other offsets).
    add("Netflix", "Entertainment", instant(2026, 2, 22, 23, 20, 5), instant(2026, 2, 23, 0, 41, 0), 330, -480)
    add("YouTube", "Entertainment", instant(2026, 2, 23, 23, 41, 7) + 250_000_000, instant(2026, 2, 24, 0, 18, 33), 330, -480, 2, 0)
    add("Slack", "Productivity", instant(2026, 2, 24, 23, 50, 0), instant(2026, 2, 25, 0, 5, 0) + 123_456_789, 0, 0, 0, 9)
    # Crossing Los Angeles midnight (08:00Z).
    add("Instagram", "Social", instant(2026, 2, 23, 7, 48, 0), instant(2026, 2, 23, 8, 12, 30), -480, -480)
    add("Messages", "Social", instant(2026, 2, 24, 7, 55, 1) + 100_000_000, instant(2026, 2, 24, 8, 3, 0), -480, 0, 1, 0)
    add("Maps", "Navigation", instant(2026, 2, 25, 7, 30, 0), instant(2026, 2, 25, 8, 30, 0), 60, 330)
    # Crossing Kolkata midnight (18:30Z).
    add("微信", "Social", instant(2026, 2, 22, 18, 10, 0), instant(2026, 2, 22, 18, 55, 0), 330, 330)
    add("微信", "Social", instant(2026, 2, 23, 18, 25, 0) + 999_999_000, instant(2026, 2, 23, 18, 44, 0), 330, 0, 6, 0)
    add("Café", "Food & Drink", instant(2026, 2, 24, 18, 0, 0), instant(2026, 2, 24, 19, 0, 0) + 5_000_000, 0, 330, 0, 3)
    # Exactly on midnights (half-open day: end at midnight adds nothing to the next day).
    add("Notes", "Productivity", instant(2026, 2, 23, 23, 30), instant(2026, 2, 24), 0, 0)
    add("Notes", "Productivity", instant(2026, 2, 24), instant(2026, 2, 24, 0, 20), 330, 0)
    add("Mail", "Productivity", instant(2026, 2, 24, 7, 40), instant(2026, 2, 24, 0, 0, 0, -480), 0, -480)
    add("Mail", "Productivity", instant(2026, 2, 23, 18, 30), instant(2026, 2, 23, 18, 45), 330, 330)
    # A stuck session longer than a day: covers all of UTC 2026-02-23.
    add("Background Sync", "Utilities", instant(2026, 2, 22, 23, 0), instant(2026, 2, 24, 0, 30), -480, 330)
    # Overlap: exact duplicate row (same id), plus a second device's session.
    dup = row("D-DUP", "Messages", "Social", "2026-02-23T12:00:00+05:30", "2026-02-23T12:30:00.5+05:30")
    valid.append((instant(2026, 2, 23, 6, 30), dup))
    valid.append((instant(2026, 2, 23, 6, 30), dict(dup)))
    add("Safari", "Productivity", instant(2026, 2, 24, 10, 0), instant(2026, 2, 24, 11, 0), 60, 60)
    add("Safari", "Productivity", instant(2026, 2, 24, 10, 30), instant(2026, 2, 24, 11, 30), 0, 0)

    # Same app under two categories on the same day (inside every zone's 23rd
    # and 24th: 08:00Z .. 18:30Z).
    add("YouTube", "Education", instant(2026, 2, 23, 9, 0), instant(2026, 2, 23, 9, 50), 0, 0)
    add("YouTube", " Education ", instant(2026, 2, 23, 14, 0), instant(2026, 2, 23, 14, 25), -480, -480)
    add("YouTube", "Education", instant(2026, 2, 24, 15, 0), instant(2026, 2, 24, 17, 30), 330, 330)
    # An app whose two categories tie exactly: "Productivity" < "Utilities".
    add("Tie App", "Utilities", instant(2026, 2, 24, 9, 0), instant(2026, 2, 24, 9, 5), 0, 0)
    add("Tie App", "Productivity", instant(2026, 2, 24, 9, 10), instant(2026, 2, 24, 9, 15), 540, 540)
    add("Tie App", "Utilities", instant(2026, 2, 23, 9, 0), instant(2026, 2, 23, 9, 5), 0, 0)
    add("Tie App", "Productivity", instant(2026, 2, 23, 9, 10), instant(2026, 2, 23, 9, 15), 540, 540)
    # Three apps with equal seconds: order by Unicode scalars.
    for day in (23, 24):
        add("Ärzte", "Health", instant(2026, 2, day, 12, 0), instant(2026, 2, day, 12, 7), 60, 60)
        add("alarm", "Utilities", instant(2026, 2, day, 12, 10), instant(2026, 2, day, 12, 17), 0, 0)
        add("Zebra Notes", "Productivity", instant(2026, 2, day, 12, 20), instant(2026, 2, day, 12, 27), -240, -240)

    # Names and categories to normalise.
    add(None, "Social", instant(2026, 2, 23, 10, 0), instant(2026, 2, 23, 10, 3), 0, 0)
    add("", "Social", instant(2026, 2, 23, 10, 5), instant(2026, 2, 23, 10, 6), 0, 0)
    add("   ", None, instant(2026, 2, 24, 10, 5), instant(2026, 2, 24, 10, 9), 0, 0)
    add("\n ", "Utilities", instant(2026, 2, 24, 13, 0), instant(2026, 2, 24, 13, 2), 0, 0)
    add(" Safari ", "Productivity", instant(2026, 2, 23, 11, 0), instant(2026, 2, 23, 11, 20), 330, 330, 3, 3)
    add("\tSlack ", "Productivity", instant(2026, 2, 24, 11, 40), instant(2026, 2, 24, 11, 55), 0, 0)
    add("Reddit", " Others ", instant(2026, 2, 23, 13, 0), instant(2026, 2, 23, 13, 30), 0, 0)
    add("Reddit", "", instant(2026, 2, 24, 13, 5), instant(2026, 2, 24, 13, 30), 0, 0)
    add("Weather", "  ", instant(2026, 2, 23, 16, 0), instant(2026, 2, 23, 16, 2), 0, 0)
    add("Weather", "Other", instant(2026, 2, 24, 16, 0), instant(2026, 2, 24, 16, 2), 0, 0)
    # Type oddities that stay valid: number id, no id, unknown nested field, no category key.
    add("Messages", "Social", instant(2026, 2, 23, 17, 0), instant(2026, 2, 23, 17, 4), 0, 0)
    valid[-1][1]["session_id"] = 12345
    add("Messages", "Social", instant(2026, 2, 24, 17, 0), instant(2026, 2, 24, 17, 4), 0, 0)
    del valid[-1][1]["session_id"]
    add("Instagram", "Social", instant(2026, 2, 23, 15, 0), instant(2026, 2, 23, 15, 9), 0, 0,
        meta={"device": {"id": 7, "tags": ["phone", None], "battery": 0.5}, "foreground": True})
    add("Camera", None, instant(2026, 2, 24, 14, 0), instant(2026, 2, 24, 14, 6), 0, 0)
    del valid[-1][1]["category"]

    valid.sort(key=lambda x: x[0])
    rows = [r for _, r in valid]

    # Rows that are skipped, each with its expected reason (documented only).
    bad = [
        # missing_timestamp
        row("X-01", "Safari", "Productivity", None, "2026-02-23T10:00:00Z"),
        row("X-02", "Safari", "Productivity", "2026-02-23T10:00:00Z", None),
        {"session_id": "X-03", "app_name": "Mail", "category": "Productivity", "end_timestamp": "2026-02-24T10:00:00Z"},
        row("X-04", 42, "Social", None, None),                         # also bad_field_type
        row("X-05", "Mail", None, None, "not a time"),                 # also bad_timestamp
        # bad_timestamp
        row("X-06", "Safari", "Productivity", "2026-02-23T10:00:00", "2026-02-23T10:30:00Z"),
        row("X-07", "Safari", "Productivity", "2026-02-30T10:00:00Z", "2026-03-01T10:30:00Z"),
        row("X-08", "Safari", "Productivity", "2026-02-23T10:00:00Z", "2026-02-29T10:30:00Z"),
        row("X-09", "Safari", "Productivity", 1771840800, "2026-02-23T10:30:00Z"),
        row("X-10", "Safari", "Productivity", "2026-02-23 10:00:00Z", "2026-02-23T10:30:00Z"),
        row("X-11", "Safari", "Productivity", "2026-02-23T10:00:00.1234567890Z", "2026-02-23T10:30:00Z"),
        row("X-12", "Safari", "Productivity", "2026-02-23T10:00:00.Z", "2026-02-23T10:30:00Z"),
        row("X-13", "Safari", "Productivity", "2026-02-23T24:00:00Z", "2026-02-24T01:30:00Z"),
        row("X-14", "Safari", "Productivity", "2026-02-23T10:00:00+0530", "2026-02-23T10:30:00+05:30"),
        row("X-15", "Safari", "Productivity", "2026-02-23T10:00:00Z", True),
        row("X-16", "Safari", "Productivity", {"t": "2026-02-23T10:00:00Z"}, "2026-02-23T10:30:00Z"),
        row("X-17", "Safari", "Productivity", "2026-02-23T10:60:00Z", "2026-02-23T11:30:00Z"),
        row("X-18", ["x"], "Social", "2026-13-01T00:00:00Z", "2026-02-23T11:30:00Z"),  # also bad_field_type
        row("X-19", "Safari", "Productivity", "", "2026-02-23T11:30:00Z"),
        # bad_field_type
        row("X-20", 42, "Social", "2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z"),
        row("X-21", "Safari", True, "2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z"),
        row("X-22", ["Safari"], "Productivity", "2026-02-24T10:00:00Z", "2026-02-24T10:30:00Z"),
        row("X-23", "Safari", {"name": "Productivity"}, "2026-02-24T10:00:00Z", "2026-02-24T10:30:00Z"),
        row("X-24", 7.5, "Social", "2026-02-24T10:30:00Z", "2026-02-24T10:00:00Z"),  # also end_not_after_start
        # end_not_after_start
        row("X-25", "Mail", "Productivity", "2026-02-23T09:00:00Z", "2026-02-23T08:45:00Z"),
        row("X-26", "Mail", "Productivity", "2026-02-23T10:00:00Z", "2026-02-23T15:30:00+05:30"),
        row("X-27", "Mail", "Productivity", "2026-02-24T10:00:00.5Z", "2026-02-24T10:00:00.500Z"),
        row("X-28", "Mail", "Productivity", "2026-02-24T10:00:00.000001Z", "2026-02-24T10:00:00Z"),
        # not_an_object
        42, "2026-02-23T10:00:00Z", None, ["Safari", "2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z"], True,
    ]
    for b in bad:
        rows.insert(rng.randint(0, len(rows)), b)
    return rows


# --------------------------------------------------------------------------- DST

def dst_rows():
    rng = random.Random(SEED + 1)
    rows = []
    n = 0

    def add(app, cat, start, end):
        nonlocal n
        n += 1
        rows.append(row("N-%03d" % n, app, cat, start, end))

    # Ordinary daytime use on each day (New York local 07:00 .. 22:00).
    for (y, mo, d, off) in [(2026, 3, 7, -300), (2026, 3, 8, -240), (2026, 3, 9, -240),
                            (2026, 10, 31, -240), (2026, 11, 1, -300), (2026, 11, 2, -300)]:
        t = instant(y, mo, d, 7, 0, 0, off)
        stop = instant(y, mo, d, 22, 0, 0, off)
        while True:
            t += rng.randint(10 * 60, 90 * 60) * S
            name, cat, (lo, hi), _ = pick_app(rng)
            dur = rng.randint(lo, min(hi, 2400)) * S
            if t + dur > stop:
                break
            digits = rng.choice([0, 0, 3, 6])
            zone = rng.choice([off, off, 0])
            add(name, cat, ts(t, zone, digits), ts(t + dur, off, 0))
            t += dur

    # Spring forward: 2026-03-08 02:00 EST -> 03:00 EDT (07:00Z).
    add("Netflix", "Entertainment", "2026-03-07T23:30:00-05:00", "2026-03-08T00:45:00-05:00")   # across local midnight
    add("Safari", "Productivity", "2026-03-08T01:45:00-05:00", "2026-03-08T03:15:00-04:00")    # 30 min across the gap
    add("🎵 Tunes", "Music", "2026-03-08T06:30:00Z", "2026-03-08T08:10:00.250Z")               # 01:30 EST .. 04:10 EDT
    add("Slack", "Productivity", "2026-03-08T03:00:00-04:00", "2026-03-08T03:20:00-04:00")     # first minutes of hour 3
    add("YouTube", "Entertainment", "2026-03-08T23:40:00-04:00", "2026-03-09T00:30:00-04:00")  # across local midnight
    add("Messages", "Social", "2026-03-09T03:50:00Z", "2026-03-09T04:10:00Z")                  # same, in UTC
    add("Maps", "Navigation", "2026-03-08T04:55:00Z", "2026-03-08T05:05:00Z")                  # across UTC 00:00 EST
    # Fall back: 2026-11-01 02:00 EDT -> 01:00 EST (06:00Z).
    add("Netflix", "Entertainment", "2026-10-31T23:20:00-04:00", "2026-11-01T00:40:00-04:00")  # across local midnight
    add("Safari", "Productivity", "2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00")    # one hour, both 01:30s
    add("🎵 Tunes", "Music", "2026-11-01T00:50:00-04:00", "2026-11-01T02:10:00.5-05:00")       # 04:50Z .. 07:10:00.5Z
    add("Slack", "Productivity", "2026-11-01T01:05:00-05:00", "2026-11-01T01:25:00-05:00")     # second hour 1 only
    add("微信", "Social", "2026-11-01T01:05:00-04:00", "2026-11-01T01:25:00-04:00")             # first hour 1 only
    add("YouTube", "Entertainment", "2026-11-01T23:30:00-05:00", "2026-11-02T01:00:00-05:00")  # across local midnight
    add(None, None, "2026-11-01T05:59:30Z", "2026-11-01T06:00:30Z")                            # across the repeated hour
    # A little dirt.
    # An offset out of range: no reader accepts it (a time without an offset would be read as
    # local time by the CSV reader, so it is no longer dirt every format shares).
    rows.append(row("N-BAD1", "Safari", "Productivity", "2026-03-08T02:30:00+24:00", "2026-03-08T03:30:00-04:00"))
    rows.append(row("N-BAD2", "Safari", "Productivity", "2026-11-01T01:30:00-05:00", "2026-11-01T01:30:00-04:00"))
    rows.sort(key=lambda r: r["start_timestamp"])  # roughly chronological
    return rows


# --------------------------------------------------------------------------- output

def dump(rows):
    return "[\n" + ",\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n]\n"


FIELDS = ["session_id", "app_name", "category", "start_timestamp", "end_timestamp"]


def dump_ndjson(rows):
    """One object per line, with a blank line in the middle (NDJSON readers skip them)."""
    lines = [json.dumps(r, ensure_ascii=False) for r in rows]
    middle = len(lines) // 2
    return "\n".join(lines[:middle] + [""] + lines[middle:]) + "\n"


def dump_csv(rows):
    """RFC 4180 CSV (CRLF, minimal quoting) with the columns in another order than JSON's, and
    an extra column readers must ignore; null becomes an empty cell."""
    out = io.StringIO()
    columns = ["start_timestamp", "app_name", "note", "end_timestamp", "category", "session_id"]
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for r in rows:
        writer.writerow(["" if r.get(c) is None else str(r.get(c)) for c in columns])
    return out.getvalue()


def main():
    dst = dst_rows()
    outputs = {
        os.path.join(FIXTURES, "oracle-dirty.json"): dump(dirty_rows()),
        os.path.join(FIXTURES, "oracle-dst.json"): dump(dst),
        os.path.join(FIXTURES, "oracle-dst.ndjson"): dump_ndjson(dst),
        os.path.join(FIXTURES, "oracle-dst.csv"): dump_csv(dst),
    }
    check = "--check" in sys.argv[1:]
    stale = False
    for path, text in outputs.items():
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8", newline="") as f:
                old = f.read()
        if old == text:
            continue
        stale = True
        if check:
            print("stale: %s" % os.path.relpath(path, ROOT), file=sys.stderr)
        else:
            os.makedirs(FIXTURES, exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            print("wrote %s" % os.path.relpath(path, ROOT))
    if check and stale:
        sys.exit(1)


if __name__ == "__main__":
    main()
