#!/usr/bin/env python3
"""Generate Usage Shell's bundled sample data (deterministic, stdlib only).

Run from the repository root:

    python3 scripts/gen_sample.py          # (re)write both output files
    python3 scripts/gen_sample.py --check  # exit 1 if either file is stale

Outputs
-------
* ``Resources/sample-sessions.json`` -- one person's app-usage ("screen time")
  sessions for the week Tuesday 2026-02-17 .. Monday 2026-02-23, UTC.  A JSON
  array with one object per line, keys ``session_id``, ``app_name``,
  ``category``, ``start_timestamp``, ``end_timestamp``; ids S-0001.. follow
  the chronological order of the start (a row whose start is null sits where
  its start would naturally be).
* ``Sources/UsageData/BundledSampleData.swift`` -- the same bytes embedded in
  a raw multi-line Swift string (``BundledSampleData.json + "\\n"`` equals the
  JSON file exactly).

Content: phone used roughly 06:30-23:30, 30-60 sessions a day, 4-9 h of app
time a day; weekdays heavier on Productivity, the weekend (Sat 21, Sun 22)
heavier on Entertainment/Social; Monday 2026-02-23 is a busy workday and the
last day with data.  Foreground (non-music) sessions do not overlap each other.

Deliberate dirt -- exactly these kinds, each at least once:

(a) WhatsApp rows always have a null category.
(b) one row with ``"app_name": null`` but valid timestamps (Monday).
(c) one row with ``"start_timestamp": null`` (and a null app_name, category
    "Social"), as in the original data (Thursday).
(d) one row whose end is before its start: Mail 09:00 -> 08:45 (Wednesday).
(e) one session across midnight: Sunday 2026-02-22 23:40 -> Monday 00:25.
(f) Spotify (music) plays in the background and overlaps other apps, notably
    Maps navigation during the weekday morning and evening commutes, so app
    time > screen time.
(g) one row with category "others" (lowercase) and one with category ""
    (empty).
(h) one app name with surrounding spaces: " Safari " (Monday).
(i) one timestamp with a non-UTC offset ("2026-02-19T10:15:00+01:00", i.e.
    09:15Z) and one with fractional seconds ("2026-02-20T12:00:00.250Z").

Nothing else is dirty: every row is an object, every non-null timestamp is a
valid ISO 8601 string, every non-null field is a string.

Determinism: ``random.Random(SEED)`` using only ``random()``, ``randint``,
``choice`` and ``uniform`` (stable across Python 3 versions); all times are
integer seconds from a fixed UTC epoch, formatted by hand -- no dependence on
the machine's time zone or locale.
"""

import json
import os
import random
import sys
from datetime import datetime, timedelta, timezone

SEED = 20260217

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
JSON_PATH = os.path.join(ROOT, "Resources", "sample-sessions.json")
SWIFT_PATH = os.path.join(ROOT, "Sources", "UsageData", "BundledSampleData.swift")

BASE = datetime(2026, 2, 17, tzinfo=timezone.utc)  # Tuesday 00:00Z; t = seconds since BASE
DAY = 86400
H = 3600
M = 60
NUM_DAYS = 7  # Tue 17 .. Mon 23
WEEKEND = {4, 5}  # day index of Sat 21 and Sun 22

CATEGORY = {
    "Safari": "Productivity", "Mail": "Productivity", "Slack": "Productivity",
    "Notes": "Productivity", "Calendar": "Productivity", "Weather": "Productivity",
    "Photos": "Productivity", "Google Chrome": "Productivity",
    "Messages": "Social", "Instagram": "Social", "TikTok": "Social",
    "WhatsApp": None,
    "YouTube": "Entertainment", "Spotify": "Entertainment", "Netflix": "Entertainment",
    "Maps": "Navigation",
    "Settings": "System", "Clock": "System", "Camera": "System",
    "Duolingo": "Education",
}

# Foreground session length range in seconds (drawn skewed towards the short end).
DURATION = {
    "Settings": (45, 180), "Clock": (45, 120), "Camera": (60, 420),
    "Weather": (45, 180), "Calendar": (60, 300), "Notes": (120, 900),
    "Mail": (90, 900), "Slack": (120, 1500), "Safari": (120, 1500),
    "Google Chrome": (180, 1800), "Photos": (90, 720), "Messages": (60, 720),
    "WhatsApp": (60, 900), "Instagram": (180, 1500), "TikTok": (300, 2400),
    "YouTube": (600, 3000), "Netflix": (1800, 5400), "Maps": (300, 1800),
    "Duolingo": (240, 900),
}

