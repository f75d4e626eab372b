# test_web.py — the browser extension and `usage-shell web-host` in real headless browsers on loopback pages: Chromium over the DevTools protocol, Firefox ESR over WebDriver BiDi. The host receives host names, never a path, query, fragment or title, and the store file holds none; a private window sends nothing; the extension reconnects after the host is killed.
import http.server
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))
import cdp  # noqa: E402
import bidi  # noqa: E402

BIN = os.environ["USAGE_SHELL_BIN"]
PROXY = os.path.join(HERE, "host_proxy.py")
CHROMIUM_ID = "hkokohmmmhbjfcpakpmkjkpeiengccap"
FIREFOX_ID = "web@usage-shell.invalid"
# What a page's address and title hold besides its host: none may reach the host or the store.
SECRETS = ["secret-path", "hidden-query", "fragment-part", "Hidden Title Words", "page.html"]


class Pages(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def process_state(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(") ", 1)[1][0]
    except (OSError, IndexError):
        return "gone"


def wait_until(check, timeout=20, what="it"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"no {what} within {timeout} s")


class WebCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="usage-shell-web-")
        site = os.path.join(cls.tmp, "site", "secret-path")
        os.makedirs(site)
        with open(os.path.join(site, "page.html"), "w") as f:
            f.write("<!doctype html><title>Hidden Title Words</title><p>a page")
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: Pages(*a, directory=os.path.join(cls.tmp, "site")))
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.port = cls.server.server_address[1]
        subprocess.run([os.path.join(ROOT, "scripts", "gen-browser-extension"), os.path.join(cls.tmp, "extension"), "--archives"],
                       check=True, stdout=subprocess.DEVNULL)
        cls.extension = os.path.join(cls.tmp, "extension")

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="case-", dir=self.tmp)
        self.home = os.path.join(self.dir, "home")
        os.makedirs(self.home)
        self.store = os.path.join(self.dir, "store.db")
        self.log = os.path.join(self.dir, "messages.jsonl")
        self.pids = os.path.join(self.dir, "pids")
        open(self.log, "w").close()
        open(self.pids, "w").close()
        self.env = dict(os.environ, HOME=self.home, USAGE_SHELL_BIN=BIN, USAGE_SHELL_DB=self.store, USAGE_SHELL_DEVICE="webtest",
                        WEB_LOG=self.log, WEB_PIDS=self.pids, XDG_CONFIG_HOME=os.path.join(self.home, ".config"))

    def url(self, host, path="/secret-path/page.html?hidden-query=1#fragment-part"):
        return f"http://{host}:{self.port}{path}"

    def manifest(self, folder, family, path=PROXY):
        os.makedirs(folder, exist_ok=True)
        text = subprocess.run([BIN, "web-host", "--manifest", family], check=True, capture_output=True, text=True).stdout
        manifest = json.loads(text)
        self.assertEqual(manifest["path"], os.path.realpath(BIN))
        manifest["path"] = path
        with open(os.path.join(folder, "usage_shell.json"), "w") as f:
            json.dump(manifest, f)

    def messages(self):
        with open(self.log) as f:
            return [json.loads(line) for line in f if line.strip()]

    def sites(self):
        return [m["message"].get("site") for m in self.messages()]

    def host_pids(self):
        with open(self.pids) as f:
            return [int(line) for line in f if line.strip()]

    def wait_for_site(self, site, timeout=20):
        wait_until(lambda: site in self.sites(), timeout, f"message of {site!r} (got {self.sites()})")

    def wait_for_hosts_to_end(self):
        def ended():
            return not any(os.path.exists(f"/proc/{pid}") and process_state(pid) != "Z" for pid in self.host_pids())
        wait_until(ended, 20, "end of every host")

    def stored(self):
        """The store's visits as (site, browser, device), and the file's bytes (its -wal folded in)."""
        connection = sqlite3.connect(self.store)
        rows = connection.execute(
            "select s.name, v.browser, d.name from site_visit v join site s on s.id = v.site join device d on d.id = v.device order by v.start").fetchall()
        connection.execute("pragma wal_checkpoint(truncate)")
        connection.close()
        with open(self.store, "rb") as f:
            return rows, f.read()

    def assert_nothing_but_host_names(self, allowed):
        for entry in self.messages():
            self.assertEqual(set(entry["message"]), {"site", "time"}, entry)
            self.assertIn(entry["message"]["site"], allowed, entry)
        with open(self.log) as f:
            text = f.read()
        for secret in SECRETS:
            self.assertNotIn(secret, text)

    def assert_store_clean(self, family, sites):
        rows, data = self.stored()
        self.assertTrue(rows, "no site visit was written")
        self.assertEqual({row[0] for row in rows}, set(sites))
        self.assertEqual({(row[1], row[2]) for row in rows}, {(family, "webtest")})
        for secret in SECRETS:
            self.assertNotIn(secret.encode(), data)
            self.assertNotIn(secret.encode("utf-16-le"), data)


