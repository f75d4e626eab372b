# test_desktop.py — the end to end under Xvfb with openbox: `usage-shell record` running, Chromium with the extension in a window (not headless: a headless browser reports no focus), and an xterm. Scripted switches between two sites and the terminal give site sessions (a site's visits intersected with Chromium's sessions, as the store counts them) within 0.5 s of the script, nothing while the terminal is in front, and no path, query or title anywhere in the store file.
import json
import os
import sqlite3
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Recorder"))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))
sys.path.insert(0, HERE)
import cdp  # noqa: E402
import peers  # noqa: E402
from test_web import BIN, SECRETS, WebCase, wait_until  # noqa: E402

TOLERANCE = 0.5


def intersect(visits, sessions):
    """(site, start, end) of each visit cut to the sessions (seconds), the empty pieces left out."""
    out = []
    for site, v0, v1 in visits:
        for s0, s1 in sessions:
            a, b = max(v0, s0), min(v1, s1)
            if b > a:
                out.append((site, a, b))
    return out


class DesktopCase(WebCase):
    def test_site_sessions_follow_the_script_and_the_terminal_counts_none(self):
        x = peers.XSession(97, ["openbox"])
        self.addCleanup(x.close)
        x.xterm("Term")
        env = dict(self.env, DISPLAY=x.display)
        for k in ["WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS"]:
            env.pop(k, None)
        recorder = peers.Recorder(self.store, env, "--idle", "10m")
        self.addCleanup(recorder.close)
        profile = os.path.join(self.dir, "chromium")
        self.manifest(os.path.join(profile, "NativeMessagingHosts"), "chromium")
        browser = cdp.Browser(extension=os.path.join(self.extension, "chromium"), profile=profile, env=env, headless=False)
        self.addCleanup(browser.close)
        window = wait_until(lambda: peers.run(["xdotool", "search", "--onlyvisible", "--class", "chromium"], env=env).stdout.split(), 30,
                            "Chromium's window")[-1].decode()
        a = browser.call("Target.createTarget", url=self.url("127.0.0.1"))["targetId"]
        b = browser.call("Target.createTarget", url=self.url("localhost"))["targetId"]
        self.wait_for_site("localhost")

        def focus(w):
            x.xdo("windowactivate", "--sync", w)
            return time.time()

        def tab(target):
            browser.call("Target.activateTarget", targetId=target)
            return time.time()

        # The script: the terminal in front (Chromium's first focus, as it opened, comes before),
        # tab A chosen before it (activating a tab over CDP raises the window too), then Chromium 3 s
        # on A, 3 s on B, the terminal 3 s, Chromium 2 s on B.
        tab(a)
        start = focus(x.windows["Term"])
        time.sleep(2)
        t0 = focus(window)
        time.sleep(3)
        t1 = tab(b)
        time.sleep(3)
        t2 = focus(x.windows["Term"])
        time.sleep(3)
        t3 = focus(window)
        time.sleep(2)
        t4 = recorder.stop()
        browser.close()
        self.wait_for_hosts_to_end()

        connection = sqlite3.connect(self.store)
        visits = [(site, start / 1e6, (start + length) / 1e6) for site, start, length in connection.execute(
            "select s.name, v.start, v.length from site_visit v join site s on s.id = v.site order by v.start")]
        apps = connection.execute("select a.name, s.start, s.length from session s join app a on a.id = s.app order by s.start").fetchall()
        connection.close()
        chromium = [(start / 1e6, (start + length) / 1e6) for name, start, length in apps if name.lower().startswith("chromium")]
        got = [g for g in intersect(visits, chromium) if g[2] > start]
        # Pieces of one site that touch are one site session.
        merged = []
        for site, s0, s1 in got:
            if merged and merged[-1][0] == site and s0 - merged[-1][2] < 0.05:
                merged[-1] = (site, merged[-1][1], s1)
            else:
                merged.append((site, s0, s1))
        want = [("127.0.0.1", t0, t1), ("localhost", t1, t2), ("localhost", t3, t4)]
        detail = f"got {[(s, round(a - t0, 2), round(b - t0, 2)) for s, a, b in merged]}, want {[(s, round(a - t0, 2), round(b - t0, 2)) for s, a, b in want]} (apps {apps})"
        self.assertEqual([m[0] for m in merged], [w[0] for w in want], detail)
        for (_, g0, g1), (_, w0, w1) in zip(merged, want):
            self.assertLess(abs(g0 - w0), TOLERANCE, detail)
            self.assertLess(abs(g1 - w1), TOLERANCE, detail)
        # Nothing while the terminal is in front.
        self.assertFalse([g for g in got if g[2] > t2 + TOLERANCE and g[1] < t3 - TOLERANCE], detail)
        # The store counts the same: `sites` (its JSON: site, seconds, sessions), over two days in case the run crosses midnight.
        shown = subprocess.run([BIN, "--db", self.store, "--format", "json", "-c", "sites last 2"], env=env, capture_output=True, text=True)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        text = shown.stdout
        seconds = {row["site"]: row["seconds"] for row in json.loads(text)["sites"]}
        self.assertLess(abs(seconds.get("127.0.0.1", 0) - (t1 - t0)), 2 * TOLERANCE, text)
        self.assertLess(abs(seconds.get("localhost", 0) - (t2 - t1 + t4 - t3)), 4 * TOLERANCE, text)
        _, data = self.stored()  # the -wal folded in
        for secret in SECRETS:
            self.assertNotIn(secret.encode(), data)


if __name__ == "__main__":
    unittest.main()
