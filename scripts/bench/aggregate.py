#!/usr/bin/env python3
# scripts/bench/aggregate.py — owns the benchmark's Python baseline: one UTC day's top 5 apps, standard library only.
"""Print the top 5 apps of one UTC day of a sessions file, as the project's
`usage-shell FILE --day DAY --tz UTC --format json -c "apps top 5"` does.

Usage: aggregate.py FILE DAY        (DAY is YYYY-MM-DD, cut in UTC)

Straightforward code, as a Python user would write it (json.load + datetime):
  * docs/DATA.md §1: a row counts when it is an object, both timestamps are valid RFC 3339
    strings (YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)), end > start, and app_name
    and category are strings or null; every other row is skipped;
  * docs/DATA.md §2: names trimmed of Unicode white space; null/blank app -> "(unknown)";
    null/blank/"other"/"others" category (any case) -> "Other";
  * docs/DATA.md §4: sessions clipped to [DAY 00:00, DAY+1 00:00) UTC, in whole microseconds;
    per app: seconds, sessions with clipped time > 0, category with most clipped time
    (ties: first by Unicode scalars), share of the total; apps ordered by seconds
    descending, then name.
Output: {"day","time_zone","total_seconds","apps":[{"name","category","seconds","sessions","share"}]}
on one line. The number of skipped rows goes to standard error.
"""
import json
import sys
from datetime import date, datetime, timedelta, timezone

# Unicode White_Space (what the project trims; str.strip() also strips U+001C..U+001F).
WHITE_SPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
               "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
MICROSECOND = timedelta(microseconds=1)
TOP = 5
DIGITS = "0123456789"


def instant(value):
    """Microseconds since the epoch of an RFC 3339 timestamp, or None when it is not valid."""
    if type(value) is not str or len(value) < 20:
        return None
    if value[4] != "-" or value[7] != "-" or value[10] not in "Tt" or value[13] != ":" or value[16] != ":":
        return None
    if len(value) == 20 and value[19] in "Zz":  # the common case: no fraction, UTC
        value = value[:19] + "+00:00"
    else:  # fromisoformat is laxer than RFC 3339 (+0530, "10:00:00.Z", 10 digits): check the tail
        i, n = 19, len(value)
        if value[i] == ".":
            i += 1
            while i < n and value[i] in DIGITS:
                i += 1
            if not 1 <= i - 20 <= 9:
                return None
        zone = value[i:]
        if zone in ("Z", "z"):
            value = value[:i] + "+00:00"
        elif not (len(zone) == 6 and zone[0] in "+-" and zone[3] == ":"):
            return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return None
    return (parsed - EPOCH) // MICROSECOND


def app_name(raw):
    name = (raw or "").strip(WHITE_SPACE)
    return name or "(unknown)"


def category_name(raw):
    name = (raw or "").strip(WHITE_SPACE)
    return "Other" if name.lower() in ("", "other", "others") else name


def seconds(micros):
    return micros // 1_000_000 if micros % 1_000_000 == 0 else micros / 1_000_000


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: aggregate.py FILE DAY")
    path, day_text = sys.argv[1], sys.argv[2]
    day = date.fromisoformat(day_text)
    day_start = (datetime(day.year, day.month, day.day, tzinfo=timezone.utc) - EPOCH) // MICROSECOND
    day_end = day_start + 86_400_000_000

    with open(path, encoding="utf-8", errors="replace") as f:
        rows = json.load(f)
    if not isinstance(rows, list):
        sys.exit("aggregate.py: the top level is not an array")

    per_app = {}  # app -> [micros by category, sessions]
    skipped = 0
    for row in rows:
        if type(row) is not dict:
            skipped += 1
            continue
        start = instant(row.get("start_timestamp"))
        end = instant(row.get("end_timestamp"))
        app, category = row.get("app_name"), row.get("category")
        if (start is None or end is None or end <= start
                or not (app is None or type(app) is str) or not (category is None or type(category) is str)):
            skipped += 1
            continue
        low = start if start > day_start else day_start
        high = end if end < day_end else day_end
        if high <= low:
            continue
        entry = per_app.get(app)  # keyed by the raw name first; normalised below
        if entry is None:
            entry = per_app[app] = [{}, 0]
        by_category = entry[0]
        by_category[category] = by_category.get(category, 0) + (high - low)
        entry[1] += 1

    apps = {}  # normalised app -> [micros by normalised category, sessions]
    for raw_app, (by_category, sessions) in per_app.items():
        entry = apps.setdefault(app_name(raw_app), [{}, 0])
        entry[1] += sessions
        for raw_category, micros in by_category.items():
            name = category_name(raw_category)
            entry[0][name] = entry[0].get(name, 0) + micros

    table = []
    for name, (by_category, sessions) in apps.items():
        total = sum(by_category.values())
        category = min(by_category.items(), key=lambda item: (-item[1], item[0]))[0]
        table.append((total, name, category, sessions))
    table.sort(key=lambda item: (-item[0], item[1]))
    total = sum(item[0] for item in table)

    print(json.dumps({
        "day": day_text,
        "time_zone": "UTC",
        "total_seconds": seconds(total),
        "apps": [{"name": name, "category": category, "seconds": seconds(micros), "sessions": sessions,
                  "share": micros / total} for micros, name, category, sessions in table[:TOP]],
    }, ensure_ascii=False, separators=(",", ":")))
    print(f"aggregate.py: {len(rows)} rows, {skipped} skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
