#!/usr/bin/env python3
# scripts/bench/gen_sessions.py — owns the benchmark's workload: a seeded, deterministic sessions file.
"""Write a synthetic sessions file (docs/DATA.md §1) for the benchmark.

Usage:
    gen_sessions.py N [--days D] [--end YYYY-MM-DD] [--seed S] [--dirty] [-o FILE]

N rows spread over D days (default: N // 200, at least 1) ending 2026-02-23 UTC (or --end), as a JSON
array of {"session_id","app_name","category","start_timestamp","end_timestamp"} objects,
one per line. The same arguments always give the same bytes (Python's Mersenne Twister,
drawn only through random(), whose sequence is stable across Python versions).

The shape of the data:
  * about 40 apps with Zipf-like popularity and per-app typical session lengths
    (exponential around a per-app mean, at least 5 s, at most 6 h); a few apps are
    filed under a second category now and then, and one app has no category at all;
  * start times follow a day/night rhythm (busy evenings, quiet small hours), so that
    sessions cross midnight now and then on their own.

With --dirty about 1% of the rows carry one fault of a real export:
  null or blank app names; null or missing timestamps; end before (or equal to) start;
  sessions forced across midnight; null, blank, "others"/"OTHER" categories; non-ASCII
  names (accents, decomposed accents, CJK and full-width characters, emoji incl. a ZWJ
  sequence, a tab); names padded with Unicode white space; millisecond fractions;
  non-zero UTC offsets; unparseable timestamps; fields of the wrong JSON type.
A 1,000,000-row 90-day file is about 165 MB and takes a few seconds to write.
"""
import argparse
import json
import math
import random
import sys
from datetime import date, timedelta

END_DAY = date(2026, 2, 23)  # the last day of the data (UTC)

# (name, mean session seconds, [(category, probability), ...]) — most popular first.
APPS = [
    ("Safari", 420, [("Productivity", 1.0)]),
    ("Messages", 90, [("Social", 1.0)]),
    ("YouTube", 1100, [("Entertainment", 0.85), ("Education", 0.15)]),
    ("Slack", 300, [("Productivity", 0.9), ("Business", 0.1)]),
    ("Instagram", 360, [("Social", 1.0)]),
    ("Mail", 150, [("Productivity", 1.0)]),
    ("Spotify", 1500, [("Music", 1.0)]),
    ("WhatsApp", 120, [(None, 1.0)]),
    ("Xcode", 2400, [("Developer Tools", 1.0)]),
    ("Terminal", 900, [("Developer Tools", 1.0)]),
    ("TikTok", 600, [("Social", 0.7), ("Entertainment", 0.3)]),
    ("Maps", 240, [("Navigation", 1.0)]),
    ("Netflix", 2700, [("Entertainment", 1.0)]),
    ("Notes", 180, [("Productivity", 1.0)]),
    ("Calendar", 45, [("Productivity", 1.0)]),
    ("Reddit", 480, [("Social", 1.0)]),
    ("Photos", 120, [("Photo & Video", 1.0)]),
    ("Camera", 30, [("Photo & Video", 1.0)]),
    ("Settings", 60, [("Utilities", 1.0)]),
    ("Zoom", 1800, [("Business", 1.0)]),
    ("Figma", 1500, [("Graphics & Design", 1.0)]),
    ("Kindle", 1200, [("Books", 1.0)]),
    ("Podcasts", 1300, [("Entertainment", 1.0)]),
    ("Duolingo", 300, [("Education", 1.0)]),
    ("Strava", 200, [("Health & Fitness", 1.0)]),
    ("Weather", 20, [("Weather", 1.0)]),
    ("Banking", 90, [("Finance", 1.0)]),
    ("Chess", 700, [("Games", 1.0)]),
    ("Wordle", 240, [("Games", 1.0)]),
    ("Telegram", 150, [("Social", 1.0)]),
    ("Clock", 15, [("Utilities", 1.0)]),
    ("Calculator", 25, [("Utilities", 1.0)]),
    ("Books", 900, [("Books", 1.0)]),
    ("News", 300, [("News", 1.0)]),
    ("Shazam", 20, [("Music", 1.0)]),
    ("Files", 60, [("Productivity", 1.0)]),
    ("Authenticator", 10, [("Utilities", 1.0)]),
    ("Fitness", 150, [("Health & Fitness", 1.0)]),
]
ZIPF_EXPONENT = 1.15

