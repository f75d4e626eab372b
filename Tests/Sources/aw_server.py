"""A real ActivityWatch server (aw-server, Python) for tests: start, fill, export, stop.

The server runs from the virtual environment that ``scripts/aw-venv`` makes (``$AW_SERVER``, else
``$AW_VENV/bin/aw-server``, else ``.build/aw-venv/bin/aw-server`` under the repository root). This
module itself uses only the standard library.

Each server gets a free port on 127.0.0.1 and its own temporary HOME / XDG_DATA_HOME /
XDG_CONFIG_HOME / XDG_CACHE_HOME, so it never reads or writes a real ActivityWatch database; it
runs with ``--testing`` (a separate database name, and buckets may be deleted without ?force=1).

    with AWServer.start() as aw:
        aw.create_bucket("aw-watcher-window_laptop", "currentwindow", "laptop", client="aw-watcher-window")
        aw.insert_events("aw-watcher-window_laptop", [event("2026-02-23T09:00:00Z", 1800, app="Firefox")])
        aw.export_to("/tmp/export.json")
        aw.url  # "aw://127.0.0.1:PORT"
"""

import atexit
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0


# Servers not stopped yet: stopped at exit too, should a test run end without its cleanups.
_running = set()


@atexit.register
def _stop_all():
    for server in list(_running):
        server.stop()


class AWServerMissing(RuntimeError):
    """aw-server is not installed where the tests look for it."""


def server_executable():
    """Path of the aw-server script: $AW_SERVER, $AW_VENV/bin/aw-server or .build/aw-venv/bin/aw-server."""
    if os.environ.get("AW_SERVER"):
        return os.path.abspath(os.environ["AW_SERVER"])
    venv = os.environ.get("AW_VENV") or str(REPO_ROOT / ".build" / "aw-venv")
    if not os.path.isabs(venv):
        venv = str(REPO_ROOT / venv)
    return os.path.join(venv, "bin", "aw-server")