W_WEEKDAY_MORNING = [
    ("Weather", 3), ("Mail", 4), ("Messages", 4), ("WhatsApp", 3), ("Calendar", 3),
    ("Slack", 3), ("Instagram", 2), ("Safari", 2), ("Duolingo", 2), ("Notes", 1),
    ("Settings", 0.5), ("TikTok", 0.5), ("YouTube", 0.5),
]
W_WEEKDAY_WORK = [
    ("Slack", 8), ("Mail", 7), ("Safari", 5), ("Google Chrome", 4), ("Calendar", 4),
    ("Notes", 4), ("Messages", 3), ("WhatsApp", 2), ("Instagram", 1), ("Photos", 1),
    ("Camera", 0.5), ("Settings", 0.5), ("Weather", 0.5), ("Clock", 0.3), ("TikTok", 0.3),
]
W_WEEKDAY_EVENING = [
    ("Instagram", 5), ("TikTok", 4), ("YouTube", 4), ("Messages", 4), ("WhatsApp", 3),
    ("Safari", 3), ("Netflix", 1.5), ("Photos", 1.5), ("Duolingo", 1.5), ("Mail", 1),
    ("Slack", 1), ("Notes", 1), ("Calendar", 1), ("Camera", 0.5), ("Settings", 0.5),
    ("Weather", 0.5),
]
W_WEEKEND = [
    ("Instagram", 6), ("TikTok", 5), ("YouTube", 5), ("Messages", 5), ("WhatsApp", 4),
    ("Safari", 3), ("Photos", 2.5), ("Netflix", 2), ("Camera", 2), ("Duolingo", 1),
    ("Maps", 1), ("Weather", 1), ("Mail", 0.7), ("Notes", 0.7), ("Calendar", 0.5),
    ("Settings", 0.5), ("Clock", 0.3),
]

# Target total app time per day (hours), incl. background Spotify; +- TOLERANCE.
TARGET_HOURS = [5.6, 4.7, 6.2, 6.6, 8.4, 8.3, 7.2]
TOLERANCE = 12 * M
SESSIONS_RANGE = (30, 60)


def weighted(rng, table):
    total = sum(w for _, w in table)
    x = rng.random() * total
    for name, w in table:
        x -= w
        if x < 0:
            return name
    return table[-1][0]


def duration(rng, app):
    lo, hi = DURATION[app]
    return int(lo + (hi - lo) * rng.random() * rng.random())


def fmt(t):
    return (BASE + timedelta(seconds=t)).strftime("%Y-%m-%dT%H:%M:%SZ")


def fmt_offset(t, hours):
    local = (BASE + timedelta(seconds=t + hours * H)).strftime("%Y-%m-%dT%H:%M:%S")
    return "%s%+03d:00" % (local, hours)


def session(app, start, end):
    return {"app": app, "cat": CATEGORY[app], "start": start, "end": end,
            "start_str": None, "end_str": None, "hide_start": False}


