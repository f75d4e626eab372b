#!/usr/bin/env python3
"""usage-shell's store fed from a real ActivityWatch server (aw-server 0.12.0): `import aw://…` twice
with the current window event growing between the two (a watcher's heartbeats), then once more
after a new event; each session goes in once, the grown one is updated in place, and the store's
day equals the live server's day. And aw-watcher-web's bucket (as the extension writes it: type
web.tab.current, client aw-client-web, heartbeats of url, title, audible, incognito, tabCount)
imported from the server and from the server's own export: its host names kept as sites, once,
and no path or title in the store's file.

Run with ``scripts/test-sources`` (builds the binary and the aw-server venv first).
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aw_server import AWServer, event  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
BIN = os.path.abspath(os.environ.get("USAGE_SHELL_BIN") or REPO_ROOT / ".build" / "debug" / "usage-shell")
DAY = "2026-02-23"
WINDOW = "aw-watcher-window_laptop"
AFK = "aw-watcher-afk_laptop"
WEB = "aw-watcher-web-firefox_laptop"


def t(hhmmss):
    return f"{DAY}T{hhmmss}Z"


class StoreFromActivityWatchTests(unittest.TestCase):
    def setUp(self):
        self.aw = AWServer.start()
        self.addCleanup(self.aw.stop)
        self.home = tempfile.TemporaryDirectory(prefix="usage-shell-aw-store-")
        self.addCleanup(self.home.cleanup)
        self.db = os.path.join(self.home.name, "usage.sqlite")
        self.aw.create_bucket(WINDOW, "currentwindow", "laptop", client="aw-watcher-window")
        self.aw.create_bucket(AFK, "afkstatus", "laptop", client="aw-watcher-afk")
        self.aw.insert_events(AFK, [event(t("08:00:00"), 4 * 3600, status="not-afk")])
        self.aw.insert_events(WINDOW, [
            event(t("09:00:00"), 600, app="Firefox", title="Docs"),
            event(t("09:10:00"), 120, app="Terminal", title="make test"),
        ])

    def run_shell(self, *args):
        env = {
            "HOME": self.home.name,
            "XDG_CONFIG_HOME": os.path.join(self.home.name, "config"),
            "XDG_STATE_HOME": os.path.join(self.home.name, "state"),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "TZ": "UTC", "LANG": "C.UTF-8", "NO_COLOR": "1",
        }
        r = subprocess.run([BIN, "--db", self.db, *args], env=env, cwd=self.home.name, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, f"{args}: {r.stderr}")
        return r.stdout

    def import_counts(self):
        summary = json.loads(self.run_shell("import", self.aw.url, "--format", "json"))
        (source,) = summary["sources"]
        return source["added"], source["updated"], source["unchanged"]

    def day(self, source):
        return json.loads(self.run_shell(source, "--format", "json", "--tz", "UTC", "--day", DAY, "-c", "show"))

    def test_importing_twice_adds_each_event_once_and_updates_the_one_that_grew(self):
        self.assertEqual(self.import_counts(), (2, 0, 0))
        self.assertEqual(self.day("store"), self.day(self.aw.url))

        # The watcher's heartbeats grow the current event (the same id) from 2 to 7 minutes.
        before = {e["id"]: e["duration"] for e in self.aw.events(WINDOW)}
        for minute in range(12, 18):
            self.aw.heartbeat(WINDOW, event(t(f"09:{minute}:00"), 0, app="Terminal", title="make test"), pulsetime=90)
        after = {e["id"]: e["duration"] for e in self.aw.events(WINDOW)}
        self.assertEqual(set(after), set(before), "the heartbeats grew the last event, not a new one")
        grown = [i for i in after if after[i] != before[i]]
        self.assertEqual(len(grown), 1)
        self.assertEqual((before[grown[0]], after[grown[0]]), (120, 420))

        self.assertEqual(self.import_counts(), (0, 1, 1))
        self.assertEqual(self.day("store"), self.day(self.aw.url))
        terminal = [a for a in self.day("store")["apps"] if a["name"] == "Terminal"]
        self.assertEqual(terminal[0]["seconds"], 7 * 60)

        # A new event next hour: one added, the rest as they were; and nothing doubles.
        self.aw.insert_events(WINDOW, [event(t("10:00:00"), 300, app="Code", title="main.swift")])
        self.assertEqual(self.import_counts(), (1, 0, 2))
        self.assertEqual(self.import_counts(), (0, 0, 3))
        self.assertEqual(self.day("store"), self.day(self.aw.url))
        store = json.loads(self.run_shell("--format", "json", "-c", "store"))
        self.assertEqual(store["sessions"], 3)
        self.assertEqual([s["source"] for s in store["sources"]], [self.aw.url])
        self.assertEqual(store["sources"][0]["imports"], 4)


    def test_the_web_watchers_bucket_is_imported_as_sites_once_from_the_server_and_its_export(self):
        self.aw.create_bucket(WEB, "web.tab.current", "laptop", client="aw-client-web")
        tabs = [
            ("09:00:00", "https://Docs.Python.org/3/library/json.html?q=hidden#frag", "json - secret title", False),
            ("09:03:00", "https://mail.example.com:8443/inbox/private-path", "Inbox - my secret mail", False),
            ("09:05:00", "https://incognito-only.example/private", "Private thing", True),
            ("09:07:00", "about:blank", "New Tab", False),
        ]
        # The extension's heartbeats: each tab every 30 s, merged by the server into one event a tab.
        for start, url, title, incognito in tabs:
            h, m, _ = (int(x) for x in start.split(":"))
            for k in range(5):
                second = m * 60 + k * 30
                self.aw.heartbeat(WEB, event(t(f"{h:02d}:{second // 60:02d}:{second % 60:02d}"), 0, url=url, title=title, audible=False,
                                             incognito=incognito, tabCount=3), pulsetime=60)
        summary = json.loads(self.run_shell("import", self.aw.url, "--format", "json"))
        self.assertEqual([s["visits"] for s in summary["sources"]], [2])
        sites = json.loads(self.run_shell("--format", "json", "--tz", "UTC", "-c", f"sites {DAY}"))
        # Firefox was in front 09:00–09:10: docs.python.org 09:00–09:02, mail.example.com 09:03–09:05.
        self.assertEqual([(s["site"], s["seconds"]) for s in sites["sites"]], [("docs.python.org", 120), ("mail.example.com", 120)])

        # The server's own export of the same buckets, imported under a file's name: nothing twice.
        export = os.path.join(self.home.name, "aw-export.json")
        self.aw.export_to(export)
        with open(export, encoding="utf-8") as f:
            exported = json.load(f)["buckets"][WEB]
        self.assertEqual((exported["type"], exported["client"], exported["hostname"]), ("web.tab.current", "aw-client-web", "laptop"))
        summary = json.loads(self.run_shell("import", export, "--format", "json"))
        self.assertEqual([s["visits"] for s in summary["sources"]], [0])
        self.assertEqual(json.loads(self.run_shell("--format", "json", "--tz", "UTC", "-c", f"sites {DAY}")), sites)

        stored = b"".join(Path(self.db + suffix).read_bytes() for suffix in ("", "-wal") if Path(self.db + suffix).exists())
        self.assertIn(b"mail.example.com", stored)
        for secret in (b"library/json", b"hidden", b"secret", b"private-path", b"Inbox", b"incognito-only", b"Private thing", b"about:blank"):
            self.assertNotIn(secret, stored)


if __name__ == "__main__":
    unittest.main()