# Relative activity per UTC hour 0..23.
HOURLY = [3, 2, 1, 1, 1, 2, 4, 8, 11, 12, 11, 10, 11, 10, 10, 10, 11, 12, 14, 16, 17, 15, 11, 6]

MAX_SECONDS = 6 * 3600
DIRTY_RATE = 0.01

WEIRD_NAMES = [
    "Café Reader",            # precomposed é
    "Cafe\u0301 Reader",      # e + combining acute: a different name by scalars
    "微信",                    # CJK (wide)
    "ＬＩＮＥ",                 # full-width Latin (wide)
    "카카오톡",                 # Hangul (wide)
    "🎵 Tunes",               # emoji (wide)
    "👩‍💻 Dev",               # emoji ZWJ sequence
    "Ελληνικά",
    "Tab\tName",              # a control character inside a name
]
PADDED_NAMES = [" Safari", "Slack\t", "\u00a0Mail\u00a0", "\u3000Messages", "YouTube\n", "  "]
DIRTY_CATEGORIES = [None, "", "  ", "others", "Others", "OTHER", " other "]
BAD_TIMESTAMPS = ["2026-02-23 10:00:00", "2026-02-23T10:00:00", "yesterday", "", "2026-02-23T25:00:00Z"]
OFFSETS = [(5 * 60 + 30, "+05:30"), (-8 * 60, "-08:00"), (60, "+01:00"), (-3 * 60 - 30, "-03:30")]


def build_table(weights, size):
    """A lookup table: index it with int(random() * size) to draw by weight."""
    total = float(sum(weights))
    table = []
    for i, w in enumerate(weights):
        table.extend([i] * round(w / total * size))
    while len(table) < size:
        table.append(0)
    return table[:size]


