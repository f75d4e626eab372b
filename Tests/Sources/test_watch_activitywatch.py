#!/usr/bin/env python3
"""`watch` on a real ActivityWatch server (aw-server 0.12.0): events inserted while it runs appear
in the totals, and later refreshes ask only for what is new.

Run with ``scripts/test-sources``. The shell talks to the server through a small recording proxy
(every request's path and query kept), so the test sees what each refresh asked for:

- the first load reads the bucket list and every event of each window, AFK and web bucket
  (``?limit=-1``, no ``start``);
- a refresh where nothing changed reads the bucket list only;
- a refresh after new events asks only the buckets that changed, and only for the events from the
  start of the newest one it had (``&start=…``), never from further back;
- the totals after the second half of the events arrived while watching equal a fresh load of the
  whole server, and an event grown by a heartbeat grows the total;
- SIGINT ends the batch run with status 0, stdout holding one JSON document per refresh;
- `watch sites` counts a web bucket's new visit at the next refresh.

The events are those of ``test_activitywatch.py`` (its day, 2026-02-23, worked out by hand there),
given in two halves.
"""

import http.server
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aw_server import AWServer, event  # noqa: E402
from test_activitywatch import BIN, BUCKETS, DAY, EXPECTED_TOTAL, check_binary, t  # noqa: E402

WAIT = 20


class RecordingProxy:
    """An HTTP proxy in front of `base` (http://127.0.0.1:PORT) that keeps every GET's path."""

    def __init__(self, base):
        self.base = base
        self.requests = []
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args):
                pass

            def do_GET(self):
                with proxy.lock:
                    proxy.requests.append(self.path)
                try:
                    with urllib.request.urlopen(proxy.base + self.path, timeout=30) as answer:
                        status, body = answer.status, answer.read()
                except urllib.error.HTTPError as e:
                    status, body = e.code, e.read()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def taken(self):
        """The requests since the last call."""
        with self.lock:
            taken, self.requests = self.requests, []
        return taken

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def events_requests(paths):
    """{bucket id: [query dict]} of the event requests among `paths`."""
    found = {}
    for path in paths:
        url = urllib.parse.urlsplit(path)
        parts = url.path.split("/")
        if len(parts) == 6 and parts[5] == "events":
            bucket = urllib.parse.unquote(parts[4])
            found.setdefault(bucket, []).append(dict(urllib.parse.parse_qsl(url.query)))
    return found


