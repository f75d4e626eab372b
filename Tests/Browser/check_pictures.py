#!/usr/bin/env python3
# check_pictures.py — every saved picture (NAME.html and NAME.svg beside NAME.json) loaded in headless Chromium and checked as a person and a reviewer would: no console error, no request leaving the page, no alert, nothing wider than a 320 px phone or a 1280 px desktop, not blank (light, dark, printed on A4 without a cut chart), readable from 390 to 1600 px (no word broken, no time wrapped, no text under 10 px, 4.5:1 contrast), the totals' text equal to the JSON's, the data's names shown as text and never as markup; the SVG parsed as XML with namespaces and its geometry read back against the JSON (svg_geometry.py).
# Usage: check_pictures.py FOLDER [FOLDER …]   (exit 1 with every problem listed)
import json
import os
import re
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
import svg_geometry  # noqa: E402

WIDTHS = (320, 1280)
# A4 at 96 px an inch with 14 mm margins (the report's @page): the printed page's content box.
A4_WIDTH, A4_HEIGHT = round((210 - 28) / 25.4 * 96), round((297 - 28) / 25.4 * 96)


def duration(seconds):
    """The program's duration text, written again from its rule: whole minutes, half a minute up; `<1m` under it."""
    micros = round(seconds * 1_000_000)
    minutes = (micros + 30_000_000) // 60_000_000 if micros > 0 else 0
    if minutes <= 0:
        return "<1m" if micros > 0 else "0m"
    if minutes < 60:
        return f"{minutes}m"
    return f"{minutes // 60}h" if minutes % 60 == 0 else f"{minutes // 60}h {minutes % 60}m"


def expected_total(document):
    """The headline the JSON says: its total (or the sum of its hours or days) as a duration; a limits'
    count of crossed limits."""
    if "limits" in document:
        crossed = sum(1 for l in document["limits"] if l["crossed"])
        n = len(document["limits"])
        return f"{crossed} of {n} limit{'' if n == 1 else 's'} crossed"
    for key in ("category_seconds", "total_seconds", "tracked_seconds", "seconds"):
        if key in document:
            return duration(document[key])
    if "hours" in document:
        return duration(sum(h["seconds"] for h in document["hours"]))
    if "slots" in document:
        return duration(sum(s["seconds"] for s in document["slots"]))
    if "days" in document:
        key = "total_seconds" if "total_seconds" in document["days"][0] else "tracked_seconds"
        return duration(sum(d[key] for d in document["days"]))
    raise ValueError("no total in the JSON")


BIDI = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


def safe(name):
    """A data name as the terminal shows it (controls and bidi controls as escapes), and the characters XML cannot hold."""
    out = []
    for ch in name:
        v = ord(ch)
        if ch == "\x1b":
            out.append("\\e")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif v < 0x20 or 0x7F <= v <= 0x9F or v in (0x2028, 0x2029) or v in BIDI or v in (0xFFFE, 0xFFFF):
            out.append("\\u{%X}" % v)
        else:
            out.append(ch)
    return "".join(out)


def names(document):
    """The names of apps and categories the JSON holds that the picture lists: `summary`'s top ten
    apps, and the categories the ring names (past six, the sixth and later fold into `N others`)."""
    found = set()
    apps = document.get("apps") if isinstance(document.get("apps"), list) else []
    for app in apps[:10] if "daily" in document else apps:
        found.add(app["name"])
    categories = document.get("categories") if isinstance(document.get("categories"), list) else []
    for category in categories[:5] if len(categories) > 6 else categories:
        found.add(category["name"])
    return found