def gen_day_attempt(rng, d, gap_mean):
    """One candidate day: foreground sessions laid out in sequence around fixed
    blocks (commute navigation), plus background Spotify sessions."""
    day0 = d * DAY
    weekend = d in WEEKEND
    wake = day0 + 6 * H + 30 * M + rng.randint(0, 25 * M)
    bed = day0 + 23 * H + rng.randint(0, 30 * M)
    blocks = []  # foreground sessions at fixed times: (start, end, app)
    music = []  # background Spotify: (start, end)
    if not weekend:
        ms = day0 + 8 * H + rng.randint(0, 25 * M)
        me = ms + rng.randint(25 * M, 40 * M)
        es = day0 + 17 * H + 30 * M + rng.randint(0, 30 * M)
        ee = es + rng.randint(25 * M, 45 * M)
        blocks += [(ms, me, "Maps"), (es, ee, "Maps")]
        music.append((ms - rng.randint(60, 300), me + rng.randint(60, 420)))
        music.append((es - rng.randint(60, 300), ee + rng.randint(60, 420)))
        if rng.random() < 0.4:  # focus music during work, overlapping Slack & co.
            fs = day0 + 13 * H + 30 * M + rng.randint(0, 90 * M)
            music.append((fs, fs + rng.randint(30 * M, 60 * M)))
    else:
        ts = day0 + 11 * H + rng.randint(0, 4 * H)
        te = ts + rng.randint(18 * M, 35 * M)
        blocks.append((ts, te, "Maps"))
        music.append((ts - rng.randint(60, 240), te + rng.randint(120, 900)))
        for _ in range(2):
            s = day0 + rng.choice([9, 10, 16, 17, 19]) * H + rng.randint(0, 50 * M)
            music.append((s, s + rng.randint(30 * M, 85 * M)))

    out = [session(a, s, e) for s, e, a in blocks]
    t = wake
    first = True
    while True:
        if first:
            app = "Clock" if not weekend else rng.choice(["Weather", "Messages", "Clock"])
            first = False
        else:
            t += int(rng.uniform(0.2, 1.8) * gap_mean)
            hour = (t - day0) // H
            if weekend:
                table = W_WEEKEND
            elif hour < 9:
                table = W_WEEKDAY_MORNING
            elif hour < 18:
                table = W_WEEKDAY_WORK
            else:
                table = W_WEEKDAY_EVENING
            app = weighted(rng, table)
        dur = duration(rng, app)
        clash = [b for b in blocks if t < b[1] + 30 and t + dur > b[0] - 30]
        if clash:
            t = max(b[1] for b in clash) + rng.randint(30, 240)
            continue
        if t + dur > bed:
            break
        out.append(session(app, t, t + dur))
        t += dur
    out += [session("Spotify", s, e) for s, e in music]
    return out


def total_seconds(rows):
    return sum(r["end"] - r["start"] for r in rows)


def gen_day(rng, d):
    target = int(TARGET_HOURS[d] * H)
    gap_mean = 12 * M
    for _ in range(2000):
        rows = gen_day_attempt(rng, d, gap_mean)
        tot = total_seconds(rows)
        ok = abs(tot - target) <= TOLERANCE and SESSIONS_RANGE[0] <= len(rows) <= SESSIONS_RANGE[1]
        if d == 6:  # Monday: must show Google Chrome, and Safari/Messages for the dirt below
            apps = [r["app"] for r in rows]
            ok = ok and "Google Chrome" in apps and apps.count("Safari") >= 2 and apps.count("Messages") >= 2
        if ok:
            return rows
        # nudge the mean gap towards the target (more app time -> longer gaps)
        gap_mean = max(60, min(60 * M, gap_mean * (1 + 0.5 * (tot - target) / target)))
    raise SystemExit("gen_sample: could not generate day %d" % d)


def pick(rows, pred, what):
    for r in rows:
        if pred(r):
            return r
    raise SystemExit("gen_sample: no row for dirt %s" % what)


def day_of(r):
    return r["start"] // DAY


def hour_of(r):
    return (r["start"] % DAY) / H


