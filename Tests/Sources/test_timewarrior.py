#!/usr/bin/env python3
"""usage-shell against the real Timewarrior (Debian's ``timewarrior`` package, ``timew``).

Intervals are tracked with ``timew`` itself in a temporary database (``TIMEWARRIORDB``): closed
ones, one across midnight, several tags typed in an order Timewarrior does not keep, one without
tags, and one still running. ``timew export`` is loaded, and for the same days and zones our day
totals must equal what ``timew summary`` says, the running interval counted up to now: our total
lies between Timewarrior's just before and just after our run. The activity names must be the
tag sets exactly as ``timew summary`` shows them, and the running interval must be said to run.

Run with ``scripts/test-sources`` (sets ``$USAGE_SHELL_BIN``), or directly:

    USAGE_SHELL_BIN=$(swift build --show-bin-path)/usage-shell python3 Tests/Sources/test_timewarrior.py -v
"""

import datetime
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path
from zoneinfo import ZoneInfo

REPO_ROOT = Path(__file__).resolve().parents[2]
BIN = os.path.abspath(os.environ.get("USAGE_SHELL_BIN") or REPO_ROOT / ".build" / "debug" / "usage-shell")
TIMEW = shutil.which("timew")
SANITIZER_OPTIONS = ("ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS")

# Where the intervals are tracked (Timewarrior reads and writes local times of TZ).
TRACK_ZONE = "Europe/Paris"
# Where the days are compared: the tracking zone, UTC, one behind, one half an hour off.
ZONES = ["Europe/Paris", "UTC", "America/New_York", "Asia/Kolkata"]


def setUpModule():
    if not os.access(BIN, os.X_OK):
        raise RuntimeError(f"usage-shell binary not found at {BIN}: run `swift build --product usage-shell` or set USAGE_SHELL_BIN")
    if TIMEW is None:
        raise RuntimeError("timew not found: these tests need the real Timewarrior (apt-get install timewarrior)")


def hms(text):
    """Timewarrior's H:MM:SS as seconds."""
    h, m, s = (int(x) for x in text.split(":"))
    return h * 3600 + m * 60 + s


