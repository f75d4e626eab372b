#!/usr/bin/env python3
"""usage-shell against a real ActivityWatch server (aw-server 0.12.0, Python) and its export file.

Run with ``scripts/test-sources`` (builds the binary and the aw-server venv first), or directly:

    scripts/aw-venv && swift build --product usage-shell
    python3 -m unittest discover -s Tests/Sources -p 'test_activitywatch.py' -v

The binary is ``$USAGE_SHELL_BIN``, else ``.build/debug/usage-shell``; the server is ``$AW_SERVER``,
else ``$AW_VENV/bin/aw-server``, else ``.build/aw-venv/bin/aw-server``. A missing server fails the
tests (it never skips them): run ``scripts/aw-venv``.

``Tests/EndToEndTests/Fixtures/aw-export.json`` is the server's own ``GET /api/0/export`` of exactly
these events; remake it with ``python3 Tests/Sources/test_activitywatch.py --write-fixture``.

The data: one day, 2026-02-23 (UTC), and three hosts.

laptop, window bucket ``aw-watcher-window_laptop`` (currentwindow) and AFK bucket
``aw-watcher-afk_laptop`` (afkstatus). Window time counts only inside the laptop's not-afk periods:

    AFK (laptop)                                  not-afk periods
      not-afk  02-22 23:50 – 00:20   1800 s       [23:50(22nd), 00:20)
      afk      00:20 – 09:00        31200 s
      not-afk  09:00 – 09:50         3000 s       [09:00, 09:50)
      afk      09:50 – 10:05          900 s
      not-afk  10:05 – 13:30        12300 s       [10:05, 13:30)
      afk      13:30 – 14:00         1800 s
      (nothing after 14:00: no not-afk period, so no window time)

    window (laptop)                      ∩ not-afk, clipped to 2026-02-23        kept
      Terminal 02-22 23:55 – 00:10  900  23:55–00:10, day starts 00:00 → 00:00–00:10   600
      Firefox  09:00 – 09:30       1800  inside [09:00, 09:50)                        1800
      Terminal 09:30 – 10:10       2400  09:30–09:50 = 1200, afk 09:50–10:05 cut,
                                         10:05–10:10 = 300                   1200 + 300 = 1500
      Firefox  10:10 – 10:20        600  inside [10:05, 13:30)                         600
      Slack    10:20, duration 0      0  zero length: dropped                            0
      Code     10:20:00.25 – 12:00  5999.75  inside [10:05, 13:30)                  5999.75
      Slack    13:00 – 13:45       2700  not-afk ends 13:30 → 13:00–13:30              1800
      Firefox  13:50 – 13:55        300  inside afk 13:30–14:00                          0
      Notes    14:00 – 14:10        600  no AFK data at all there                        0

    web (laptop), bucket ``aw-watcher-web-firefox_laptop`` of type web.tab.current, 09:00–09:30:
    not a window bucket, ignored.

desktop, window bucket ``aw-watcher-window_desktop`` and NO afk bucket: its window events are kept
whole (then clipped to the day):

      Calculator 19:00 – 19:08:35.968  515.968                                     515.968
                    (515.968 is no exact double: 515.968 * 1e6 = 515967999.99999994, so
                    microseconds must be rounded to the nearest, not truncated)
      Spotify  20:00 – 21:30       5400                                                5400
      Firefox  21:30 – 21:45        900                                                 900
      Terminal 23:50 – 02-24 00:20 1800  day ends 24:00 → 23:50–24:00                   600

tablet: only an AFK bucket ``aw-watcher-afk_tablet``, afk all day 00:00–24:00. It belongs to
another host, so it must not remove any of the desktop's (or laptop's) time.

Per app on 2026-02-23 (UTC):
      Terminal  600 + 1500 + 600        = 2700
      Firefox   1800 + 600 + 0 + 900    = 3300
      Code                              = 5999.75
      Slack     0 + 1800                = 1800
      Spotify                           = 5400
      Calculator                        = 515.968
      Notes                             = 0 (not listed)
      total     2700 + 3300 + 5999.75 + 1800 + 5400 + 515.968 = 19715.718
No two kept pieces overlap (laptop 00:00–13:30, desktop 19:00–24:00), so screen time = 19715.718.

Per hour (UTC):
      00  Terminal 600                                      =  600
      09  Firefox 1800 + Terminal 1200                      = 3000
      10  Terminal 300 + Firefox 600 + Code 2399.75         = 3299.75
      11  Code 3600                                         = 3600
      13  Slack 1800                                        = 1800
      19  Calculator 515.968                                =  515.968
      20  Spotify 3600                                      = 3600
      21  Spotify 1800 + Firefox 900                        = 2700
      23  Terminal 600                                      =  600
      every other hour 0;  sum = 19715.718
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aw_server import AWServer, event  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
BIN = os.path.abspath(os.environ.get("USAGE_SHELL_BIN") or REPO_ROOT / ".build" / "debug" / "usage-shell")
FIXTURE = REPO_ROOT / "Tests" / "EndToEndTests" / "Fixtures" / "aw-export.json"
DAY = "2026-02-23"
RUN_TIMEOUT = 60


def t(hhmmss, day=DAY):
    """An RFC 3339 UTC timestamp on `day`."""
    return f"{day}T{hhmmss}Z"


# bucket id → (type, client, hostname, events oldest first)
BUCKETS = {
    "aw-watcher-window_laptop": ("currentwindow", "aw-watcher-window", "laptop", [
        event(t("23:55:00", "2026-02-22"), 900, app="Terminal", title="vim notes.txt"),
        event(t("09:00:00"), 1800, app="Firefox", title="Inbox"),
        event(t("09:30:00"), 2400, app="Terminal", title="make test"),
        event(t("10:10:00"), 600, app="Firefox", title="Docs"),
        event(t("10:20:00"), 0, app="Slack", title="general"),
        event(t("10:20:00.250"), 5999.75, app="Code", title="main.swift"),
        event(t("13:00:00"), 2700, app="Slack", title="standup"),
        event(t("13:50:00"), 300, app="Firefox", title="News"),
        event(t("14:00:00"), 600, app="Notes", title="todo"),
    ]),
    "aw-watcher-afk_laptop": ("afkstatus", "aw-watcher-afk", "laptop", [
        event(t("23:50:00", "2026-02-22"), 1800, status="not-afk"),
        event(t("00:20:00"), 31200, status="afk"),
        event(t("09:00:00"), 3000, status="not-afk"),
        event(t("09:50:00"), 900, status="afk"),
        event(t("10:05:00"), 12300, status="not-afk"),
        event(t("13:30:00"), 1800, status="afk"),
    ]),
    "aw-watcher-web-firefox_laptop": ("web.tab.current", "aw-client-web", "laptop", [
        event(t("09:00:00"), 1800, url="https://example.org/inbox", title="Inbox", audible=False, incognito=False),
    ]),
    "aw-watcher-window_desktop": ("currentwindow", "aw-watcher-window", "desktop", [
        event(t("19:00:00"), 515.968, app="Calculator", title="Calculator"),
        event(t("20:00:00"), 5400, app="Spotify", title="Radio"),
        event(t("21:30:00"), 900, app="Firefox", title="Recipes"),
        event(t("23:50:00"), 1800, app="Terminal", title="htop"),
    ]),
    "aw-watcher-afk_tablet": ("afkstatus", "aw-watcher-afk", "tablet", [
        event(t("00:00:00"), 86400, status="afk"),
    ]),
}

EXPECTED_APPS = {"Terminal": 2700, "Firefox": 3300, "Code": 5999.75, "Slack": 1800, "Spotify": 5400, "Calculator": 515.968}
EXPECTED_TOTAL = 19715.718
EXPECTED_HOURS = {0: 600, 9: 3000, 10: 3299.75, 11: 3600, 13: 1800, 19: 515.968, 20: 3600, 21: 2700, 23: 600}
EXPECTED_HOUR_APPS = {
    0: {"Terminal": 600},
    9: {"Firefox": 1800, "Terminal": 1200},
    10: {"Terminal": 300, "Firefox": 600, "Code": 2399.75},
    11: {"Code": 3600},
    13: {"Slack": 1800},
    19: {"Calculator": 515.968},
    20: {"Spotify": 3600},
    21: {"Spotify": 1800, "Firefox": 900},
    23: {"Terminal": 600},
}


def populate(aw):
    for bucket_id, (bucket_type, client, hostname, events) in BUCKETS.items():
        aw.create_bucket(bucket_id, bucket_type, hostname, client=client)
        aw.insert_events(bucket_id, events)


def check_binary():
    if not os.access(BIN, os.X_OK):
        raise RuntimeError(
            f"usage-shell binary not found at {BIN}: run `swift build --product usage-shell` "
            "or set USAGE_SHELL_BIN (scripts/test-sources does both)")


def run_usage_shell(args):
    """Runs the binary in a temporary HOME with empty XDG dirs (so no category rules), TZ=UTC."""
    with tempfile.TemporaryDirectory(prefix="usage-shell-aw-") as home:
        env = {
            "HOME": home,
            "XDG_CONFIG_HOME": os.path.join(home, "config"),
            "XDG_STATE_HOME": os.path.join(home, "state"),
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "TZ": "UTC",
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
        }
        return subprocess.run([BIN, *args], env=env, cwd=home, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=RUN_TIMEOUT)


def show_json(source):
    """`usage-shell SOURCE --format json --tz UTC --day 2026-02-23 -c show`, parsed."""
    r = run_usage_shell([source, "--format", "json", "--tz", "UTC", "--day", DAY, "-c", "show"])
    if r.returncode != 0:
        raise AssertionError(f"usage-shell {source} exited {r.returncode}\nstderr: {r.stderr}\nstdout: {r.stdout}")
    lines = r.stdout.splitlines()
    if len(lines) != 1:
        raise AssertionError(f"expected one JSON line from {source}, got {len(lines)}:\n{r.stdout}\nstderr: {r.stderr}")
    return json.loads(lines[0])


def exported_events(export):
    """{bucket id: (type, hostname, [(timestamp, duration, data)] oldest first)} of an export document."""
    return {
        bid: (b["type"], b["hostname"],
              sorted((e["timestamp"], e["duration"], e["data"]) for e in b["events"]))
        for bid, b in export["buckets"].items()
    }


def normalized(ts):
    """The server's spelling of our timestamps: UTC as +00:00, fraction as microseconds, none if 0."""
    from datetime import datetime
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).isoformat()


