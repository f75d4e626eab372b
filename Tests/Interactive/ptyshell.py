"""ptyshell -- what the pseudo-terminal tests share: one usage-shell under a real pseudo-terminal
(`Shell`, pexpect), the environment every shell gets, the keys, the sample's prompt and totals,
and the test cases' bases (`ShellCase`: a shell in folders of its own; `StoreShellCase`: the same
with a store of its own named by USAGE_SHELL_DB). Not a test file: the test_*.py files import it.

The binary is ``$USAGE_SHELL_BIN``, else ``.build/debug/usage-shell`` under the repository root.

libedit redraws the line with cursor escapes (``\\r\\x1b[25Gart ``), so the tests assert on
effects -- a command's output, the history file, the exit status -- and never on the exact echo
of what was typed. Text and Ctrl-C are sent as separate steps, waiting for the echo in between,
because the terminal raises SIGINT the moment ^C is written (and flushes unread input).

Every shell runs in its own temporary HOME / XDG_STATE_HOME / XDG_CONFIG_HOME, with TZ=UTC,
LANG=C.UTF-8, TERM=xterm, NO_COLOR=1, a 24x100 terminal (unless a test asks for another) and a
temporary working directory; fixture data files are written by the tests themselves.
"""

import io
import json
import os
import re
import shutil
import tempfile
import threading
import time
import unicodedata
import unittest
from pathlib import Path

import pexpect

REPO_ROOT = Path(__file__).resolve().parents[2]
# Absolute: every shell runs in its own temporary working directory.
BIN = os.path.abspath(os.environ.get("USAGE_SHELL_BIN") or REPO_ROOT / ".build" / "debug" / "usage-shell")
# Under scripts/test and CI a test that cannot run fails with its reason instead of skipping.
STRICT = bool(os.environ.get("USAGE_SHELL_STRICT") or os.environ.get("CI"))

SANITIZER_OPTIONS = ("ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS")
TIMEOUT = 10
PROMPT = "usage Mon 2026-02-23> "
# Any prompt: `usage Tue 2026-02-24> `, or `usage> ` before any data.
ANY_PROMPT = r"usage(?: [A-Z][a-z]{2} \d{4}-\d{2}-\d{2})?> "
HEADER = "Monday, February 23, 2026"
TOTALS = "7h 32m total · 6h 22m screen time"
UP = "\x1b[A"
CTRL_C = "\x03"
CTRL_D = "\x04"
CTRL_R = "\x12"
CTRL_U = "\x15"
TAB = "\t"
ENTER = "\r"
RANKED_ROW = re.compile(r"^\s*\d+\. \S")


def require_binary():
    """Fails (never skips) when the binary under test is not there."""
    if not os.access(BIN, os.X_OK):
        raise RuntimeError(
            f"usage-shell binary not found at {BIN}: run `swift build --product usage-shell` "
            "or set USAGE_SHELL_BIN (scripts/test-interactive does both)")


def session(app, category, start, end):
    """One session row on 2026-02-23 (UTC), times as HH:MM."""
    return {
        "app_name": app,
        "category": category,
        "start_timestamp": f"2026-02-23T{start}:00Z",
        "end_timestamp": f"2026-02-23T{end}:00Z",
    }


def stalled_fifo(case, fifo):
    """Makes `fifo` a FIFO whose writer, once a reader opens it, sends one byte (`[`) and then
    holds it open without a word more: a load that can only end by Ctrl-C (or its timeout)."""
    os.mkfifo(fifo)
    release = threading.Event()

    def writer():
        with open(fifo, "w", encoding="utf-8") as stream:
            stream.write("[")
            stream.flush()
            release.wait(8)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()

    def unblock():
        release.set()
        if thread.is_alive():  # still waiting for a reader: open one so open() returns
            try:
                fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
                thread.join(2)
                os.close(fd)
            except OSError:
                pass
        thread.join(2)

    case.addCleanup(unblock)


