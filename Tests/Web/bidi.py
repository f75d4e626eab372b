# bidi.py — headless Firefox ESR driven over WebDriver BiDi (`--remote-debugging-port 0`: JSON commands on the WebSocket `ws://HOST:PORT/session` that the profile's WebDriverBiDiServer.json names, through websocket.py): a temporary add-on installed, pages opened in tabs and private windows, no driver or library needed.
import json
import os
import shutil
import subprocess
import tempfile
import time

from websocket import Closed, WebSocket

# A private window: standard BiDi opens tabs and windows of user contexts (containers), never a
# private one, so it is opened by script in the browser's own window ("moz:scope": "chrome",
# which --remote-allow-system-access allows), as Marionette's NewWindow does.
OPEN_PRIVATE = "() => { OpenBrowserWindow({ private: true }); }"


def find_firefox():
    for path in ("/usr/lib/firefox-esr/firefox-esr", shutil.which("firefox-esr") or "", shutil.which("firefox") or ""):
        if path and os.access(path, os.X_OK):
            return path
    raise SystemExit("error: Firefox ESR is needed: apt-get install firefox-esr")


class Firefox:
    """One headless Firefox on a profile of its own; `prefs` are added to its user.js."""

    def __init__(self, home, prefs=None, env=None, headless=True):
        """`home`: its HOME (where it looks for native-messaging hosts); `env`: its environment;
        `headless` False: a window on env's DISPLAY."""
        self.profile = tempfile.mkdtemp(prefix="usage-shell-firefox-")
        settings = {
            "browser.shell.checkDefaultBrowser": False, "browser.startup.homepage_override.mstone": "ignore",
            "datareporting.policy.dataSubmissionEnabled": False, "toolkit.telemetry.reportingpolicy.firstRun": False,
            "app.update.disabledForTesting": True, "browser.tabs.warnOnClose": False, **(prefs or {}),
        }
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for key, value in settings.items():
                f.write(f"user_pref({json.dumps(key)}, {json.dumps(value)});\n")
        env = dict(env or os.environ, HOME=home, **({"MOZ_HEADLESS": "1"} if headless else {}))
        self.process = subprocess.Popen([find_firefox(), *(["--headless"] if headless else []), "--remote-debugging-port", "0", "--remote-allow-system-access", "--no-remote",
                                         "--profile", self.profile, "about:blank"],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        server = os.path.join(self.profile, "WebDriverBiDiServer.json")
        deadline = time.time() + 60
        while True:
            try:
                with open(server) as f:
                    address = json.load(f)
                self.ws = WebSocket(address["ws_host"], address["ws_port"], "/session")
                break
            except (OSError, ValueError, KeyError):  # not written yet, or written half, or not listening yet
                if time.time() > deadline or self.process.poll() is not None:
                    raise RuntimeError("Firefox's WebDriver BiDi did not answer")
                time.sleep(0.2)
        self.next_id = 0
        self.call("session.new", capabilities={})

    def call(self, method, **params):
        """Sends one command and returns its result; events are not asked for, and any that come are let go."""
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = json.loads(self.ws.receive())
            if reply.get("id") == self.next_id:
                if reply.get("type") == "error":
                    raise RuntimeError(f"{method}: {reply.get('error')}: {reply.get('message')}")
                return reply["result"]

    def install(self, xpi, private=False):
        """A temporary add-on, as about:debugging loads one: no signature asked; `private`: allowed in private windows."""
        return self.call("webExtension.install", extensionData={"type": "archivePath", "path": xpi}, **{"moz:allowPrivateBrowsing": private})["extension"]

    def contexts(self):
        return [c["context"] for c in self.call("browsingContext.getTree", maxDepth=0)["contexts"]]

    def open_tab(self, url):
        """A new tab in front, at `url`."""
        context = self.call("browsingContext.create", type="tab")["context"]
        self.call("browsingContext.navigate", context=context, url=url, wait="complete")
        return context

    def open_private_window(self, url):
        """A new private window in front, at `url`."""
        before = set(self.contexts())
        chrome = self.call("browsingContext.getTree", maxDepth=0, **{"moz:scope": "chrome"})["contexts"][0]["context"]
        self.call("script.callFunction", functionDeclaration=OPEN_PRIVATE, target={"context": chrome}, awaitPromise=False)
        deadline = time.time() + 20
        while not (new := [c for c in self.contexts() if c not in before]):
            if time.time() > deadline:
                raise RuntimeError("no private window within 20 s")
            time.sleep(0.1)
        # The window's own first page (about:privatebrowsing) may still be loading: it aborts a
        # navigation begun before it ends, and then that navigation is begun again.
        while True:
            try:
                self.call("browsingContext.navigate", context=new[0], url=url, wait="complete")
                return new[0]
            except RuntimeError as error:
                if "NS_BINDING_ABORTED" not in str(error) or time.time() > deadline:
                    raise
                time.sleep(0.2)

    def switch(self, context):
        self.call("browsingContext.activate", context=context)

    def close(self):
        try:
            self.call("browser.close")
        except (Closed, OSError, RuntimeError):
            pass
        self.ws.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