class ChromiumCase(WebCase):
    def start(self, host_path=PROXY):
        profile = os.path.join(self.dir, "chromium")
        self.manifest(os.path.join(profile, "NativeMessagingHosts"), "chromium", host_path)
        self.browser = cdp.Browser(extension=os.path.join(self.extension, "chromium"), profile=profile, env=self.env)
        self.addCleanup(self.browser.close)

    def open(self, url, context=None):
        params = {"url": url}
        if context:
            params["browserContextId"] = context
        return self.browser.call("Target.createTarget", **params)["targetId"]

    def test_chromium_sends_host_names_never_a_path_query_or_title(self):
        self.start()
        self.open(self.url("127.0.0.1"))
        self.wait_for_site("127.0.0.1")
        self.open(self.url("localhost"))
        self.wait_for_site("localhost")
        self.open("chrome://version/")
        wait_until(lambda: self.sites()[-1] is None, 20, "'no site' for chrome://")
        self.assertIn(f"chrome-extension://{CHROMIUM_ID}/", self.messages()[0]["args"])
        self.browser.close()
        self.wait_for_hosts_to_end()
        self.assert_nothing_but_host_names({"127.0.0.1", "localhost", None})
        self.assert_store_clean("chromium", {"127.0.0.1", "localhost"})

    def test_chromium_starts_the_binary_itself_as_its_host(self):
        # The manifest's path is the binary, run with Chromium's arguments alone.
        self.start(host_path=os.path.realpath(BIN))
        self.open(self.url("127.0.0.1"))

        def visits():
            try:
                return self.stored()[0]
            except sqlite3.Error:  # not made yet, or its tables not yet
                return []

        wait_until(visits, 20, "visit in the store")
        hosts = [pid for pid in os.listdir("/proc") if pid.isdigit() and self.is_host(pid)]
        self.assertEqual(len(hosts), 1, "one usage-shell started by Chromium with its arguments alone")
        self.browser.close()
        wait_until(lambda: process_state(hosts[0]) in ("Z", "gone"), 20, "end of the host")
        self.assert_store_clean("chromium", {"127.0.0.1"})

    def is_host(self, pid):
        """Whether process `pid` is this test's binary run as Chromium runs a host."""
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            return os.path.realpath(f"/proc/{pid}/exe") == os.path.realpath(BIN) and argv[1:2] == [f"chrome-extension://{CHROMIUM_ID}/".encode()]
        except OSError:
            return False

    def test_chromium_private_window_sends_nothing(self):
        self.start()
        self.open(self.url("127.0.0.1"))
        self.wait_for_site("127.0.0.1")
        context = self.browser.call("Target.createBrowserContext")["browserContextId"]
        self.open(self.url("localhost"), context)
        time.sleep(3)
        self.assertNotIn("localhost", self.sites())
        self.browser.close()
        self.wait_for_hosts_to_end()
        self.assert_nothing_but_host_names({"127.0.0.1", None})
        self.assert_store_clean("chromium", {"127.0.0.1"})

    def test_chromium_reconnects_after_the_host_is_killed(self):
        self.start()
        self.open(self.url("127.0.0.1"))
        self.wait_for_site("127.0.0.1")
        first = self.host_pids()
        os.kill(first[0], signal.SIGKILL)
        wait_until(lambda: len(self.host_pids()) > 1, 20, "second host")
        self.open(self.url("localhost"))
        wait_until(lambda: any(m["message"]["site"] == "localhost" for m in self.messages()), 20, "localhost from the second host")
        self.browser.close()
        self.wait_for_hosts_to_end()
        self.assert_store_clean("chromium", {"127.0.0.1", "localhost"})


