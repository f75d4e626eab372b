#!/usr/bin/env python3
"""End-to-end tests of loading sessions over HTTP, and from standard input (`-`).

Run with ``scripts/test-sources`` (sets ``$USAGE_SHELL_BIN``), or directly:

    USAGE_SHELL_BIN=$(swift build --show-bin-path)/usage-shell python3 Tests/Sources/test_http.py -v

The binary is ``$USAGE_SHELL_BIN``, else ``.build/debug/usage-shell`` under the repository root.
A local ``http.server`` serves a fixture written by the tests; every run of the shell gets its own
temporary HOME / XDG_STATE_HOME / XDG_CONFIG_HOME, with TZ=UTC, LANG=C.UTF-8, NO_COLOR=1.
"""

import http.server
import io
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import unittest
from pathlib import Path

import pexpect

REPO_ROOT = Path(__file__).resolve().parents[2]
BIN = os.path.abspath(os.environ.get("USAGE_SHELL_BIN") or REPO_ROOT / ".build" / "debug" / "usage-shell")

SANITIZER_OPTIONS = ("ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS")
TIMEOUT = 15
# Any prompt: `usage Mon 2026-02-23> `, or `usage> ` before any data.
ANY_PROMPT = r"usage(?: [A-Z][a-z]{2} \d{4}-\d{2}-\d{2})?> "
ENTER = "\r"

SESSIONS = [
    {"session_id": "s1", "app_name": "Atlas Browser", "category": "Web",
     "start_timestamp": "2026-02-23T09:00:00Z", "end_timestamp": "2026-02-23T10:30:00Z"},
    {"session_id": "s2", "app_name": "Quillpad", "category": "Writing",
     "start_timestamp": "2026-02-23T11:00:00Z", "end_timestamp": "2026-02-23T12:15:00Z"},
    {"session_id": "s3", "app_name": "Atlas Browser", "category": "Web",
     "start_timestamp": "2026-02-23T14:00:00Z", "end_timestamp": "2026-02-23T14:20:00Z"},
    {"session_id": "s4", "app_name": "Tunebox", "category": "Music",
     "start_timestamp": "2026-02-23T13:00:00Z", "end_timestamp": "2026-02-23T15:00:00Z"},
]


def setUpModule():
    if not os.access(BIN, os.X_OK):
        raise RuntimeError(
            f"usage-shell binary not found at {BIN}: run `swift build --product usage-shell` "
            "or set USAGE_SHELL_BIN")


def free_port():
    """A port nothing listens on (bound and released at once)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def end_shell(child):
    """Ends a shell the test is done with as a closed terminal would (pexpect's close: a hang-up,
    SIGHUP, SIGCONT, SIGINT), as Tests/Interactive/ptyshell.py's Shell.close does."""
    if child.isalive():
        child.close(force=True)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Server:
    """A static file server for `directory` on 127.0.0.1:`port`, in a thread of this process."""

    def __init__(self, directory, port=0):
        handler = lambda *a, **kw: QuietHandler(*a, directory=str(directory), **kw)  # noqa: E731
        http.server.ThreadingHTTPServer.allow_reuse_address = True
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return f"http://127.0.0.1:{self.port}/{path}"

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