class WatchOnActivityWatchTests(unittest.TestCase):
    def setUp(self):
        check_binary()
        self.aw = AWServer.start()
        self.addCleanup(self.aw.stop)
        self.proxy = RecordingProxy(f"http://127.0.0.1:{self.aw.port}")
        self.addCleanup(self.proxy.close)
        self.home = tempfile.mkdtemp(prefix="usage-shell-aw-watch-")
        self.addCleanup(shutil.rmtree, self.home, ignore_errors=True)
        self.env = {
            "HOME": self.home, "XDG_CONFIG_HOME": os.path.join(self.home, "config"),
            "XDG_STATE_HOME": os.path.join(self.home, "state"), "XDG_DATA_HOME": os.path.join(self.home, "data"),
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TZ": "UTC", "LANG": "C.UTF-8", "NO_COLOR": "1",
        }
        self.env.update({k: v for k, v in os.environ.items() if k.endswith("SAN_OPTIONS")})

    def watch(self, *command):
        """Starts `usage-shell aw://PROXY --format json --tz UTC --day DAY -c COMMAND`; returns the
        process and a queue of its stdout lines."""
        process = subprocess.Popen(
            [BIN, f"aw://127.0.0.1:{self.proxy.port}", "--format", "json", "--tz", "UTC", "--day", DAY, "-c", *command],
            env=self.env, cwd=self.home, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        def end():
            if process.poll() is None:
                process.kill()
            process.wait(timeout=15)
            process.stdout.close()
            process.stderr.close()

        self.addCleanup(end)
        lines = queue.Queue()

        def read():
            for line in process.stdout:
                lines.put(line)

        threading.Thread(target=read, daemon=True).start()
        return process, lines

    def next_document(self, lines, until=None):
        """The next JSON document the watch printed (the first that satisfies `until`, if given)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                document = json.loads(lines.get(timeout=max(0.1, deadline - time.monotonic())))
            except queue.Empty:
                break
            if until is None or until(document):
                return document
        self.fail(f"no document{' as expected' if until else ''} within {WAIT} s")

    def insert(self, bucket_ids, half):
        """Creates the buckets, then inserts the first or the second half of each one's events."""
        for bucket_id in bucket_ids:
            bucket_type, client, hostname, events = BUCKETS[bucket_id]
            self.aw.create_bucket(bucket_id, bucket_type, hostname, client=client)
            chosen = events[:len(events) // 2] if half == 0 else events[len(events) // 2:]
            if chosen:
                self.aw.insert_events(bucket_id, chosen)

    def test_events_inserted_while_watching_appear_and_later_refreshes_ask_only_for_new_ones(self):
        self.insert(BUCKETS, 0)
        process, lines = self.watch("watch 1 day")
        first = self.next_document(lines)
        self.assertEqual(first["day"], DAY)
        self.assertLess(first["total_seconds"], EXPECTED_TOTAL)
        loaded = events_requests(self.proxy.taken())
        # The first read: every window, AFK and web bucket whole, no start.
        self.assertEqual(set(loaded), {b for b, (kind, *_) in BUCKETS.items() if kind in ("currentwindow", "afkstatus", "web.tab.current")})
        self.assertTrue(all("start" not in q and q.get("limit") == "-1" for qs in loaded.values() for q in qs), loaded)

        # Nothing changes: a refresh reads the bucket list and no events.
        time.sleep(2.5)
        quiet = self.proxy.taken()
        self.assertTrue(quiet, "the watch made no request in 2.5 s")
        self.assertEqual(set(quiet), {"/api/0/buckets/"}, quiet)

        # The second half arrives while it watches: the totals become the whole server's.
        newest_known = {b: max(e["timestamp"] for e in events[:len(events) // 2]) for b, (_, _, _, events) in BUCKETS.items()
                        if len(events) // 2 > 0}
        self.insert(BUCKETS, 1)
        whole = self.next_document(lines, until=lambda d: abs(d["total_seconds"] - EXPECTED_TOTAL) < 1e-6)
        self.assertEqual(whole["screen_time_seconds"], whole["total_seconds"])
        asked = events_requests(self.proxy.taken())
        self.assertTrue(asked, "no events were asked for after new ones were inserted")
        for bucket, queries in asked.items():
            if bucket not in newest_known:
                continue  # it had no event yet: all of it is new
            for query in queries:
                # Only from the newest event it had: never the whole bucket again.
                self.assertIn("start", query, f"{bucket} read whole again: {query}")
                self.assertEqual(query.get("limit"), "-1")
                start = query["start"]
                self.assertTrue(start.endswith("Z") and len(start) == len("2026-02-23T09:00:00.000Z"), start)
                self.assertGreaterEqual(start, newest_known[bucket].replace("Z", ".000Z"), f"{bucket} asked from before its newest event")

        # A heartbeat grows the newest event of a host without AFK data: the total grows with it.
        self.aw.create_bucket("aw-watcher-window_phone", "currentwindow", "phone", client="aw-watcher-window")
        self.aw.insert_events("aw-watcher-window_phone", [event(t("15:00:00"), 60, app="Maps", title="route")])
        self.next_document(lines, until=lambda d: abs(d["total_seconds"] - (EXPECTED_TOTAL + 60)) < 1e-6)
        self.proxy.taken()
        self.aw.heartbeat("aw-watcher-window_phone", event(t("15:01:30"), 0, app="Maps", title="route"), pulsetime=120)
        self.next_document(lines, until=lambda d: abs(d["total_seconds"] - (EXPECTED_TOTAL + 90)) < 1e-6)
        grown = events_requests(self.proxy.taken())
        self.assertEqual(grown.get("aw-watcher-window_phone", [{}])[-1].get("start"), "2026-02-23T15:00:00.000Z", grown)
        # Only the bucket that changed was asked for its events.
        self.assertEqual(set(grown), {"aw-watcher-window_phone"}, grown)

        # The watch's picture equals a fresh load of the whole server.
        fresh = subprocess.run(
            [BIN, f"aw://127.0.0.1:{self.aw.port}", "--format", "json", "--tz", "UTC", "--day", DAY, "-c", "day"],
            env=self.env, cwd=self.home, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        self.assertEqual(json.loads(fresh.stdout)["total_seconds"], EXPECTED_TOTAL + 90)

        # SIGINT ends the run, status 0; stdout held only JSON documents.
        process.send_signal(signal.SIGINT)
        self.assertEqual(process.wait(timeout=15), 0, process.stderr.read())
        while not lines.empty():
            json.loads(lines.get())

    def test_bug_watching_a_live_server_showed_no_sites(self):
        self.insert(BUCKETS, 0)
        self.insert(BUCKETS, 1)
        process, lines = self.watch("watch 1 sites")
        first = self.next_document(lines)
        # Firefox in front 09:00–09:30, the web bucket's example.org 09:00–09:30.
        self.assertEqual([(s["site"], s["seconds"], s["sessions"]) for s in first["sites"]], [("example.org", 1800, 1)])
        self.proxy.taken()
        # A visit while Firefox is in front again (10:10–10:20, not AFK): the next refresh counts it.
        web = "aw-watcher-web-firefox_laptop"
        self.aw.insert_events(web, [event(t("10:12:00"), 300, url="https://docs.example.com/private/path", title="secret",
                                          audible=False, incognito=False)])
        grown = self.next_document(lines, until=lambda d: len(d["sites"]) == 2)
        self.assertEqual([(s["site"], s["seconds"]) for s in grown["sites"]], [("example.org", 1800), ("docs.example.com", 300)])
        asked = events_requests(self.proxy.taken())
        # Only the web bucket was asked, and only from its newest event known.
        self.assertEqual(set(asked), {web}, asked)
        self.assertEqual(asked[web][-1].get("start"), "2026-02-23T09:00:00.000Z", asked)
        process.send_signal(signal.SIGINT)
        self.assertEqual(process.wait(timeout=15), 0, process.stderr.read())

    def test_count_three_prints_three_results_through_a_pipe(self):
        self.insert(BUCKETS, 0)
        self.insert(BUCKETS, 1)
        r = subprocess.run(
            ["sh", "-c", f'"{BIN}" aw://127.0.0.1:{self.aw.port} --tz UTC --day {DAY} -c "watch 1 day --count 3" | cat'],
            env=self.env, cwd=self.home, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        blocks = [b for b in r.stdout.split("\n\n") if b.strip()]
        self.assertEqual(len(blocks), 3, r.stdout)
        for block in blocks:
            stamp, header, totals = block.split("\n")
            self.assertRegex(stamp, r"^\w{3} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(every 1 s\)$")
            self.assertEqual(header, "Monday, February 23, 2026")
            # 19,715.7 s: 5h 28m 36s, to the nearest minute as every duration is written.
            self.assertEqual(totals, "5h 29m total")


if __name__ == "__main__":
    unittest.main()