class FirefoxCase(WebCase):
    def start(self, private=False):
        self.manifest(os.path.join(self.home, ".mozilla", "native-messaging-hosts"), "firefox")
        self.browser = bidi.Firefox(self.home, env=self.env)
        self.addCleanup(self.browser.close)
        self.browser.install(os.path.join(self.extension, "usage-shell-firefox.xpi"), private=private)

    def test_firefox_sends_host_names_never_a_path_query_or_title(self):
        self.start()
        self.browser.open_tab(self.url("127.0.0.1"))
        self.wait_for_site("127.0.0.1")
        second = self.browser.open_tab(self.url("localhost"))
        self.wait_for_site("localhost")
        self.browser.open_tab("about:blank")
        wait_until(lambda: self.sites()[-1] is None, 20, "'no site' for about:")
        self.browser.switch(second)
        wait_until(lambda: self.sites()[-1] == "localhost", 20, "localhost again on switching back")
        self.assertEqual(self.messages()[0]["args"][-1], FIREFOX_ID)
        self.browser.close()
        self.wait_for_hosts_to_end()
        self.assert_nothing_but_host_names({"127.0.0.1", "localhost", None})
        self.assert_store_clean("firefox", {"127.0.0.1", "localhost"})

    def test_firefox_private_window_sends_nothing(self):
        # Not allowed in private windows (the default): the extension never sees the private window.
        self.start()
        self.browser.open_tab(self.url("127.0.0.1"))
        self.wait_for_site("127.0.0.1")
        self.browser.open_private_window(self.url("localhost"))
        time.sleep(3)
        self.assertNotIn("localhost", self.sites())
        self.browser.close()
        self.wait_for_hosts_to_end()
        self.assert_nothing_but_host_names({"127.0.0.1", None})
        self.assert_store_clean("firefox", {"127.0.0.1"})

    def test_firefox_private_window_allowed_is_no_site(self):
        # Allowed in private windows: a private window in front is "no site", its page never named.
        self.start(private=True)
        self.browser.open_tab(self.url("127.0.0.1"))
        self.wait_for_site("127.0.0.1")
        self.browser.open_private_window(self.url("localhost"))
        wait_until(lambda: self.sites()[-1] is None, 20, "'no site' for the private window")
        time.sleep(1)
        self.browser.close()
        self.wait_for_hosts_to_end()
        self.assert_nothing_but_host_names({"127.0.0.1", None})
        self.assert_store_clean("firefox", {"127.0.0.1"})

    def test_firefox_reconnects_after_the_host_is_killed(self):
        self.start()
        self.browser.open_tab(self.url("127.0.0.1"))
        self.wait_for_site("127.0.0.1")
        os.kill(self.host_pids()[0], signal.SIGKILL)
        wait_until(lambda: len(self.host_pids()) > 1, 20, "second host")
        self.browser.open_tab(self.url("localhost"))
        self.wait_for_site("localhost")
        self.browser.close()
        self.wait_for_hosts_to_end()
        self.assert_store_clean("firefox", {"127.0.0.1", "localhost"})


if __name__ == "__main__":
    unittest.main()