def isolated_env(home, state, config):
    """The environment every shell under test gets: its own HOME and XDG folders, UTC, UTF-8,
    an xterm without colour; and, for an ASan binary (scripts/test-asan), the run's sanitizer
    options (suppressions, where reports go)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_STATE_HOME": str(state),
        "XDG_CONFIG_HOME": str(config),
        "TZ": "UTC",
        "LANG": "C.UTF-8",
        "TERM": "xterm",
        "NO_COLOR": "1",
    }
    env.update({k: v for k, v in os.environ.items() if k in SANITIZER_OPTIONS})
    return env


def cells(text):
    """Terminal cells of `text`: East Asian wide and fullwidth characters count 2."""
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def banner_of(case, before, width=100):
    """The banner: everything the terminal showed before the first prompt. It is one message,
    wrapped to the terminal's width (continuation lines indented two spaces), so its words are
    checked without the wrapping's spaces; returns its lines."""
    lines = before.split("\r\n")
    case.assertEqual(lines[-1], "", f"the prompt starts a line: {before!r}")
    banner = lines[:-1]
    case.assertTrue(banner and banner[0].startswith("usage-shell "), f"the banner first: {before!r}")
    for line in banner:
        case.assertLessEqual(cells(line), width, f"the banner wider than the terminal: {before!r}")
    for line in banner[1:]:
        case.assertTrue(line.startswith("  "), f"a banner line that is not its continuation: {before!r}")
    return banner


def same_words(text):
    """`text` without spaces: what a wrapped line and the line it was must share."""
    return re.sub(r"\s+", "", text)


def result_lines(segment):
    """The lines a command printed: `segment` is what the terminal showed from the command's
    echo to the next prompt; the first line (the echo) and the last fragment (the prompt) go."""
    lines = segment.split("\r\n")
    return lines[1:-1]


class Shell:
    """One usage-shell under a pseudo-terminal, with everything it wrote kept in a transcript."""

    def __init__(self, case, env, cwd, args=(), command=None, dimensions=(24, 100)):
        self.case = case
        self.log = io.StringIO()
        program = command[0] if command else BIN
        argv = list(command[1:]) if command else list(args)
        self.child = pexpect.spawn(
            program, argv, env=env, cwd=cwd, dimensions=dimensions, timeout=TIMEOUT,
            encoding="utf-8", codec_errors="replace")
        self.child.logfile_read = self.log
        # The tests wait for the prompt (printed once libedit is in raw mode) before typing, so
        # pexpect's default 50 ms pause before every send is not needed.
        self.child.delaybeforesend = None
        case.addCleanup(self.close)

    # The transcript -----------------------------------------------------------------------

    @property
    def transcript(self):
        return self.log.getvalue()

    def mark(self):
        return len(self.transcript)

    def since(self, mark):
        return self.transcript[mark:]

    # Waiting ------------------------------------------------------------------------------

    def _fail(self, what, error):
        tail = self.transcript[-3000:]
        self.case.fail(f"{what}: {type(error).__name__}\n--- terminal transcript (tail) ---\n{tail!r}")

    def expect(self, text, timeout=TIMEOUT):
        """Waits for `text` (exact); returns what came before it."""
        try:
            self.child.expect_exact(text, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF) as error:
            self._fail(f"waiting for {text!r}", error)
        return self.child.before

    def expect_re(self, pattern, timeout=TIMEOUT):
        try:
            self.child.expect(pattern, timeout=timeout)
        except (pexpect.TIMEOUT, pexpect.EOF) as error:
            self._fail(f"waiting for /{pattern}/", error)
        return self.child.before

    def prompt(self, exact=PROMPT):
        return self.expect(exact) if exact else self.expect_re(ANY_PROMPT)

    # Typing -------------------------------------------------------------------------------

    def send(self, text):
        self.child.send(text)

    def run(self, line, until=None, prompt=PROMPT):
        """Types `line` and Enter; waits for `until` (if given), then the next prompt. Returns
        what the terminal showed from the echo to the prompt."""
        start = self.mark()
        self.send(line)
        self.send(ENTER)
        if until:
            self.expect(until)
        self.prompt(prompt)
        return self.since(start)

    def exit_with_ctrl_d(self):
        """Ctrl-D on an empty line; waits for the end and returns the exit status."""
        self.send(CTRL_D)
        try:
            self.child.expect(pexpect.EOF, timeout=TIMEOUT)
        except pexpect.TIMEOUT as error:
            self._fail("waiting for the shell to exit after Ctrl-D", error)
        self.child.close()
        return self.child.exitstatus, self.child.signalstatus

    def close(self):
        """Ends a shell the test is done with as a terminal closed under it would: pexpect's own
        close (the terminal hung up, then SIGHUP, SIGCONT and SIGINT, and SIGKILL if it still
        runs). A crash this makes is the program's (test_prompt_signals.py)."""
        if self.child.isalive():
            self.child.close(force=True)