def main():
    ap = argparse.ArgumentParser(description="Write a synthetic sessions file (docs/DATA.md §1).")
    ap.add_argument("n", type=int, help="number of rows")
    ap.add_argument("--days", type=int, default=None, help="days of data, ending 2026-02-23 (default N // 200)")
    ap.add_argument("--end", default=END_DAY.isoformat(), help="the last day, YYYY-MM-DD (default 2026-02-23)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--dirty", action="store_true", help="make about 1%% of the rows faulty")
    ap.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    a = ap.parse_args()
    if a.n < 0 or (a.days is not None and a.days < 1):
        ap.error("N must be >= 0 and D >= 1")
    days = a.days or max(1, a.n // 200)
    rnd = random.Random(a.seed)
    r = rnd.random
    log = math.log

    # Day strings for every day a timestamp can fall on (two days of margin either side).
    first = date.fromisoformat(a.end) - timedelta(days=days - 1)
    margin = 2
    dates = [(first + timedelta(days=k - margin)).isoformat() for k in range(days + 2 * margin)]
    clock = ["%02d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60) for s in range(86400)]

    def iso(t):  # seconds since `first` 00:00 UTC -> RFC 3339 in UTC
        d, s = divmod(t, 86400)
        return dates[d + margin] + "T" + clock[s] + "Z"

    def iso_ms(t, ms):
        d, s = divmod(t, 86400)
        return "%sT%s.%03dZ" % (dates[d + margin], clock[s], ms)

    def iso_offset(t, minutes, suffix):
        d, s = divmod(t + minutes * 60, 86400)
        return dates[d + margin] + "T" + clock[s] + suffix

    apps = []
    for name, mean, cats in APPS:
        enc = [(json.dumps(c, ensure_ascii=False), p) for c, p in cats]
        apps.append((name, json.dumps(name, ensure_ascii=False), float(mean), cats, enc))
    app_table = build_table([1.0 / (k + 1) ** ZIPF_EXPONENT for k in range(len(apps))], 1 << 14)
    app_size = len(app_table)
    hour_table = build_table(HOURLY, 1 << 12)
    hour_size = len(hour_table)

    def pick_category(cats):
        if len(cats) == 1:
            return 0
        x = r()
        for k, (_, p) in enumerate(cats):
            x -= p
            if x < 0:
                return k
        return len(cats) - 1

    def dirty_row(sid, name, cat, start, end):
        row = {"session_id": sid, "app_name": name, "category": cat,
               "start_timestamp": iso(start), "end_timestamp": iso(end)}
        kind = int(r() * 11)
        if kind == 0:    # null or blank app name
            row["app_name"] = None if r() < 0.7 else " "
        elif kind == 1:  # null or missing timestamp
            key = "start_timestamp" if r() < 0.5 else "end_timestamp"
            if r() < 0.7:
                row[key] = None
            else:
                del row[key]
        elif kind == 2:  # end before start, or equal
            row["end_timestamp"] = iso(start - (end - start)) if r() < 0.8 else row["start_timestamp"]
        elif kind == 3:  # across midnight
            s = start - start % 86400 + 86400 - 60 * (1 + int(r() * 30))
            row["start_timestamp"], row["end_timestamp"] = iso(s), iso(s + 60 * (10 + int(r() * 60)))
        elif kind == 4:  # dirty category
            row["category"] = DIRTY_CATEGORIES[int(r() * len(DIRTY_CATEGORIES))]
        elif kind == 5:  # non-ASCII name
            row["app_name"] = WEIRD_NAMES[int(r() * len(WEIRD_NAMES))]
        elif kind == 6:  # padded name
            row["app_name"] = PADDED_NAMES[int(r() * len(PADDED_NAMES))]
        elif kind == 7:  # millisecond fractions
            row["start_timestamp"] = iso_ms(start, int(r() * 1000))
            row["end_timestamp"] = iso_ms(end, int(r() * 1000))
        elif kind == 8:  # the same instants written with a non-zero offset
            minutes, suffix = OFFSETS[int(r() * len(OFFSETS))]
            row["start_timestamp"] = iso_offset(start, minutes, suffix)
            row["end_timestamp"] = iso_offset(end, minutes, suffix)
        elif kind == 9:  # unparseable timestamp
            key = "start_timestamp" if r() < 0.5 else "end_timestamp"
            row[key] = BAD_TIMESTAMPS[int(r() * len(BAD_TIMESTAMPS))]
        else:            # a field of the wrong JSON type
            if r() < 0.5:
                row["app_name"] = 42
            else:
                row["category"] = ["Social"]
        return json.dumps(row, ensure_ascii=False)

    out = sys.stdout.buffer if a.output == "-" else open(a.output, "wb")
    try:
        chunk = []
        started = False  # whether "[" and some rows are out already

        def flush():
            nonlocal started
            out.write(((",\n" if started else "[\n") + ",\n".join(chunk)).encode())
            started = True
            chunk.clear()

        dirty = a.dirty
        for i in range(a.n):
            name, name_json, mean, cats, enc = apps[app_table[int(r() * app_size)]]
            k = pick_category(cats)
            day = int(r() * days)
            start = day * 86400 + hour_table[int(r() * hour_size)] * 3600 + int(r() * 3600)
            length = int(-mean * log(1.0 - r())) + 5
            if length > MAX_SECONDS:
                length = MAX_SECONDS
            end = start + length
            sid = "ses-%07d" % i
            if dirty and r() < DIRTY_RATE:
                line = dirty_row(sid, name, cats[k][0], start, end)
            else:
                line = ('{"session_id": "' + sid + '", "app_name": ' + name_json + ', "category": '
                        + enc[k][0] + ', "start_timestamp": "' + iso(start) + '", "end_timestamp": "'
                        + iso(end) + '"}')
            chunk.append(line)
            if len(chunk) == 20000:
                flush()
        if chunk:
            flush()
        out.write(b"\n]\n" if started else b"[]\n")
    finally:
        if out is not sys.stdout.buffer:
            out.close()


if __name__ == "__main__":
    main()
