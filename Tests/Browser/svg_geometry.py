# svg_geometry.py — a saved SVG read back as geometry and compared with the JSON of the same view, sharing no code with the program: the ring's arc angles against the categories' shares, the ranked bars' lengths and the columns' heights against their seconds, each to half a pixel.
import math
import re
import xml.etree.ElementTree as ET
from datetime import date, datetime, timedelta

SVG = "{http://www.w3.org/2000/svg}"
TOLERANCE = 0.5  # pixels


def charts(root):
    """The nested chart <svg> elements (each a chart with role="img"), with their titles."""
    return [(svg.findtext(SVG + "title") or "", svg) for svg in root.iter(SVG + "svg") if svg is not root and svg.get("role") == "img"]


def parse_path(d):
    """The numbers of a path's commands, as (command, [numbers])."""
    return [(m.group(1), [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", m.group(2))]) for m in re.finditer(r"([MALZ])([^MALZ]*)", d)]


def sector_turns(d):
    """An annular sector's start and end as fractions of the turn, clockwise from 12 o'clock, read from its
    outer arc's ends and the centre the two arcs share. A path of two sectors (a whole ring) is their sum."""
    commands = parse_path(d)
    pieces = []
    k = 0
    while k < len(commands):
        if commands[k][0] != "M":
            k += 1
            continue
        (x0, y0) = commands[k][1]
        outer = commands[k + 1][1]  # rx ry rotation large sweep x y
        (xi, yi) = commands[k + 2][1]
        inner = commands[k + 3][1]
        big, small = outer[0], inner[0]
        # The centre: on the ray from the outer start through the inner start's twin (the inner arc ends where the outer began).
        (xe, ye) = (inner[5], inner[6])
        cx = x0 + (xe - x0) * big / (big - small)
        cy = y0 + (ye - y0) * big / (big - small)
        start = math.atan2(x0 - cx, cy - y0) / (2 * math.pi) % 1
        end = math.atan2(outer[5] - cx, cy - outer[6]) / (2 * math.pi) % 1
        pieces.append((start, (end - start) % 1, big))
        k += 4
    return pieces


def check_donut(svg, categories, problems, name):
    """Each slice's angle is its share of the turn (the sixth and later folded into one past six)."""
    shares = [c["share"] for c in categories]
    if len(shares) > 6:
        shares = shares[:5] + [sum(shares[5:])]
    paths = [p for p in svg.iter(SVG + "path") if " A" in p.get("d", "") or "A" in p.get("d", "")]
    spans = []
    for p in paths:
        pieces = sector_turns(p.get("d"))
        spans.append((pieces[0][0], sum(s for _, s, _ in pieces), pieces[0][2]))
    if len(spans) != len(shares):
        problems.append(f"{name}: the ring has {len(spans)} slices, the JSON {len(shares)}")
        return
    running = 0.0
    for (start, span, radius), share in zip(spans, shares):
        # Along the outer edge, in pixels: where the slice starts (on the turn), and how long it is.
        start_error = abs((start - running + 0.5) % 1 - 0.5) * 2 * math.pi * radius
        span_error = abs(span - share) * 2 * math.pi * radius
        if start_error > TOLERANCE:
            problems.append(f"{name}: a slice starts at {start:.5f} of the turn, after the shares before it at {running:.5f} ({start_error:.2f} px off)")
        if span_error > TOLERANCE:
            problems.append(f"{name}: a slice is {span:.5f} of the turn, its share {share:.5f} ({span_error:.2f} px off)")
        running += share


def bar_rects(svg):
    """The ranked bars: the coloured rectangles with a tooltip (a track has none)."""
    return [r for r in svg.iter(SVG + "rect") if r.find(SVG + "title") is not None]


def check_bars(svg, seconds, problems, name, length=240.0, limits=None):
    """Each bar is its time against the longest (or against the longer of its time and its limit)."""
    rects = bar_rects(svg)
    expected = []
    for k, s in enumerate(seconds):
        if limits:
            expected.append(s / max(s, limits[k]) * length)
        else:
            expected.append(s / max(seconds) * length)
    drawn = [e for e in expected if e > 0]
    if len(rects) != len(drawn):
        problems.append(f"{name}: {len(rects)} bars drawn, {len(drawn)} rows with time in the JSON")
        return
    for rect, want in zip(rects, drawn):
        got = float(rect.get("width"))
        if abs(got - want) > TOLERANCE:
            problems.append(f"{name}: a bar is {got} px long, its seconds make it {want:.2f}")


def axis_seconds(label):
    """`1h30` → 5400, `45m` → 2700, `9h` → 32400."""
    m = re.fullmatch(r"(?:(\d+)h(\d\d)?)|(?:(\d+)m)", label)
    if not m:
        raise ValueError(label)
    if m.group(3):
        return int(m.group(3)) * 60
    return int(m.group(1)) * 3600 + int(m.group(2) or 0) * 60


def check_columns(svg, seconds, problems, name, height=180.0):
    """Each column's stack is its seconds tall on the axis whose top label is its maximum."""
    labels = [t.text for t in svg.iter(SVG + "text") if t.get("text-anchor") == "end" and t.text and re.fullmatch(r"\d+h(\d\d)?|\d+m", t.text)]
    if not labels:
        problems.append(f"{name}: the columns have no axis labels")
        return
    top = max(axis_seconds(label) for label in labels)
    groups = [g for g in svg.iter(SVG + "g") if g.find(SVG + "title") is not None]
    if len(groups) != len(seconds):
        problems.append(f"{name}: {len(groups)} columns drawn, {len(seconds)} in the JSON")
        return
    if max(seconds) > top:
        problems.append(f"{name}: the axis ends at {top} s under a column of {max(seconds)} s")
    for g, want_seconds in zip(groups, seconds):
        got = sum(float(r.get("height")) for r in g.iter(SVG + "rect"))
        want = want_seconds / top * height
        if abs(got - want) > TOLERANCE:
            problems.append(f"{name}: a column is {got:.2f} px tall, its {want_seconds} s make it {want:.2f}")


def check_timeline(svg, sessions, problems, name, width=608.0, day=86_400):
    """Each interval is its seconds long on the day's 24-hour clock (the fixtures' days have no
    clock change): a rectangle each; or, past a couple of hundred, pieces of one path, each the
    union of sessions that less than a pixel parts."""
    rects = [float(r.get("width")) for r in bar_rects(svg)]
    if rects:
        drawn, wanted = rects, [s["seconds"] / day * width for s in sessions]
    else:
        drawn = []
        for p in svg.iter(SVG + "path"):
            drawn += [float(w) for w in re.findall(r"h(-?\d+(?:\.\d+)?)v", p.get("d", ""))]
        pixel = day / width
        runs = []
        for s in sorted(sessions, key=lambda s: s["start"]):
            start = datetime.fromisoformat(s["start"].replace("Z", "+00:00")).timestamp()
            end = start + s["seconds"]
            if runs and start - runs[-1][1] < pixel:
                runs[-1][1] = max(runs[-1][1], end)
            else:
                runs.append([start, end])
        wanted = [(b - a) / day * width for a, b in runs]
    if len(drawn) != len(wanted):
        problems.append(f"{name}: {len(drawn)} intervals drawn, {len(wanted)} made of the JSON's sessions")
        return
    for got, want in zip(drawn, wanted):
        if abs(got - want) > TOLERANCE:
            problems.append(f"{name}: an interval is {got} px long, the JSON's sessions make it {want:.2f}")


def check_calendar(svg, days, problems, name):
    """Each day's shade is its tracked time's step: none, under 1h, under 3h, under 6h, 6h or more."""
    shades = {}
    for rect in svg.iter(SVG + "rect"):
        title = rect.findtext(SVG + "title")
        if title and re.fullmatch(r"s[1-4]", rect.get("class") or ""):
            shades[title[:10]] = int(rect.get("class")[1])
    for d in days:
        t = d["tracked_seconds"]
        want = 0 if t <= 0 else 1 if t < 3600 else 2 if t < 3 * 3600 else 3 if t < 6 * 3600 else 4
        if shades.get(d["date"], 0) != want:
            problems.append(f"{name}: {d['date']} is shaded {shades.get(d['date'], 0)}, its {t} s make it {want}")


def bucket(daily, first, last):
    """A range's days summed as the picture buckets them: a column a day, a week from Monday, a
    month or a year — the first of those that makes at most 62 columns."""
    def starts(key, step):
        out, d = [], key(first)
        while d <= last:
            out.append(d)
            d = step(d)
        return out
    units = [
        (lambda d: d, lambda d: d + timedelta(1)),
        (lambda d: d - timedelta(d.weekday()), lambda d: d + timedelta(7)),
        (lambda d: d.replace(day=1), lambda d: (d.replace(day=28) + timedelta(4)).replace(day=1)),
        (lambda d: d.replace(month=1, day=1), lambda d: d.replace(year=d.year + 1)),
    ]
    for key, step in units:
        columns = starts(key, step)
        if len(columns) <= 62 or key is units[-1][0]:
            break
    sums = {s: 0 for s in columns}
    for entry in daily:
        sums[key(date.fromisoformat(entry["day"]))] += entry["seconds"]
    return [sums[s] for s in columns]


def chart_kind(svg):
    """What a chart is, from what it is drawn with: arcs (the ring), columns (groups with a tooltip),
    a day's clock (one track the width of the chart), ranked bars, a calendar (shaded tiles)."""
    if any("A" in p.get("d", "") for p in svg.iter(SVG + "path")):
        return "ring"
    if any(g.find(SVG + "title") is not None for g in svg.iter(SVG + "g")):
        return "columns"
    if any((r.get("class") or "").startswith("s") and r.get("class") != "sel" for r in svg.iter(SVG + "rect")) or svg.findtext(SVG + "title", "").startswith(("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")):
        return "calendar"
    if any(r.get("height") == "30" for r in svg.iter(SVG + "rect")):
        return "timeline"
    return "bars"


def check(svg_text, document, name):
    """Problems of a saved SVG against the JSON of its view, and the charts it had no JSON to check against."""
    problems = []
    unchecked = []
    try:
        root = ET.fromstring(svg_text)  # namespace-aware: every element is {http://www.w3.org/2000/svg}…
    except ET.ParseError as error:
        return [f"{name}: not well-formed XML: {error}"], []
    if root.tag != SVG + "svg":
        return [f"{name}: the root is {root.tag}, not an SVG element"], []
    if root.find(SVG + "title") is None or root.find(SVG + "desc") is None or root.get("role") != "img":
        problems.append(f"{name}: the document lacks its title, description or role")
    found = charts(root)
    if not found:
        problems.append(f"{name}: no chart")
    for title, svg in found:
        if svg.find(SVG + "desc") is None or not svg.get("aria-labelledby"):
            problems.append(f"{name}: the chart '{title}' lacks a description")
    for title, svg in found:
        kind = chart_kind(svg)
        if kind == "ring" and "categories" in document:
            check_donut(svg, document["categories"], problems, name)
        elif kind == "bars" and "limits" in document:
            limits = document["limits"]
            check_bars(svg, [l["used_seconds"] for l in limits], problems, name, limits=[l["limit_seconds"] for l in limits])
        elif kind == "bars" and "slots" in document:
            slot = next(s for s in document["slots"] if title.startswith(s["start"][11:16]))
            check_bars(svg, list(slot["apps"].values()), problems, name)
        elif kind == "bars" and isinstance(document.get("sites"), list) and "browser" in (document["sites"] or [{}])[0]:
            # `week`'s top sites: each browser's first three (the JSON lists them all, browser by browser).
            shown = {}
            for site in document["sites"]:
                shown.setdefault(site["browser"], []).append(site["seconds"])
            check_bars(svg, [s for top in shown.values() for s in top[:3]], problems, name)
        elif kind == "bars" and "apps" in document:
            # `summary` lists the top ten; every other view all it has.
            apps = document["apps"][:10] if "daily" in document else document["apps"]
            check_bars(svg, [a["seconds"] for a in apps], problems, name)
        elif kind == "columns" and "hours" in document:
            check_columns(svg, [h["seconds"] for h in document["hours"]], problems, name)
        elif kind == "columns" and isinstance(document.get("days"), list) and "total_seconds" in (document["days"] or [{}])[0]:
            check_columns(svg, [d["total_seconds"] for d in document["days"]], problems, name)
        elif kind == "columns" and "daily" in document:
            sums = bucket(document["daily"], date.fromisoformat(document["from"]), date.fromisoformat(document["to"]))
            check_columns(svg, sums, problems, name)
        elif kind == "columns" and "columns" in document:
            check_columns(svg, [c["seconds"] for c in document["columns"]], problems, name)
        elif kind == "timeline" and "sessions" in document:
            check_timeline(svg, document["sessions"], problems, name)
        elif kind == "calendar" and "days" in document:
            check_calendar(svg, document["days"], problems, name)
        else:
            unchecked.append(f"{title} ({kind})")
    return problems, unchecked