def png_not_blank(data):
    """Whether a PNG shows something: a few colours, and at least 1% of pixels off the most common one."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    idat = b""
    while pos < len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            chunks["ihdr"] = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height = int.from_bytes(chunks["ihdr"][0:4], "big"), int.from_bytes(chunks["ihdr"][4:8], "big")
    depth, color = chunks["ihdr"][8], chunks["ihdr"][9]
    assert depth == 8 and color in (2, 6), "an 8-bit RGB(A) screenshot"
    bpp = 4 if color == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    previous = bytearray(stride)
    counts = {}
    pos = 0
    for _ in range(height):
        kind = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        for i in range(0, stride, bpp * 2):  # every other pixel is plenty
            key = bytes(line[i:i + 3])
            counts[key] = counts.get(key, 0) + 1
        previous = line
    total = sum(counts.values())
    common = max(counts.values())
    return len(counts) >= 3 and (total - common) / total >= 0.01


LAYOUT = """(() => {
  const w = document.documentElement.clientWidth;
  const bad = [];
  for (const e of document.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && (r.right > w + 0.5 || r.left < -0.5)) bad.push(e.tagName + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
  }
  const markup = document.querySelectorAll('script, img, iframe, object, embed, foreignObject, link, audio, video').length;
  const total = document.getElementById('total');
  return {width: w, scroll: document.documentElement.scrollWidth, bad: bad.slice(0, 5), markup,
          total: total ? total.textContent : null, text: document.documentElement.textContent,
          background: getComputedStyle(document.body || document.documentElement).backgroundColor};
})()"""

PRINT = """(() => {
  const tall = [];
  for (const e of document.querySelectorAll('figure')) {
    const r = e.getBoundingClientRect();
    if (r.height > %d) tall.push(e.tagName + ' ' + Math.round(r.height));
  }
  const loose = [...document.querySelectorAll('figure, tr')].filter(e => getComputedStyle(e).breakInside !== 'avoid').length;
  const wide = [...document.querySelectorAll('table, figure')].filter(e => e.getBoundingClientRect().width > %d + 0.5).length;
  return {tall, loose, wide};
})()""" % (A4_HEIGHT, A4_WIDTH)


CALENDAR = """(() => [...document.querySelectorAll('.cal td[title]')].map(td => {
  const m = td.className.match(/\\bl([1-4])\\b/);
  const level = m ? Number(m[1]) : 0;
  const want = level ? getComputedStyle(document.documentElement).getPropertyValue('--s' + level).trim() : null;
  return [td.title.slice(0, 10), level, getComputedStyle(td).backgroundColor, want];
}))()"""


# Issue 51, item 3: the widths a picture must read at (a phone, a small laptop, desktops).
READ_WIDTHS = (390, 800, 1200, 1600)
# The smallest text a person reads without zooming, in CSS pixels as drawn (an SVG's text times its scale).
SMALLEST_TEXT = 10
# WCAG 2.1 AA for text: 4.5:1 against what is behind it.
CONTRAST = 4.5
# A word longer than this may be longer than a phone's line (a hostile name, a path): it may break.
LONGEST_WORD = 24

READABLE = """(() => {
  const found = {broken: [], wrapped: [], small: [], faint: []};
  const parse = c => { const m = c.match(/rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)(?:,\\s*([\\d.]+))?\\)/); return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null; };
  const lum = ([r, g, b]) => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)]; return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const shapes = new Set(['rect', 'path', 'circle', 'ellipse', 'polygon']);
  // What is painted behind a point: the topmost filled SVG shape or HTML background under it.
  function behind(x, y, self) {
    for (const e of document.elementsFromPoint(x, y)) {
      // An SVG text is not its own background; an HTML element's background is behind its text.
      if (self.contains(e) && (e !== self || self instanceof SVGElement)) continue;
      const cs = getComputedStyle(e);
      if (e instanceof SVGElement) {
        if (!shapes.has(e.tagName)) continue;
        const fill = parse(cs.fill || '');
        if (fill && fill[3] > 0 && +cs.fillOpacity > 0) return fill;
      } else {
        const bg = parse(cs.backgroundColor);
        if (bg && bg[3] > 0) return bg;
      }
    }
    // Nothing painted under it: the page's own background (the canvas takes the root's or body's).
    for (const e of [document.body, document.documentElement]) {
      const bg = e && parse(getComputedStyle(e).backgroundColor);
      if (bg && bg[3] > 0) return bg;
    }
    return matchMedia('(prefers-color-scheme: dark)').matches && document.documentElement instanceof HTMLElement ? [18, 18, 18, 1] : [255, 255, 255, 1];
  }
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const page = Math.min(document.documentElement.clientWidth, (document.querySelector('main') || document.documentElement).clientWidth);
  const lines = rects => new Set(rects.filter(r => r.width > 0 && r.height > 0).map(r => Math.round(r.top + r.height / 2))).size;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('title, desc, style, script, head')) continue;
    const text = node.textContent;
    if (!text.trim()) continue;
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
    if (!rects.length) continue;
    const cs = getComputedStyle(el);
    const svg = el instanceof SVGElement;
    let size = parseFloat(cs.fontSize);
    if (svg) { const m = el.getScreenCTM(); if (m) size *= Math.hypot(m.a, m.b); }
    const what = text.trim().slice(0, 40);
    if (size < %(smallest)s - 0.05) found.small.push(what + ' at ' + size.toFixed(1) + ' px');
    if (!svg) {
      for (const m of text.matchAll(/\\S+/g)) {
        if ([...m[0]].length > %(longest)s) continue;
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        const parts = [...range.getClientRects()];
        // A word wider than a quarter of the page (a long name in a phone's column of names) may break: no column of names is narrower.
        if (parts.reduce((a, r) => a + r.width, 0) > page / 4) continue;
        if (lines(parts) > 1) found.broken.push(m[0] + ' (in ' + el.tagName.toLowerCase() + ')');
      }
      for (const m of text.matchAll(/(?:\\d+h \\d+m|\\d+:\\d\\d)/g)) {
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        if (lines([...range.getClientRects()]) > 1) found.wrapped.push(m[0] + ' (in ' + el.tagName.toLowerCase() + ')');
      }
    }
    const ink = parse(svg ? cs.fill : cs.color);
    if (ink && ink[3] > 0) {
      // elementsFromPoint sees only the viewport: the text is brought into it first.
      let r = rects[0];
      if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) {
        el.scrollIntoView({block: 'center', inline: 'center'});
        range.selectNodeContents(node);
        r = [...range.getClientRects()].filter(q => q.width > 0 && q.height > 0)[0] || r;
      }
      const x = Math.min(Math.max(r.left, 0) + 2, innerWidth - 1), y = Math.min(Math.max(r.top + r.height / 2, 1), innerHeight - 1);
      const back = behind(x, y, el);
      const c = ratio(ink, back);
      if (c < %(contrast)s) found.faint.push(what + ' ' + c.toFixed(2) + ':1 (rgb(' + ink.slice(0, 3).join(', ') + ') on rgb(' + back.slice(0, 3).join(', ') + '))');
    }
  }
  for (const k of Object.keys(found)) found[k] = [...new Set(found[k])];
  return found;
})()""" % {"smallest": SMALLEST_TEXT, "longest": LONGEST_WORD, "contrast": CONTRAST}


def check_readable(browser, url, is_html, problems, name):
    """Issue 51, item 3, at each width light and dark: no word broken inside itself, no duration or
    clock time wrapped, no text under 10 CSS px as drawn, every text at least 4.5:1 against what is
    painted behind it."""
    for width in READ_WIDTHS:
        for dark in (False, True):
            page = browser.open(url, width, mobile=is_html and width < 500, dark=dark)
            label = f"{name} at {width} px{' dark' if dark else ''}"
            try:
                found = page.evaluate(READABLE)
            finally:
                page.close()
            for kind, what in (("words broken inside themselves", "broken"), ("times wrapped", "wrapped"),
                               (f"text under {SMALLEST_TEXT} px", "small"), (f"text under {CONTRAST}:1 contrast", "faint")):
                if found[what]:
                    problems.append(f"{label}: {len(found[what])} {kind}: {found[what][:4]}")


def rgb(hex_colour):
    """`#7fcb8a` as the browser writes a computed colour: `rgb(127, 203, 138)`."""
    v = int(hex_colour.lstrip("#"), 16)
    return f"rgb({v >> 16}, {(v >> 8) & 0xFF}, {v & 0xFF})"


def check_calendar(page, document, problems, label):
    """The HTML calendar: each day's shade is its tracked time's step, and is drawn in that shade."""
    days = {d["date"]: d["tracked_seconds"] for d in document["days"]}
    for date, level, background, want in page.evaluate(CALENDAR):
        t = days.get(date, 0)
        expected = 0 if t <= 0 else 1 if t < 3600 else 2 if t < 3 * 3600 else 3 if t < 6 * 3600 else 4
        if level != expected:
            problems.append(f"{label}: {date} is shaded {level}, its {t} s make it {expected}")
        elif want and background != rgb(want):
            problems.append(f"{label}: {date} should be drawn {want} ({rgb(want)}) but is {background}")


def check_page(browser, path, document, problems, name):
    url = "file://" + os.path.abspath(path)
    is_html = path.endswith(".html")
    for width, dark in [(w, False) for w in WIDTHS] + [(WIDTHS[-1], True)]:
        page = browser.open(url, width, mobile=is_html and width < 500, dark=dark)
        label = f"{name} at {width} px{' dark' if dark else ''}"
        try:
            leaving = [u for u in page.requests() if u != url]
            if leaving:
                problems.append(f"{label}: requests left the page: {leaving[:3]}")
            if page.errors():
                problems.append(f"{label}: errors: {page.errors()[:3]}")
            if page.dialogs():
                problems.append(f"{label}: a dialog opened: {page.dialogs()}")
            facts = page.evaluate(LAYOUT)
            # An SVG file keeps its own size, as an image does (a narrower browser scrolls it); the HTML report reflows.
            if is_html and (facts["scroll"] > facts["width"] or facts["bad"]):
                problems.append(f"{label}: wider than the viewport ({facts['scroll']} > {facts['width']}): {facts['bad']}")
            if facts["markup"]:
                problems.append(f"{label}: {facts['markup']} script, image, frame or embedded element(s)")
            want = expected_total(document)
            if facts["total"] is None or not facts["total"].startswith(want):
                problems.append(f"{label}: the totals say {facts['total']!r}, the JSON {want!r}")
            for n in names(document):
                if safe(n) not in facts["text"]:
                    problems.append(f"{label}: the name {safe(n)!r} is not shown as text")
            if is_html and dark and facts["background"] in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"):
                problems.append(f"{label}: the page stays light in dark mode ({facts['background']})")
            if is_html and isinstance(document.get("days"), list) and document["days"] and "tracked_seconds" in document["days"][0]:
                check_calendar(page, document, problems, label)
            if not png_not_blank(page.screenshot()):
                problems.append(f"{label}: the screenshot is blank")
        finally:
            page.close()
    check_readable(browser, url, is_html, problems, name)
    if is_html:
        page = browser.open(url, A4_WIDTH, height=A4_HEIGHT, print_media=True)
        try:
            facts = page.evaluate(PRINT)
            if facts["tall"] or facts["loose"] or facts["wide"]:
                problems.append(f"{name} printed on A4: charts taller than a page {facts['tall']}, {facts['loose']} charts or rows may be cut, "
                                f"{facts['wide']} tables or charts wider than the page")
        finally:
            page.close()


def main(folders):
    problems, checked, unchecked = [], 0, []
    browser = cdp.Browser()
    try:
        for folder in folders:
            for entry in sorted(os.listdir(folder)):
                if not entry.endswith(".json"):
                    continue
                base = os.path.join(folder, entry[:-5])
                document = json.load(open(base + ".json", encoding="utf-8"))
                for ext in (".html", ".svg"):
                    if not os.path.exists(base + ext):
                        continue
                    name = os.path.basename(base) + ext
                    if ext == ".svg":
                        found, skipped = svg_geometry.check(open(base + ext, encoding="utf-8").read(), document, name)
                        problems += found
                        unchecked += [f"{name}: {s}" for s in skipped]
                    check_page(browser, base + ext, document, problems, name)
                    checked += 1
    finally:
        browser.close()
    for line in unchecked:
        print(f"  (no JSON to check the geometry of {line} against)")
    if problems:
        print(f"check_pictures: {len(problems)} problem(s) in {checked} files:", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        return 1
    if checked == 0:
        print("check_pictures: no picture found", file=sys.stderr)
        return 1
    print(f"check_pictures: {checked} pictures loaded in Chromium at {' and '.join(map(str, WIDTHS))} px, light and dark, and read at "
          f"{', '.join(map(str, READ_WIDTHS))} px; no problem")
    return 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: check_pictures.py FOLDER [FOLDER …]")
    sys.exit(main(sys.argv[1:]))