class ShellCase(unittest.TestCase):
    """A test case whose shells each run in a folder of their own (HOME, XDG folders, a working
    directory), removed at its end."""

    maxDiff = None

    @classmethod
    def setUpClass(cls):
        require_binary()
    maxDiff = None

    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="usage-shell-pty-"))
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        self.home = self.root / "home"
        self.state = self.root / "state"
        self.config = self.root / "config"
        self.cwd = self.root / "work"
        for directory in (self.home, self.state, self.config, self.cwd):
            directory.mkdir()
        self.history_path = self.state / "usage-shell" / "history"
        self.env = isolated_env(self.home, self.state, self.config)

    # Helpers ------------------------------------------------------------------------------

    def spawn(self, *args, env=None, command=None, dimensions=(24, 100)):
        return Shell(self, env or self.env, str(self.cwd), args=args, command=command, dimensions=dimensions)

    def started(self, *args, **kwargs):
        """A shell on the sample, at its first prompt."""
        shell = self.spawn(*args, **kwargs)
        shell.prompt()
        return shell

    def write_sessions(self, name, rows):
        path = self.cwd / name
        path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
        return path

    def history(self):
        """The history file's lines (it must exist)."""
        self.assertTrue(self.history_path.exists(), f"no history file at {self.history_path}")
        return self.history_path.read_text(encoding="utf-8").splitlines()

    def assertRankedRows(self, lines, count):
        """`lines` (a command's result lines) hold exactly `count` ranked rows (`  1. Spotify …`)."""
        rows = [line for line in lines if RANKED_ROW.match(line)]
        self.assertEqual(len(rows), count, f"ranked rows in {lines!r}")


# Any prompt, with or without a running stopwatch (`usage [running 0:05 Email]> ` too).
PROMPT_ANY = r"usage[^>\r\n]*> "


class StoreShellCase(ShellCase):
    """A shell case whose shells open on a store of their own (`self.store`, named by
    USAGE_SHELL_DB, not there until a command makes it) and are waited for at any prompt."""

    store_name = "usage.sqlite"

    def setUp(self):
        super().setUp()
        self.store = self.root / self.store_name
        self.env["USAGE_SHELL_DB"] = str(self.store)

    def spawn(self, *args, **kwargs):
        """A shell at its first prompt, whatever the prompt says."""
        shell = super().spawn(*args, **kwargs)
        shell.expect_re(PROMPT_ANY)
        return shell

    @staticmethod
    def answer(shell, line, until=None):
        """Types `line` and Enter; waits for `until`, then any prompt; returns what was shown."""
        start = shell.mark()
        shell.send(line + ENTER)
        if until:
            shell.expect(until)
        shell.expect_re(PROMPT_ANY)
        return shell.since(start)


class BigImportCase(StoreShellCase):
    """A store case with an import big enough to interrupt (MANY sessions: the reading and the
    writing take a second or more each), the store's files, and a wait for a condition."""

    MANY = 200_000

    def big_file(self):
        rows = [{"session_id": f"s{k}", "app_name": f"App {k % 40}", "category": f"Cat {k % 6}",
                 "start_timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1767225600 + k * 120)),
                 "end_timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1767225600 + k * 120 + 60))}
                for k in range(self.MANY)]
        path = self.cwd / "big.json"
        path.write_text(json.dumps(rows))
        return path

    def store_files(self):
        return sorted(p.name for p in self.root.iterdir() if p.name.startswith(self.store_name))

    def wait_for(self, condition, what, timeout=120):
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                self.fail(f"waited {timeout} s for {what}")
            time.sleep(0.01)