def expected_export_events():
    return {
        bid: (bucket_type, hostname,
              sorted((normalized(e["timestamp"]), float(e["duration"]), e["data"]) for e in events))
        for bid, (bucket_type, _client, hostname, events) in BUCKETS.items()
    }


class ActivityWatchServerTests(unittest.TestCase):
    """One aw-server for the class, filled with BUCKETS."""

    @classmethod
    def setUpClass(cls):
        cls.aw = AWServer.start()  # raises AWServerMissing ("run scripts/aw-venv") when not installed
        cls.addClassCleanup(cls.aw.stop)
        populate(cls.aw)
        cls.tmp = tempfile.TemporaryDirectory(prefix="usage-shell-aw-export-")
        cls.addClassCleanup(cls.tmp.cleanup)
        cls.export_path = cls.aw.export_to(os.path.join(cls.tmp.name, "aw-export.json"))

    # The server and its data (no usage-shell involved).

    def test_server_lists_the_buckets_with_type_and_hostname(self):
        buckets = self.aw.buckets()
        self.assertEqual(set(buckets), set(BUCKETS))
        for bid, (bucket_type, client, hostname, _events) in BUCKETS.items():
            self.assertEqual(buckets[bid]["id"], bid)
            self.assertEqual(buckets[bid]["type"], bucket_type)
            self.assertEqual(buckets[bid]["client"], client)
            self.assertEqual(buckets[bid]["hostname"], hostname)

    def test_events_come_all_newest_first_without_limit(self):
        events = self.aw.events("aw-watcher-window_laptop")
        self.assertEqual(len(events), len(BUCKETS["aw-watcher-window_laptop"][3]))
        stamps = [e["timestamp"] for e in events]
        self.assertEqual(stamps, sorted(stamps, reverse=True))
        self.assertEqual(events[0]["data"], {"app": "Notes", "title": "todo"})

    def test_events_in_a_range_are_trimmed_to_it_by_the_server(self):
        # aw-server trims events to [start, end], but (aw_datastore.Bucket.get) first rounds `end`
        # UP to the next millisecond: an event crossing `end` ends 1 ms after it. `start` is exact.
        events = self.aw.events("aw-watcher-window_desktop", start=t("21:40:00"), end="2026-02-24T00:00:00+00:00")
        self.assertEqual([(e["data"]["app"], e["timestamp"], e["duration"]) for e in events], [
            ("Terminal", "2026-02-23T23:50:00+00:00", 600.001),  # 23:50 – 00:00:00.001
            ("Firefox", "2026-02-23T21:40:00+00:00", 300.0),     # 21:40 – 21:45
        ])

    def test_export_holds_every_event(self):
        export = json.loads(Path(self.export_path).read_text())
        self.assertEqual(list(export), ["buckets"])
        self.assertEqual(exported_events(export), expected_export_events())

    def test_committed_fixture_is_an_export_of_these_events(self):
        export = json.loads(FIXTURE.read_text())
        self.assertEqual(exported_events(export), expected_export_events(),
                         f"{FIXTURE} differs from BUCKETS: remake it with "
                         "`python3 Tests/Sources/test_activitywatch.py --write-fixture`")

    # usage-shell.

    def assert_expected_day(self, report):
        self.assertEqual(report["day"], DAY)
        self.assertEqual(report["time_zone"], "UTC")
        apps = {a["name"]: a["seconds"] for a in report["apps"]}
        self.assertEqual(apps, EXPECTED_APPS)
        self.assertEqual(report["total_seconds"], EXPECTED_TOTAL)
        self.assertEqual(report["screen_time_seconds"], EXPECTED_TOTAL)
        self.assertEqual({a["category"] for a in report["apps"]}, {"Other"})
        self.assertEqual([(c["name"], c["seconds"]) for c in report["categories"]], [("Other", EXPECTED_TOTAL)])
        hours = {h["hour"]: h["seconds"] for h in report["hours"] if h["seconds"]}
        self.assertEqual(hours, EXPECTED_HOURS)
        hour_apps = {h["hour"]: h["apps"] for h in report["hours"] if h["seconds"]}
        self.assertEqual(hour_apps, EXPECTED_HOUR_APPS)

    def test_aw_url_shows_the_hand_computed_day(self):
        check_binary()
        self.assert_expected_day(show_json(self.aw.url))

    def test_export_file_shows_the_same_day_as_the_server(self):
        check_binary()
        from_server = show_json(self.aw.url)
        from_file = show_json(self.export_path)
        self.assertEqual(from_file, from_server)
        self.assert_expected_day(from_file)

    def test_committed_fixture_shows_the_same_day_as_the_server(self):
        check_binary()
        self.assertEqual(show_json(str(FIXTURE)), show_json(self.aw.url))

    def test_bug_a_live_server_loaded_showed_no_sites(self):
        # The web bucket (example.org 09:00–09:30) counted while Firefox was in front (09:00–09:30),
        # as the export file of the same server counts it; `load aw://…` at the prompt too.
        check_binary()

        def sites(*args):
            r = run_usage_shell([*args, "--format", "json", "--tz", "UTC", "-c", f"sites {DAY}"])
            self.assertEqual(r.returncode, 0, r.stderr)
            return json.loads(r.stdout)

        from_server = sites(self.aw.url)
        self.assertEqual([(s["site"], s["seconds"], s["sessions"]) for s in from_server["sites"]], [("example.org", 1800, 1)])
        self.assertEqual(from_server, sites(self.export_path))
        r = run_usage_shell(["--format", "json", "--tz", "UTC", "-c", f"load {self.aw.url}", "-c", f"sites {DAY}"])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout.splitlines()[-1]), from_server)


