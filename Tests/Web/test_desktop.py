# test_desktop.py — the end to end under Xvfb with openbox: `usage-shell record` running, a browser with the extension in a window (not headless: a headless browser reports no focus), a private window the extension is not allowed in, and an xterm. Chromium: scripted switches between two sites, the terminal and an incognito window give site sessions (a site's visits intersected with Chromium's sessions, as the store counts them) within 0.5 s of the script, nothing while the terminal or the incognito window is in front, and no path, query or title anywhere in the store file; Firefox (over WebDriver BiDi): its site stops while its private window is in front and starts again when its window comes back, within 0.5 s.
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
import bidi  # noqa: E402
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
    def desktop(self):
        """Xvfb with openbox, an xterm of class Term, `record` running; the environment for a browser in a window there."""
        x = peers.XSession(71, ["openbox"])
        self.addCleanup(x.close)
        x.xterm("Term")
        env = dict(self.env, DISPLAY=x.display)
        for k in ["WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS"]:
            env.pop(k, None)
        recorder = peers.Recorder(self.store, env, "--idle", "10m")
        self.addCleanup(recorder.close)
        return x, env, recorder

    def windows(self, env, cls):
        return peers.run(["xdotool", "search", "--onlyvisible", "--class", cls], env=env).stdout.decode().split()

    def check_site_sessions(self, family, start, want, none, env):
        """The store's site sessions (visits cut to the browser's sessions, those of app names
        beginning with `family`) after `start` are `want`'s ((site, from, to), each instant
        within TOLERANCE); none lies in any of `none`'s (from, to) though the browser is the app
        in front throughout the last of them; `sites` counts the same; no secret in the store file."""
        connection = sqlite3.connect(self.store)
        visits = [(site, begin / 1e6, (begin + length) / 1e6) for site, begin, length in connection.execute(
            "select s.name, v.start, v.length from site_visit v join site s on s.id = v.site order by v.start")]
        apps = connection.execute("select a.name, s.start, s.length from session s join app a on a.id = s.app order by s.start").fetchall()
        connection.close()
        browser = [(begin / 1e6, (begin + length) / 1e6) for name, begin, length in apps if name.lower().startswith(family)]
        pieces = intersect(visits, browser)
        got = [g for g in pieces if g[2] > start]
        # Pieces of one site that touch are one site session.
        merged = []
        for site, s0, s1 in got:
            if merged and merged[-1][0] == site and s0 - merged[-1][2] < 0.05:
                merged[-1] = (site, merged[-1][1], s1)
            else:
                merged.append((site, s0, s1))
        t0 = want[0][1]
        detail = f"got {[(s, round(a - t0, 2), round(b - t0, 2)) for s, a, b in merged]}, want {[(s, round(a - t0, 2), round(b - t0, 2)) for s, a, b in want]} (apps {apps})"
        self.assertEqual([m[0] for m in merged], [w[0] for w in want], detail)
        for (_, g0, g1), (_, w0, w1) in zip(merged, want):
            self.assertLess(abs(g0 - w0), TOLERANCE, detail)
            self.assertLess(abs(g1 - w1), TOLERANCE, detail)
        for n0, n1 in none:
            self.assertFalse([g for g in got if g[2] > n0 + TOLERANCE and g[1] < n1 - TOLERANCE], detail)
        n0, n1 = none[-1]
        self.assertTrue([b for b in browser if b[0] < n0 + TOLERANCE and b[1] > n1 - TOLERANCE], f"the browser not the app in front with its private window: {detail}")
        # The store counts the same: `sites` (its JSON: site, seconds, sessions), over two days in
        # case the run crosses midnight, with what the browser counted as it opened, before the script.
        shown = subprocess.run([BIN, "--db", self.store, "--format", "json", "-c", "sites last 2"], env=env, capture_output=True, text=True)
        self.assertEqual(shown.returncode, 0, shown.stderr)
        text = shown.stdout
        seconds = {row["site"]: row["seconds"] for row in json.loads(text)["sites"]}
        for site in {w[0] for w in want}:
            scripted = [w for w in want if w[0] == site]
            before = sum(max(0, min(p1, start) - p0) for p, p0, p1 in pieces if p == site)
            self.assertLess(abs(seconds.get(site, 0) - before - sum(w1 - w0 for _, w0, w1 in scripted)), 2 * TOLERANCE * len(scripted), text)
        _, data = self.stored()  # the -wal folded in
        for secret in SECRETS:
            self.assertNotIn(secret.encode(), data)

    def test_site_sessions_follow_the_script_and_neither_the_terminal_nor_an_incognito_window_counts(self):
        x, env, recorder = self.desktop()
        profile = os.path.join(self.dir, "chromium")
        self.manifest(os.path.join(profile, "NativeMessagingHosts"), "chromium")
        browser = cdp.Browser(extension=os.path.join(self.extension, "chromium"), profile=profile, env=env, headless=False)
        self.addCleanup(browser.close)
        window = wait_until(lambda: self.windows(env, "chromium"), 30, "Chromium's window")[-1]
        a = browser.call("Target.createTarget", url=self.url("127.0.0.1"))["targetId"]
        b = browser.call("Target.createTarget", url=self.url("localhost"))["targetId"]
        self.wait_for_site("localhost")
        # An incognito window, as a person opens one (Ctrl+Shift+N): the extension, not allowed in
        # it, is never shown it (DevTools' browser contexts are not incognito windows to it).
        x.xdo("windowactivate", "--sync", window)
        x.xdo("key", "--clearmodifiers", "ctrl+shift+n")
        incognito = wait_until(lambda: [w for w in self.windows(env, "chromium") if w != window], 30, "the incognito window")[-1]

        def focus(w):
            x.xdo("windowactivate", "--sync", w)
            return time.time()

        def tab(target):
            browser.call("Target.activateTarget", targetId=target)
            return time.time()

        # The script: the terminal in front (Chromium's first focus, as it opened, comes before),
        # tab A chosen before it (activating a tab over CDP raises the window too), then Chromium 3 s
        # on A, 3 s on B, the terminal 3 s, Chromium 2 s on B, the incognito window 2 s (Chromium
        # still the app in front: the site stops there), Chromium 2 s on B.
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
        t4 = focus(incognito)
        time.sleep(2)
        t5 = focus(window)
        time.sleep(2)
        t6 = recorder.stop()
        browser.close()
        self.wait_for_hosts_to_end()
        self.check_site_sessions("chromium", start, [("127.0.0.1", t0, t1), ("localhost", t1, t2), ("localhost", t3, t4), ("localhost", t5, t6)],
                                 [(t2, t3), (t4, t5)], env)

    def test_firefox_site_stops_while_a_private_window_is_in_front(self):
        x, env, recorder = self.desktop()
        self.manifest(os.path.join(self.home, ".mozilla", "native-messaging-hosts"), "firefox")
        browser = bidi.Firefox(self.home, env=env, headless=False)
        self.addCleanup(browser.close)
        browser.install(os.path.join(self.extension, "usage-shell-firefox.xpi"))
        browser.open_tab(self.url("127.0.0.1"))
        self.wait_for_site("127.0.0.1")
        window = wait_until(lambda: self.windows(env, "firefox"), 30, "Firefox's window")[-1]
        # A private window (the add-on not allowed there), opened before the script.
        browser.open_private_window(self.url("localhost"))
        private = wait_until(lambda: [w for w in self.windows(env, "firefox") if w != window], 30, "the private window")[-1]

        def focus(w):
            x.xdo("windowactivate", "--sync", w)
            return time.time()

        # The script: the terminal in front, then Firefox 3 s, its private window 2 s (Firefox still
        # the app in front: the site stops there), Firefox 2 s.
        start = focus(x.windows["Term"])
        time.sleep(2)
        t0 = focus(window)
        time.sleep(3)
        t1 = focus(private)
        time.sleep(2)
        t2 = focus(window)
        time.sleep(2)
        t3 = recorder.stop()
        browser.close()
        self.wait_for_hosts_to_end()
        self.assertNotIn("localhost", self.sites())
        self.check_site_sessions("firefox", start, [("127.0.0.1", t0, t1), ("127.0.0.1", t2, t3)], [(t1, t2)], env)


if __name__ == "__main__":
    unittest.main()