class RealTimewarrior(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="usage-shell-timew-"))
        cls.db = cls.tmp / "timewarrior"
        (cls.db / "data").mkdir(parents=True)
        (cls.db / "timewarrior.cfg").write_text("")
        cls.home = cls.tmp / "home"
        (cls.home / "config" / "usage-shell").mkdir(parents=True)
        # A rule on one tag of a tag set: categories come from the rules, never from a tag's place.
        (cls.home / "config" / "usage-shell" / "categories.json").write_text(
            json.dumps({"rules": [{"match": "^gaming$", "category": "Games"}, {"match": "^client$", "category": "Work"}]}))

        local = ZoneInfo(TRACK_ZONE)
        now = datetime.datetime.now(tz=local)
        # Still running: started the day before yesterday in the evening, so that it covers two
        # whole local days and part of today, whatever the hour the test runs.
        running_start = (now - datetime.timedelta(days=2)).replace(hour=21, minute=17, second=0, microsecond=0)
        cls.timew("track", "2026-02-23T09:00:00", "-", "2026-02-23T10:15:30", "gaming", "fun")  # two tags, typed out of order
        cls.timew("track", "2026-02-23T11:00", "-", "2026-02-23T11:30", "work", "my tag", "client")
        cls.timew("track", "2026-02-23T23:10", "-", "2026-02-24T00:50", "night")  # across midnight
        cls.timew("track", "2026-02-24T08:00", "-", "2026-02-24T08:05")  # no tags
        cls.timew("track", "2026-02-24T12:00", "-", "2026-02-24T12:45", "fun", "gaming")  # the same set, typed in order
        cls.timew("start", running_start.strftime("%Y-%m-%dT%H:%M:%S"), "client", "work")
        cls.export = cls.tmp / "export.json"
        cls.export.write_text(cls.timew("export").stdout)
        cls.running_start = running_start
        cls.local_today = now.date()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def timew(cls, *args, zone=TRACK_ZONE):
        env = {"TIMEWARRIORDB": str(cls.db), "TZ": zone, "HOME": str(cls.tmp), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        r = subprocess.run([TIMEW, *args, ":yes"], env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
        if r.returncode != 0:
            raise RuntimeError(f"timew {' '.join(args)} failed ({r.returncode}): {r.stderr}{r.stdout}")
        return r

    @classmethod
    def summary(cls, day, zone):
        """`timew summary DAY - DAY+1` in `zone`: the day's total in seconds, and the text."""
        following = day + datetime.timedelta(days=1)
        out = cls.timew("summary", day.isoformat(), "-", following.isoformat(), zone=zone).stdout
        if "No filtered data found" in out:
            return 0, out
        totals = [line.strip() for line in out.splitlines() if re.fullmatch(r"\s+\d+:\d\d:\d\d", line)]
        if len(totals) != 1:
            raise AssertionError(f"no grand total in timew summary:\n{out}")
        return hms(totals[0]), out

    def usage_shell(self, *args, raw=False):
        """Runs usage-shell on the export: each stdout line as JSON, or (`raw`) stdout's text."""
        env = {
            "HOME": str(self.home), "XDG_CONFIG_HOME": str(self.home / "config"), "XDG_STATE_HOME": str(self.home / "state"),
            "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "NO_COLOR": "1",
        }
        env.update({k: os.environ[k] for k in SANITIZER_OPTIONS if k in os.environ})
        r = subprocess.run([BIN, str(self.export), *args], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "", "a Timewarrior export skips nothing, so the load says nothing")
        return r.stdout if raw else [json.loads(line) for line in r.stdout.splitlines()]

    def days(self):
        yesterday = self.local_today - datetime.timedelta(days=1)
        return [datetime.date(2026, 2, 23), datetime.date(2026, 2, 24), datetime.date(2026, 2, 25),
                self.running_start.date(), yesterday, self.local_today]

    def test_day_totals_equal_timew_summary_in_every_zone(self):
        compared = 0
        for zone in ZONES:
            for day in self.days():
                with self.subTest(zone=zone, day=day.isoformat()):
                    before, text = self.summary(day, zone)
                    [ours] = self.usage_shell("--tz", zone, "--format", "json", "-c", f"day {day.isoformat()}")
                    after, _ = self.summary(day, zone)
                    seconds = int(ours["total_seconds"])  # Timewarrior shows whole seconds
                    self.assertEqual(ours["time_zone"], zone)
                    # The running interval is counted up to now: ours lies between Timewarrior's
                    # totals just before and just after our run (equal on days it does not touch).
                    self.assertTrue(before <= seconds <= after, f"ours {ours['total_seconds']} vs timew {before}..{after}\n{text}")
                    compared += 1
        self.assertEqual(compared, len(ZONES) * len(self.days()))

    def test_activities_are_tag_sets_as_timew_shows_them(self):
        [apps] = self.usage_shell("--tz", TRACK_ZONE, "--day", "2026-02-23", "--format", "json", "-c", "apps")
        names = [a["name"] for a in apps["apps"]]
        self.assertEqual(sorted(names), sorted(["fun, gaming", "client, my tag, work", "night"]))
        _, text = self.summary(datetime.date(2026, 2, 23), TRACK_ZONE)
        for name in names:
            self.assertIn(f" {name} ", text, f"timew summary shows no tag set '{name}'")
        by_name = {a["name"]: a for a in apps["apps"]}
        # Categories come from the rules, which may match any one tag.
        self.assertEqual(by_name["fun, gaming"]["category"], "Games")
        self.assertEqual(by_name["client, my tag, work"]["category"], "Work")
        self.assertEqual(by_name["night"]["category"], "Other")
        self.assertEqual(by_name["fun, gaming"]["seconds"], 4530)
        # The same tag set typed in another order the next day is the same activity.
        [app] = self.usage_shell("--tz", TRACK_ZONE, "--day", "2026-02-24", "--format", "json", "-c", "app 'fun, gaming'")
        self.assertEqual(app["seconds"], 2700)

    def test_the_open_interval_is_shown_as_running(self):
        start = self.running_start.isoformat()
        [check, app, loaded] = self.usage_shell(
            "--tz", TRACK_ZONE, "--day", "today", "--format", "json", "-c", "check", "-c", "app 'client, work'", "-c", "load")
        self.assertEqual([(r["app"], r["start"]) for r in check["running"]], [("client, work", start)])
        self.assertEqual([(r["app"], r["start"]) for r in loaded["running"]], [("client, work", start)])
        self.assertTrue(app["sessions"][-1]["running"])
        self.assertEqual(app["category"], "Work")
        # The text says so too.
        text = self.usage_shell("--tz", TRACK_ZONE, "--day", "today", "--width", "200", "-c", "app 'client, work'", "-c", "check",
                                raw=True)
        self.assertRegex(text, r"…00:00–\d\d:\d\d running ")
        self.assertIn(f"running: client, work #1 since {self.running_start.strftime('%a %Y-%m-%d %H:%M')}", text)


if __name__ == "__main__":
    unittest.main()