class UnreachableServerTests(unittest.TestCase):
    def unreachable_source(self):
        """A port bound by this test and never listened on, kept until the test ends: a free port
        given back at once could be taken by a test beside this one before it is tried."""
        held = socket.socket()
        self.addCleanup(held.close)
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        with socket.socket() as probe:  # nothing listens there
            self.assertNotEqual(probe.connect_ex(("127.0.0.1", port)), 0)
        return f"aw://127.0.0.1:{port}"

    def test_bug_the_unreachable_port_was_given_back_before_it_was_tried(self):
        port = int(self.unreachable_source().rsplit(":", 1)[1])
        with socket.socket() as other:
            with self.assertRaises(OSError, msg=f"port {port} was free for another test to take"):
                other.bind(("127.0.0.1", port))

    def test_loading_an_unreachable_port_is_a_one_line_error_and_status_1(self):
        check_binary()
        source = self.unreachable_source()
        r = run_usage_shell(["--format", "json", "--tz", "UTC", "-c", f"load {source}"])
        self.assertEqual(r.returncode, 1, f"stderr: {r.stderr!r}")
        self.assertEqual(r.stdout, "")
        lines = r.stderr.splitlines()
        self.assertEqual(len(lines), 1, f"expected a one-line error, got: {r.stderr!r}")
        self.assertIn(source, lines[0])
        self.assertIn("connect", lines[0])

    def test_an_unreachable_source_argument_fails_show_with_status_1(self):
        # As with a missing file: the load's error line, then show's "no data loaded" line.
        check_binary()
        source = self.unreachable_source()
        r = run_usage_shell([source, "--format", "json", "--tz", "UTC", "--day", DAY, "-c", "show"])
        self.assertEqual(r.returncode, 1, f"stderr: {r.stderr!r}")
        self.assertEqual(r.stdout, "")
        first = r.stderr.splitlines()[0]
        self.assertIn(source, first)
        self.assertIn("connect", first)


def write_fixture(path=FIXTURE):
    """Starts a server, fills it with BUCKETS and saves its /api/0/export at `path`, as it comes."""
    with AWServer.start() as aw:
        populate(aw)
        aw.export_to(path)
    print(f"wrote {path}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write-fixture"]:
        write_fixture(Path(sys.argv[2]) if len(sys.argv) > 2 else FIXTURE)
    else:
        unittest.main()
