# marionette.py — headless Firefox ESR driven over Marionette (its own remote protocol, which geckodriver speaks: `LENGTH:JSON` on a loopback port of the test's choosing): a temporary add-on installed, pages opened in tabs, no driver or library needed.
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time


def find_firefox():
    for path in ("/usr/lib/firefox-esr/firefox-esr", shutil.which("firefox-esr") or "", shutil.which("firefox") or ""):
        if path and os.access(path, os.X_OK):
            return path
    raise SystemExit("error: Firefox ESR is needed: apt-get install firefox-esr")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Firefox:
    """One headless Firefox on a profile of its own; `prefs` are added to its user.js."""

    def __init__(self, home, prefs=None, env=None):
        self.profile = tempfile.mkdtemp(prefix="usage-shell-firefox-")
        port = free_port()
        settings = {
            "marionette.port": port, "browser.shell.checkDefaultBrowser": False, "browser.startup.homepage_override.mstone": "ignore",
            "datareporting.policy.dataSubmissionEnabled": False, "toolkit.telemetry.reportingpolicy.firstRun": False,
            "app.update.disabledForTesting": True, "browser.tabs.warnOnClose": False, **(prefs or {}),
        }
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for key, value in settings.items():
                f.write(f"user_pref({json.dumps(key)}, {json.dumps(value)});\n")
        env = dict(env or os.environ, HOME=home, MOZ_HEADLESS="1")
        self.process = subprocess.Popen([find_firefox(), "--headless", "--marionette", "--no-remote", "--profile", self.profile, "about:blank"],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        deadline = time.time() + 60
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
                break
            except OSError:
                if time.time() > deadline or self.process.poll() is not None:
                    raise RuntimeError("Firefox's Marionette did not answer")
                time.sleep(0.2)
        self.buffer = b""
        self.next_id = 0
        self._read()  # the greeting
        self.call("WebDriver:NewSession", capabilities={})

    def _read(self):
        while b":" not in self.buffer:
            self.buffer += self._recv()
        length, rest = self.buffer.split(b":", 1)
        while len(rest) < int(length):
            rest += self._recv()
        self.buffer = rest[int(length):]
        return json.loads(rest[:int(length)])

    def _recv(self):
        chunk = self.sock.recv(1 << 16)
        if not chunk:
            raise RuntimeError("Firefox closed Marionette")
        return chunk

    def call(self, name, **params):
        self.next_id += 1
        body = json.dumps([0, self.next_id, name, params]).encode()
        self.sock.sendall(str(len(body)).encode() + b":" + body)
        while True:
            reply = self._read()
            if reply[0] == 1 and reply[1] == self.next_id:
                if reply[2]:
                    raise RuntimeError(f"{name}: {reply[2]}")
                return reply[3]

    def install(self, xpi, private=False):
        """A temporary add-on, as about:debugging loads one: no signature asked; `private`: allowed in private windows."""
        return self.call("Addon:Install", path=xpi, temporary=True, allowPrivateBrowsing=private)

    def open_tab(self, url):
        """A new tab in front, at `url`."""
        handle = self.call("WebDriver:NewWindow", type="tab", focus=True)["handle"]
        self.call("WebDriver:SwitchToWindow", handle=handle, focus=True)
        self.call("WebDriver:Navigate", url=url)
        return handle

    def open_private_window(self, url):
        """A new private window in front, at `url`."""
        handle = self.call("WebDriver:NewWindow", type="window", private=True, focus=True)["handle"]
        self.call("WebDriver:SwitchToWindow", handle=handle, focus=True)
        self.call("WebDriver:Navigate", url=url)
        return handle

    def switch(self, handle):
        self.call("WebDriver:SwitchToWindow", handle=handle, focus=True)

    def close(self):
        try:
            self.call("Marionette:Quit")
        except Exception:
            pass
        self.sock.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