def check_installed():
    """Raises AWServerMissing, saying to run scripts/aw-venv, unless aw-server is there and runs."""
    exe = server_executable()
    hint = "run scripts/aw-venv (it installs aw-server into .build/aw-venv), or set AW_VENV / AW_SERVER"
    if not os.access(exe, os.X_OK):
        raise AWServerMissing(f"aw-server not found at {exe}: {hint}")
    try:
        subprocess.run([exe, "--version"], check=True, capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as e:
        raise AWServerMissing(f"aw-server at {exe} does not run ({e}): {hint}") from e
    return exe


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def event(timestamp, duration, **data):
    """One event: RFC 3339 timestamp, duration in seconds, data fields (app=, title=, status=...)."""
    return {"timestamp": timestamp, "duration": duration, "data": data}


class AWServerError(RuntimeError):
    pass


class AWServer:
    """One running aw-server process. Use AWServer.start(); stop() (or the with block) ends it."""

    def __init__(self, exe, port, root, process, log_path):
        self.exe = exe
        self.port = port
        self.root = root
        self.process = process
        self.log_path = log_path

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}/api/0"

    @property
    def url(self):
        """The source usage-shell takes: aw://127.0.0.1:PORT."""
        return f"aw://127.0.0.1:{self.port}"

    @classmethod
    def start(cls, port=None, timeout=START_TIMEOUT):
        exe = check_installed()
        root = tempfile.mkdtemp(prefix="usage-shell-aw-server-")
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": root,
            "XDG_DATA_HOME": os.path.join(root, "data"),
            "XDG_CONFIG_HOME": os.path.join(root, "config"),
            "XDG_CACHE_HOME": os.path.join(root, "cache"),
            "LANG": "C.UTF-8",
            "TZ": "UTC",
            "PYTHONUNBUFFERED": "1",
        }
        # A port taken between free_port() and the bind makes the server exit: try a few.
        last = None
        for _ in range(3):
            p = port or free_port()
            log_path = os.path.join(root, f"aw-server-{p}.log")
            log = open(log_path, "wb")
            try:
                process = subprocess.Popen(
                    [exe, "--testing", "--host", "127.0.0.1", "--port", str(p)],
                    env=env, cwd=root, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
            finally:
                log.close()
            server = cls(exe, p, root, process, log_path)
            _running.add(server)
            try:
                server._wait_ready(timeout)
                return server
            except AWServerError as e:
                last = e
                server._terminate()
                if port:
                    break
            except BaseException:
                server.stop()
                raise
        shutil.rmtree(root, ignore_errors=True)
        raise last

    def _wait_ready(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise AWServerError(f"aw-server exited with status {self.process.returncode}:\n{self.log()}")
            try:
                info = self.get("/info", timeout=2)
                if isinstance(info, dict) and info.get("testing") is True:
                    return
            except (OSError, AWServerError):
                pass
            if time.monotonic() > deadline:
                raise AWServerError(f"aw-server did not answer /api/0/info within {timeout}s:\n{self.log()}")
            time.sleep(0.1)

    def log(self):
        try:
            return Path(self.log_path).read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    # HTTP

    def request(self, method, path, body=None, timeout=30):
        """JSON request to /api/0 + path; returns the decoded JSON answer (None for an empty one)."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as e:
            if e.code == 304:  # POST /buckets/ID of an existing bucket
                return None
            raise AWServerError(f"{method} {path}: HTTP {e.code}: {e.read()[:500]!r}") from e
        return json.loads(raw) if raw.strip() else None

    def get(self, path, timeout=30):
        return self.request("GET", path, timeout=timeout)

    def create_bucket(self, bucket_id, bucket_type, hostname, client="usage-shell-tests"):
        """POST /api/0/buckets/ID; an existing bucket is left as it is (the server answers 304)."""
        return self.request("POST", f"/buckets/{urllib.parse.quote(bucket_id, safe='')}",
                            {"client": client, "type": bucket_type, "hostname": hostname})

    def insert_events(self, bucket_id, events):
        """POST /api/0/buckets/ID/events with a list: stored as given (no heartbeat merging)."""
        return self.request("POST", f"/buckets/{urllib.parse.quote(bucket_id, safe='')}/events", list(events))

    def heartbeat(self, bucket_id, event, pulsetime):
        """POST /api/0/buckets/ID/heartbeat: merged into the last event (same id, longer) when
        its data is the same and it comes within `pulsetime` seconds of that event's end, as a
        watcher's heartbeats grow the current window event."""
        return self.request("POST", f"/buckets/{urllib.parse.quote(bucket_id, safe='')}/heartbeat?pulsetime={pulsetime}", event)

    def events(self, bucket_id, start=None, end=None, limit=None):
        """GET /api/0/buckets/ID/events (newest first), start/end as RFC 3339 strings."""
        query = {k: v for k, v in (("start", start), ("end", end), ("limit", limit)) if v is not None}
        qs = ("?" + urllib.parse.urlencode(query)) if query else ""
        return self.get(f"/buckets/{urllib.parse.quote(bucket_id, safe='')}/events{qs}")

    def buckets(self):
        return self.get("/buckets/")

    def export(self):
        """GET /api/0/export: {"buckets": {ID: {..., "events": [...]}}}."""
        return self.get("/export")

    def export_to(self, path):
        """Saves /api/0/export to path byte for byte, as the server sent it; returns the path."""
        with urllib.request.urlopen(self.base + "/export", timeout=30) as resp:
            Path(path).write_bytes(resp.read())
        return path

    # Stop

    def _terminate(self):
        # aw-server is one process (no reloader): SIGTERM ends it at once.
        p = self.process
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(STOP_TIMEOUT)
        _running.discard(self)

    def stop(self):
        """Ends the server (SIGTERM, then SIGKILL) and removes its temporary data. Safe to call twice."""
        self._terminate()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False
