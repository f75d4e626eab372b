# cdp.py — headless Chromium driven over its DevTools pipe (--remote-debugging-pipe: JSON messages on fds 3 and 4, no port, no websocket library): open a page at a viewport, collect what it logged, requested and tried to show, evaluate script in it, take a screenshot.
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time


def find_chromium():
    """Debian's binary itself (its /usr/bin/chromium wrapper is a shell script that may not pass fds 3 and 4 on)."""
    for path in ("/usr/lib/chromium/chromium", shutil.which("chromium") or "", shutil.which("chromium-browser") or "", shutil.which("google-chrome") or ""):
        if path and os.access(path, os.X_OK):
            return path
    raise SystemExit("error: headless Chromium is needed: apt-get install chromium")


class Browser:
    """One headless Chromium: pages are opened one at a time, each in a new tab."""

    def __init__(self, extension=None, profile=None, env=None, headless=True):
        """`extension`: an unpacked extension's folder to load (else none is); `profile`: the
        user-data folder to use (else a new one); `env`: the browser's environment; `headless`
        False: a window on env's DISPLAY."""
        self.profile = profile or tempfile.mkdtemp(prefix="usage-shell-chromium-")
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()

        def child_fds():
            # fds 3 and 4 are the pipe's ends in the browser; os.dup2 makes them inheritable.
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        args = [find_chromium(), *(["--headless=new"] if headless else []), "--disable-gpu", "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
                "--no-first-run", "--no-default-browser-check", "--hide-scrollbars", "--mute-audio", "about:blank"]
        args[-1:-1] = ["--load-extension=" + extension, "--disable-extensions-except=" + extension] if extension else ["--disable-extensions"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")  # Chromium refuses root with its sandbox
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        preexec_fn=child_fds, close_fds=False, env=env)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.out = os.fdopen(to_browser_w, "wb", buffering=0)
        self.inp = os.fdopen(from_browser_r, "rb", buffering=0)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.out.close()
        self.inp.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read(self):
        while b"\0" not in self.buffer:
            chunk = self.inp.read(1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        message = json.loads(message)
        if message.get("method") == "Page.javascriptDialogOpening":
            # Kept as an event (it is what the test looks for), and closed so the page goes on.
            self.next_id += 1
            reply = {"id": self.next_id, "method": "Page.handleJavaScriptDialog", "params": {"accept": True}, "sessionId": message.get("sessionId")}
            self.out.write(json.dumps(reply).encode() + b"\0")
        return message

    def call(self, method, session=None, **params):
        """Sends one command and returns its result; events that arrive meanwhile are kept."""
        self.next_id += 1
        mine = self.next_id
        message = {"id": mine, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        self.out.write(json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == mine:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "id" not in reply:
                self.events.append(reply)

    def wait_for(self, method, session, timeout=20):
        """Waits for an event of the session; returns it."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            for k, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(k)
            message = self._read()
            if "id" not in message:
                self.events.append(message)
        raise RuntimeError(f"no {method} within {timeout} s")

    def open(self, url, width, height=900, mobile=False, dark=False, print_media=False):
        """Loads `url` in a new tab at a viewport; returns a Page with what happened while it loaded."""
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(domain + ".enable", session)
        self.call("Emulation.setDeviceMetricsOverride", session, width=width, height=height, deviceScaleFactor=1, mobile=mobile)
        features = [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]
        self.call("Emulation.setEmulatedMedia", session, media="print" if print_media else "", features=features)
        self.events = [e for e in self.events if e.get("sessionId") != session]
        self.call("Page.navigate", session, url=url)
        self.wait_for("Page.loadEventFired", session)
        # Anything the page does just after its load (a late request, a dialog) is caught too.
        self.call("Runtime.evaluate", session, expression="new Promise(r => setTimeout(r, 200))", awaitPromise=True)
        page = Page(self, target, session, url)
        page.events = [e for e in self.events if e.get("sessionId") == session]
        self.events = [e for e in self.events if e.get("sessionId") != session]
        return page


class Page:
    def __init__(self, browser, target, session, url):
        self.browser, self.target, self.session, self.url = browser, target, session, url
        self.events = []

    def evaluate(self, expression):
        result = self.browser.call("Runtime.evaluate", self.session, expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, scale=0.25):
        """The whole page, at a quarter of its size (enough to tell a blank one)."""
        size = self.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        clip = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": scale}
        data = self.browser.call("Page.captureScreenshot", self.session, format="png", captureBeyondViewport=True, clip=clip)["data"]
        return base64.b64decode(data)

    def requests(self):
        """Every URL the page asked for."""
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]

    def errors(self):
        """Console errors, uncaught exceptions and the browser's own error log (a refused load is one)."""
        out = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif m == "Runtime.exceptionThrown":
                out.append("exception: " + p["exceptionDetails"].get("text", ""))
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append("log: " + p["entry"].get("text", ""))
        return out

    def dialogs(self):
        """alert(), confirm() and prompt() the page tried to open."""
        return [e["params"].get("message", "") for e in self.events if e.get("method") == "Page.javascriptDialogOpening"]

    def close(self):
        self.browser.call("Target.closeTarget", targetId=self.target)