def build():
    rng = random.Random(SEED)
    rows = []
    for d in range(NUM_DAYS):
        rows += gen_day(rng, d)
    rows.sort(key=lambda r: (r["start"], r["end"], r["app"]))

    # (e) across midnight Sun 23:40 -> Mon 00:25 (Sunday's use ends by 23:30)
    rows.append(session("YouTube", 5 * DAY + 23 * H + 40 * M, 6 * DAY + 25 * M))
    rows.sort(key=lambda r: (r["start"], r["end"], r["app"]))

    # (b) null app name, valid timestamps -- Monday, a Messages session
    r = pick(rows, lambda r: day_of(r) == 6 and r["app"] == "Messages" and hour_of(r) >= 10, "b")
    r["app"] = None
    # (c) null start (and null app), category Social -- Thursday
    r = pick(rows, lambda r: day_of(r) == 2 and CATEGORY.get(r["app"]) == "Social" and hour_of(r) >= 12, "c")
    r["app"] = None
    r["cat"] = "Social"
    r["hide_start"] = True
    # (d) end before start: Mail 09:00 -> 08:45 on Wednesday (replaces a work-hour Mail session)
    r = pick(rows, lambda r: day_of(r) == 1 and r["app"] == "Mail" and 9 <= hour_of(r) < 12, "d")
    r["start"] = DAY + 9 * H
    r["end"] = DAY + 8 * H + 45 * M
    # (g) category "others" (a Tuesday Duolingo/Settings row) and "" (a Saturday Camera/Photos row)
    r = pick(rows, lambda r: day_of(r) == 0 and r["app"] in ("Duolingo", "Settings"), "g1")
    r["cat"] = "others"
    r = pick(rows, lambda r: day_of(r) == 4 and r["app"] in ("Camera", "Photos"), "g2")
    r["cat"] = ""
    # (h) app name with surrounding spaces -- Monday
    r = pick(rows, lambda r: day_of(r) == 6 and r["app"] == "Safari", "h")
    r["app"] = " Safari "
    # (i) +01:00 offset on a Thursday morning start; fractional seconds on a Friday midday start
    r = pick(rows, lambda r: day_of(r) == 2 and 9 <= hour_of(r) < 12 and r["app"] != "Spotify", "i1")
    r["start_str"] = fmt_offset(r["start"], 1)
    r = pick(rows, lambda r: day_of(r) == 3 and 11.5 <= hour_of(r) < 14 and r["app"] != "Spotify", "i2")
    r["start_str"] = fmt(r["start"])[:-1] + ".250Z"

    rows.sort(key=lambda r: (r["start"], r["end"], r["app"] or ""))
    lines = []
    for i, r in enumerate(rows, 1):
        obj = {
            "session_id": "S-%04d" % i,
            "app_name": r["app"],
            "category": r["cat"],
            "start_timestamp": None if r["hide_start"] else (r["start_str"] or fmt(r["start"])),
            "end_timestamp": r["end_str"] or fmt(r["end"]),
        }
        lines.append("  " + json.dumps(obj, ensure_ascii=False))
    text = "[\n" + ",\n".join(lines) + "\n]\n"
    return text, rows


def swift_source(text):
    if '"""#' in text or "\\#" in text:
        raise SystemExit('gen_sample: JSON text contains """# or \\# and cannot be embedded in a #"""..."""# raw string')
    if "\r" in text:
        raise SystemExit("gen_sample: JSON text contains a carriage return")
    assert text.endswith("\n")
    return (
        "// BundledSampleData.swift \u2014 the bundled sample's JSON, generated by "
        "scripts/gen_sample.py from Resources/sample-sessions.json; do not edit.\n"
        "\n"
        "/// The bundled sample sessions file, byte for byte as `Resources/sample-sessions.json`.\n"
        "enum BundledSampleData {\n"
        '    static let json = #"""\n'
        + text[:-1] + "\n"
        '"""#\n'
        "}\n"
    )


def summary(rows):
    out = []
    names = ["Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Mon"]
    for d in range(NUM_DAYS):
        lo, hi = d * DAY, (d + 1) * DAY
        n = sum(1 for r in rows if lo <= r["start"] < hi)
        secs = 0
        for r in rows:
            if r["hide_start"] or r["end"] <= r["start"]:
                continue
            secs += max(0, min(r["end"], hi) - max(r["start"], lo))
        day = (BASE + timedelta(days=d)).strftime("%Y-%m-%d")
        out.append("%s %s  %2d sessions  %dh%02dm app time" % (day, names[d], n, secs // H, secs % H // M))
    return "\n".join(out)


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def main(argv):
    check = "--check" in argv[1:]
    unknown = [a for a in argv[1:] if a != "--check"]
    if unknown:
        sys.stderr.write("usage: python3 scripts/gen_sample.py [--check]\n")
        return 2
    text, rows = build()
    outputs = [(JSON_PATH, text.encode("utf-8")), (SWIFT_PATH, swift_source(text).encode("utf-8"))]
    if check:
        stale = [p for p, data in outputs if read(p) != data]
        for p in stale:
            sys.stderr.write("gen_sample: %s is out of date; run python3 scripts/gen_sample.py\n"
                             % os.path.relpath(p, ROOT))
        return 1 if stale else 0
    for p, data in outputs:
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)
    sys.stderr.write(summary(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