class HTTPSourceTests(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="usage-shell-http-"))
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        self.home = self.root / "home"
        self.state = self.root / "state"
        self.config = self.root / "config"
        self.cwd = self.root / "work"
        self.served = self.root / "served"
        for directory in (self.home, self.state, self.config, self.cwd, self.served):
            directory.mkdir()
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
            "HOME": str(self.home),
            "XDG_STATE_HOME": str(self.state),
            "XDG_CONFIG_HOME": str(self.config),
            "TZ": "UTC",
            "LANG": "C.UTF-8",
            "TERM": "xterm",
            "NO_COLOR": "1",
        }
        # An ASan binary (scripts/test-asan) gets the run's sanitizer options: suppressions, where reports go.
        self.env.update({k: v for k, v in os.environ.items() if k in SANITIZER_OPTIONS})
        text = json.dumps(SESSIONS, indent=1)
        self.file = self.cwd / "x.json"
        self.file.write_text(text)
        (self.served / "x.json").write_text(text)

    def serve(self, port=0):
        server = Server(self.served, port)
        self.addCleanup(server.stop)
        return server

    def spawn_shell(self):
        """The interactive shell under a pseudo-terminal, and the log of what it wrote."""
        log = io.StringIO()
        child = pexpect.spawn(
            BIN, [], env=self.env, cwd=str(self.cwd), dimensions=(40, 100), timeout=TIMEOUT,
            encoding="utf-8", codec_errors="replace")
        child.logfile_read = log
        child.delaybeforesend = None
        self.addCleanup(end_shell, child)
        return child, log

    def run_shell(self, *args, stdin=None):
        return subprocess.run(
            [BIN, *args], env=self.env, cwd=self.cwd, input=stdin, capture_output=True,
            text=True, timeout=TIMEOUT)

    def show_json(self, result):
        """The `show` JSON object: the last line of stdout."""
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.strip().splitlines()
        self.assertTrue(lines, "no output")
        return json.loads(lines[-1])

    # Batch (-c) ---------------------------------------------------------------------------

    def test_loading_a_url_shows_what_loading_the_file_shows(self):
        server = self.serve()
        url = server.url("x.json")
        from_url = self.run_shell("--format", "json", "-c", f"load {url}", "-c", "show")
        from_file = self.run_shell("--format", "json", "-c", "load x.json", "-c", "show")
        self.assertEqual(from_url.returncode, 0, from_url.stderr)
        self.assertEqual(from_url.stderr, "")
        url_lines = from_url.stdout.strip().splitlines()
        file_lines = from_file.stdout.strip().splitlines()
        self.assertEqual(len(url_lines), 2, from_url.stdout)
        self.assertEqual(json.loads(url_lines[0])["sessions"], len(SESSIONS))
        self.assertEqual(json.loads(url_lines[0])["source"], url)
        self.assertEqual(url_lines[-1], file_lines[-1])
        self.assertEqual(self.show_json(from_url)["day"], "2026-02-23")

    def test_a_url_as_the_source_argument_shows_what_the_file_shows(self):
        server = self.serve()
        from_url = self.run_shell(server.url("x.json"), "--format", "json", "-c", "show")
        from_file = self.run_shell("x.json", "--format", "json", "-c", "show")
        self.assertEqual(self.show_json(from_url), self.show_json(from_file))

    def test_a_404_is_one_error_line_and_exit_1(self):
        server = self.serve()
        result = self.run_shell("-c", f"load {server.url('missing.json')}")
        self.assertEqual(result.returncode, 1, result)
        lines = result.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertIn("404", lines[0])
        self.assertIn(server.url("missing.json"), lines[0])

    def test_an_unreachable_port_is_one_error_line_and_exit_1(self):
        url = f"http://127.0.0.1:{free_port()}/x.json"
        result = self.run_shell("-c", f"load {url}")
        self.assertEqual(result.returncode, 1, result)
        lines = result.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertIn("connect", lines[0])

    # Standard input -----------------------------------------------------------------------

    def test_dash_reads_standard_input(self):
        text = self.file.read_text()
        from_stdin = self.run_shell("-", "--format", "json", "-c", "show", stdin=text)
        from_file = self.run_shell("x.json", "--format", "json", "-c", "show")
        self.assertEqual(from_stdin.returncode, 0, from_stdin.stderr)
        self.assertEqual(from_stdin.stdout, from_file.stdout)

    def test_dash_through_a_shell_pipe(self):
        script = f"cat x.json | '{BIN}' - --format json -c show"
        from_pipe = subprocess.run(
            ["/bin/sh", "-c", script], env=self.env, cwd=self.cwd, capture_output=True, text=True,
            timeout=TIMEOUT)
        from_file = self.run_shell("x.json", "--format", "json", "-c", "show")
        self.assertEqual(from_pipe.returncode, 0, from_pipe.stderr)
        self.assertEqual(from_pipe.stdout, from_file.stdout)

    # Interactive --------------------------------------------------------------------------

    def test_ctrl_c_cancels_a_stalled_download_and_keeps_the_data(self):
        # A server that sends the headers and the first bytes of a large body, then stalls.
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        self.addCleanup(listener.close)
        release = threading.Event()
        self.addCleanup(release.set)

        def stall():
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            with connection:
                connection.recv(65536)
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000000\r\n\r\n[" + b" " * 70000)
                release.wait(30)

        threading.Thread(target=stall, daemon=True).start()
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/big.json"
        child, log = self.spawn_shell()
        try:
            child.expect(ANY_PROMPT)
            child.send(f"load {url}")
            child.send(ENTER)
            # The spinner names the source and shows the bytes received so far.
            child.expect_exact("Ctrl-C cancels")
            child.expect_exact("70.0 kB read")
            child.send("\x03")
            child.expect("cancelled")
            child.expect(ANY_PROMPT)
        except (pexpect.TIMEOUT, pexpect.EOF) as error:
            self.fail(f"{type(error).__name__}\n--- transcript (tail) ---\n{log.getvalue()[-3000:]!r}")
        start = len(log.getvalue())
        child.send("check")
        child.send(ENTER)
        child.expect(ANY_PROMPT)
        self.assertIn("source: :sample:", log.getvalue()[start:])
        child.sendeof()
        child.expect(pexpect.EOF)
        child.close()
        self.assertEqual(child.exitstatus, 0)

    def test_retry_after_the_server_comes_up(self):
        port = free_port()
        url = f"http://127.0.0.1:{port}/x.json"
        child, log = self.spawn_shell()

        def expect(pattern, exact=False):
            try:
                (child.expect_exact if exact else child.expect)(pattern)
            except (pexpect.TIMEOUT, pexpect.EOF) as error:
                self.fail(f"waiting for {pattern!r}: {type(error).__name__}\n"
                          f"--- transcript (tail) ---\n{log.getvalue()[-3000:]!r}")
            return child.before

        def run(line):
            start = len(log.getvalue())
            child.send(line)
            child.send(ENTER)
            expect(ANY_PROMPT)
            lines = log.getvalue()[start:].split("\r\n")
            return [l for l in lines[1:-1] if l.strip()]

        expect(ANY_PROMPT)
        failed = run(f"load {url}")
        self.assertEqual(len(failed), 1, failed)
        self.assertIn("connect", failed[0])
        self.assertIn(url, failed[0])

        self.serve(port)
        loaded = run("retry")
        self.assertTrue(any("loaded" in l and str(len(SESSIONS)) in l for l in loaded), loaded)
        shown = "\n".join(run("show"))
        self.assertIn("Monday, February 23, 2026", shown)
        self.assertIn("Atlas Browser", shown)
        self.assertIn("Quillpad", shown)

        child.sendeof()
        child.expect(pexpect.EOF)
        child.close()
        self.assertEqual(child.exitstatus, 0)


if __name__ == "__main__":
    unittest.main()
