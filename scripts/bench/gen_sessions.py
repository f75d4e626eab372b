#!/usr/bin/env python3
# scripts/bench/gen_sessions.py — owns the benchmark's workload: a seeded, deterministic sessions file.
"""Write a synthetic sessions file (docs/DATA.md §1) for the benchmark.

Usage:
    gen_sessions.py N [--days D] [--end YYYY-MM-DD] [--seed S] [--dirty] [--format F] [-o FILE]

N rows spread over D days (default: N // 200, at least 1) ending 2026-02-23 UTC (or --end), as a JSON
array of {"session_id","app_name","category","start_timestamp","end_timestamp"} objects,
one per line. The same arguments always give the same bytes (Python's Mersenne Twister,
drawn only through random(), whose sequence is stable across Python versions).

--format writes the same rows (the same random draws) in another format the shell reads:
  json        the sessions JSON (default)
  ndjson      one session object a line
  csv         session_id,app_name,category,start_timestamp,end_timestamp (RFC 4180; a null is
              an empty cell, a value of another JSON type its JSON text)
  aw          an ActivityWatch export: a currentwindow bucket with one event per row
              (timestamp, duration in seconds, data.app and a title; no categories), an
              afkstatus bucket of the same host (each day not-afk 06:00–12:00 and 12:30–23:30
              UTC, afk between) and a web bucket the shell ignores; dirty rows as an export's
              faults (null or non-string apps, missing, bad or offset timestamps, negative or
              string durations)
  timew       a Timewarrior export: {"id","start","end","tags":[app, category]} with compact
              UTC times; dirty rows as its faults (no end: still running, no tags, one tag,
              tags that are not strings, bad times)

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


class JSONWriter:
    """The sessions JSON: an array, one row a line."""
    separator = ",\n"

    def __init__(self, first, days, iso):
        self.iso = iso

    def head(self):
        return "[\n"

    def tail(self, started):
        return "\n]\n" if started else "]\n"

    def clean(self, i, sid, name, name_json, category, category_json, start, end):
        iso = self.iso
        return ('{"session_id": "' + sid + '", "app_name": ' + name_json + ', "category": '
                + category_json + ', "start_timestamp": "' + iso(start) + '", "end_timestamp": "'
                + iso(end) + '"}')

    def dirty(self, i, row, start, end):
        return json.dumps(row, ensure_ascii=False)


class NDJSONWriter(JSONWriter):
    """One session object a line."""
    separator = "\n"

    def head(self):
        return ""

    def tail(self, started):
        return "\n" if started else ""


class CSVWriter(JSONWriter):
    """RFC 4180 CSV with a header; a null is an empty cell, another JSON type its JSON text."""
    separator = "\r\n"
    FIELDS = ["session_id", "app_name", "category", "start_timestamp", "end_timestamp"]

    def head(self):
        return ",".join(self.FIELDS) + "\r\n"

    def tail(self, started):
        return "\r\n" if started else ""

    @staticmethod
    def cell(value):
        if value is None:
            return ""
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        if any(c in text for c in ',"\r\n'):
            return '"' + text.replace('"', '""') + '"'
        return text

    def clean(self, i, sid, name, name_json, category, category_json, start, end):
        cell = self.cell
        return sid + "," + cell(name) + "," + cell(category) + "," + self.iso(start) + "," + self.iso(end)

    def dirty(self, i, row, start, end):
        return ",".join(self.cell(row.get(f)) for f in self.FIELDS)


AW_TITLES = ["Inbox", "main.swift", "standup", "News — Mozilla Firefox", "notes.txt", "Docs"]


class AWWriter(JSONWriter):
    """An ActivityWatch export: window events, AFK periods of the same host, a web bucket."""
    separator = ",\n"

    def __init__(self, first, days, iso):
        self.first, self.days, self.iso = first, days, iso
        self.titles = [json.dumps(t, ensure_ascii=False) for t in AW_TITLES]

    def head(self):
        return ('{"buckets": {\n"aw-watcher-window_bench": {"id": "aw-watcher-window_bench", '
                '"created": "2025-01-01T00:00:00.000000+00:00", "name": null, "type": "currentwindow", '
                '"client": "aw-watcher-window", "hostname": "bench", "data": {}, "events": [\n')

    def tail(self, started):
        out = ["\n]},\n"]
        out.append('"aw-watcher-afk_bench": {"id": "aw-watcher-afk_bench", "created": '
                   '"2025-01-01T00:00:00.000000+00:00", "name": null, "type": "afkstatus", '
                   '"client": "aw-watcher-afk", "hostname": "bench", "data": {}, "events": [\n')
        events = []
        # Each day (and the days either side, where sessions spill): not-afk 06:00–12:00 and
        # 12:30–23:30, afk between.
        for d in range(-1, self.days + 1):
            base = d * 86400
            for s, e, status in ((0, 6 * 3600, "afk"), (6 * 3600, 12 * 3600, "not-afk"),
                                 (12 * 3600, 12 * 3600 + 1800, "afk"), (12 * 3600 + 1800, 23 * 3600 + 1800, "not-afk"),
                                 (23 * 3600 + 1800, 86400, "afk")):
                events.append('{"timestamp": "%s", "duration": %d.0, "data": {"status": "%s"}}'
                              % (self.stamp(base + s), e - s, status))
        out.append(",\n".join(events))
        out.append("\n]},\n")
        out.append('"aw-watcher-web-firefox_bench": {"id": "aw-watcher-web-firefox_bench", "type": "web.tab.current", '
                   '"hostname": "bench", "events": [{"timestamp": "%s", "duration": 60.0, '
                   '"data": {"url": "https://example.org/", "title": "Example", "audible": false}}]}\n}}\n'
                   % self.stamp(0))
        return "".join(out)

    def stamp(self, t, micros=0):
        text = self.iso(t)[:-1]  # "…Z" → aw-server's "+00:00", with microseconds
        return text + (".%06d" % micros) + "+00:00"

    def event(self, i, stamp_json, duration, app_json, title_json):
        return ('{"id": ' + str(i) + ', "timestamp": ' + stamp_json + ', "duration": ' + duration
                + ', "data": {"app": ' + app_json + ', "title": ' + title_json + '}}')

    def clean(self, i, sid, name, name_json, category, category_json, start, end):
        return self.event(i, '"' + self.stamp(start) + '"', str(end - start) + ".0", name_json,
                          self.titles[i % len(self.titles)])

    def dirty(self, i, row, start, end):
        stamp = '"' + self.stamp(start) + '"'
        duration = "%d.0" % (end - start)
        app = json.dumps(row["app_name"], ensure_ascii=False)
        s, e = row.get("start_timestamp"), row.get("end_timestamp")
        if s is None or e is None:  # missing or null timestamp
            stamp = "null" if (s is None and "start_timestamp" in row) else stamp
            if s is not None and e is None:
                duration = "null"
            if "start_timestamp" not in row:
                return '{"id": %d, "duration": %s, "data": {"app": %s}}' % (i, duration, app)
        elif s == e or s > e and len(s) == 20 and len(e) == 20:  # end not after start: a negative duration
            duration = "-%d.0" % (end - start)
        elif len(s) != 20 or s[10] != "T":  # fractions, offsets, unparseable: written as they are
            stamp = json.dumps(s, ensure_ascii=False)
            if "." in s:
                duration = "%d.%03d" % (end - start, i % 1000)
        if isinstance(row["category"], list):
            duration = '"%d"' % (end - start)  # a duration that is not a number
        return self.event(i, stamp, duration, app, self.titles[i % len(self.titles)])


class TimewWriter(JSONWriter):
    """A Timewarrior export: compact UTC times, tags [app, category]."""
    separator = ",\n"

    def compact(self, t):
        return self.iso(t).replace("-", "").replace(":", "")

    def clean(self, i, sid, name, name_json, category, category_json, start, end):
        tags = name_json if category is None else name_json + ", " + category_json
        return ('{"id": ' + str(i + 1) + ', "start": "' + self.compact(start) + '", "end": "' + self.compact(end)
                + '", "tags": [' + tags + ']}')

    def dirty(self, i, row, start, end):
        out = {"id": i + 1}
        s, e = row.get("start_timestamp"), row.get("end_timestamp")
        out["start"] = s if s is None or len(s) != 20 or s[10] != "T" else self.compact(start)
        if e is not None:  # no end: a running interval
            out["end"] = e if len(e) != 20 or e[10] != "T" else (
                self.compact(start) if e == s else self.compact(end) if s is None or e >= s else e.replace("-", "").replace(":", ""))
        app, category = row["app_name"], row["category"]
        if isinstance(category, list):
            out["tags"] = [app, 42]
        elif app is None:
            pass  # no tags
        elif category is None:
            out["tags"] = [app]
        else:
            out["tags"] = [app, category]
        return json.dumps(out, ensure_ascii=False)


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
    ap.add_argument("--format", choices=["json", "ndjson", "csv", "aw", "timew"], default="json",
                    help="the format to write the rows in (default json)")
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
        return row

    fmt = a.format
    writer = {"json": JSONWriter, "ndjson": NDJSONWriter, "csv": CSVWriter, "aw": AWWriter, "timew": TimewWriter}[fmt](
        first, days, iso)
    out = sys.stdout.buffer if a.output == "-" else open(a.output, "wb")
    try:
        out.write(writer.head().encode())
        chunk = []
        started = False  # whether some rows are out already

        def flush():
            nonlocal started
            out.write(((writer.separator if started else "") + writer.separator.join(chunk)).encode())
            started = True
            chunk.clear()

        dirty = a.dirty
        clean = writer.clean
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
                line = writer.dirty(i, dirty_row(sid, name, cats[k][0], start, end), start, end)
            else:
                line = clean(i, sid, name, name_json, cats[k][0], enc[k][0], start, end)
            chunk.append(line)
            if len(chunk) == 20000:
                flush()
        if chunk:
            flush()
        out.write(writer.tail(started).encode())
    finally:
        if out is not sys.stdout.buffer:
            out.close()


if __name__ == "__main__":
    main()
