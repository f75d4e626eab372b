#!/usr/bin/env python3
"""`watch` at a real pseudo-terminal, its screen read back with pyte (a VT100 emulator).

Run with ``scripts/test-interactive`` (needs pexpect and pyte: ``apt-get install python3-pexpect
python3-pyte``). The midnight tests run the shell under ``faketime`` (``apt-get install faketime``),
its clock started three seconds before midnight in Tokyo, so no test waits for a real midnight.

- `watch 1 show` on a file that a second process rewrites: the new totals appear within two
  seconds; a broken rewrite puts the error in the status line while the last good picture stays;
  a resize redraws at the new width; Ctrl-C leaves the alternate screen, shows the cursor again,
  prints the last frame where it stays in the scrollback, and gives back the prompt with the last
  data loaded; `q` does the same.
- SIGTERM puts the screen back and ends the shell by the signal; with stdout redirected, outputs
  follow one another in the file and Ctrl-C gives back the prompt.
- At Tokyo's midnight the watched `today` becomes Tuesday, and so does the prompt's day.
"""

import json
import os
import re
import signal
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

import pexpect
import pyte

from ptyshell import BIN, CTRL_C, Shell, isolated_env

ENTER_ALT = "\x1b[?1049h"
# The end of a frame: every frame is one write inside a synchronized update.
FRAME_END = "\x1b[?2026l"
LEAVE_ALT = "\x1b[?1049l"
SHOW_CURSOR = "\x1b[?25h"
# How long new totals may take to show: the acceptance's two seconds; an ASan build is slower.
WITHIN = 2.0 if not os.environ.get("ASAN_OPTIONS") else 6.0
ROW = re.compile(r"\x1b\[(\d+);1H")
CSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def sessions(minutes, app="Editor"):
    """One session on 2026-02-23 from 09:00 UTC, `minutes` long."""
    end = 9 * 60 + minutes
    return [{"session_id": "a", "app_name": app, "category": "Work",
             "start_timestamp": "2026-02-23T09:00:00Z",
             "end_timestamp": f"2026-02-23T{end // 60:02d}:{end % 60:02d}:00Z"}]


def rewrite(path, text):
    """A second process writes the file anew (a temporary file renamed over it, as exports do)."""
    code = ("import os, sys; p = sys.argv[1]; open(p + '.tmp', 'w').write(sys.argv[2]); "
            "os.replace(p + '.tmp', p)")
    subprocess.run([sys.executable, "-c", code, str(path), text], check=True)


def faketime_command(start, *args):
    """usage-shell ARGS with its wall clock started at `start` (UTC) by faketime, and running on;
    the monotonic clock, which times the ticks, is left alone. `faketime` forks and waits for the
    shell: it is made to ignore SIGINT (the shell sets its own handler), or Ctrl-C would end it,
    and the terminal's session with it."""
    return ["sh", "-c", 'trap "" INT; exec faketime -f "$0" "$@"', "@" + start, BIN, *args]


def faketime_env(env):
    """The shell's environment under faketime."""
    return dict(env, FAKETIME_DONT_FAKE_MONOTONIC="1")


def needs_faketime(case):
    """Fails without faketime; skips under AddressSanitizer (scripts/test-asan), whose runtime reads
    the clock before libfaketime is set up: libfaketime then says "Unexpected recursive calls to
    clock_gettime()" and the shell never starts. The rollover itself runs under ASan in the unit
    tests (MidnightRolloverTests), with an injected clock."""
    if os.environ.get("ASAN_OPTIONS"):
        case.skipTest("libfaketime cannot start under AddressSanitizer; MidnightRolloverTests cover this there")
    if not shutil.which("faketime"):
        case.fail("faketime is needed for this test: apt-get install faketime")


def screen_of(text, columns, lines):
    """What a VT100 of that size shows after `text` (the part written on the alternate screen)."""
    screen = pyte.Screen(columns, lines)
    pyte.Stream(screen).feed(text)
    return [line.rstrip() for line in screen.display]


def frame_rows(text):
    """The rows the last whole frame in `text` wrote (after its clear), as plain text by row."""
    start = text.rfind("\x1b[2J")
    rows = {}
    for match in ROW.finditer(text, start):
        end = text.find("\x1b[", match.end())
        chunk = text[match.end():end if end >= 0 else len(text)]
        rows[int(match.group(1))] = CSI.sub("", chunk)
    return rows


class WatchAtATerminalTests(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="usage-shell-pty-watch-"))
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        self.home, self.cwd = self.root / "home", self.root / "work"
        for directory in (self.home, self.cwd):
            directory.mkdir()
        self.env = isolated_env(self.home, self.root / "state", self.root / "config")
        self.data = self.cwd / "data.json"
        self.data.write_text(json.dumps(sessions(30)), encoding="utf-8")

    def spawn(self, *args, command=None, dimensions=(30, 100)):
        return Shell(self, self.env, str(self.cwd), args=args, command=command, dimensions=dimensions)

    def wait_for(self, shell, text, within):
        """Waits for `text` on the terminal; fails unless it came within `within` seconds."""
        started = time.monotonic()
        shell.expect(text, timeout=within + 5)
        elapsed = time.monotonic() - started
        self.assertLessEqual(elapsed, within, f"{text!r} came after {elapsed:.2f} s")

    def test_watch_follows_a_rewritten_file_keeps_the_last_good_picture_and_ctrl_c_gives_back_the_prompt(self):
        shell = self.spawn(str(self.data), "--tz", "UTC")
        shell.prompt("usage Mon 2026-02-23> ")
        start = shell.mark()
        shell.send("watch 1 show\r")
        shell.expect(ENTER_ALT)
        shell.expect("Ctrl-C or q to stop")
        shell.expect("30m total")
        shell.expect(FRAME_END)  # the rest of the frame that text is in
        screen = screen_of(shell.since(start), 100, 30)
        self.assertRegex(screen[0], r"^every 1 s: show · /tmp/.*….*/data\.json \(1 session\) · refreshed \d\d:\d\d:\d\d · Ctrl-C or q to stop$")
        self.assertEqual(screen[1:3], ["Monday, February 23, 2026", "30m total"])

        # A second process rewrites the file: the new totals, within two seconds.
        rewrite(self.data, json.dumps(sessions(45)))
        self.wait_for(shell, "45m total", WITHIN)
        shell.expect(FRAME_END)  # the rest of the frame that text is in
        screen = screen_of(shell.since(start), 100, 30)
        self.assertEqual(screen[1:3], ["Monday, February 23, 2026", "45m total"])
        self.assertIn("Editor", "\n".join(screen))

        # A broken rewrite: the error in the status line, the last good picture kept.
        rewrite(self.data, '[{"app_name": "Editor", ')
        self.wait_for(shell, "refresh failed", WITHIN)
        shell.expect(FRAME_END)  # the rest of the frame that text is in
        screen = screen_of(shell.since(start), 100, 30)
        self.assertRegex(screen[0], r"^refresh failed at \d\d:\d\d:\d\d: cannot load '/tmp/")
        self.assertTrue(screen[0].endswith(" · Ctrl-C or q to stop"), screen[0])
        self.assertEqual(screen[1:3], ["Monday, February 23, 2026", "45m total"])

        # Mended again, then a resize: the whole frame is drawn anew at 60 columns.
        rewrite(self.data, json.dumps(sessions(50)))
        self.wait_for(shell, "50m total", WITHIN)
        resized = shell.mark()
        shell.child.setwinsize(30, 60)
        shell.expect("\x1b[2J")
        shell.expect("Ctrl-C or q to stop")
        shell.expect(FRAME_END)  # the rest of the frame that text is in
        rows = frame_rows(shell.since(resized))
        self.assertRegex(rows[1], r"^every 1 s: show · refreshed \d\d:\d\d:\d\d · Ctrl-C or q to stop$")
        self.assertEqual(rows[3], "50m total")
        self.assertTrue(all(len(text) <= 60 for text in rows.values()), rows)

        # Ctrl-C: the normal screen and the cursor back, the last frame printed there, the prompt.
        stopped = shell.mark()
        shell.send(CTRL_C)
        shell.prompt("usage Mon 2026-02-23> ")
        after = shell.since(stopped)
        self.assertIn(LEAVE_ALT, after)
        self.assertIn(SHOW_CURSOR, after)
        printed = after[after.index(LEAVE_ALT) + len(LEAVE_ALT):]
        lines = [line for line in printed.split("\r\n")]
        self.assertRegex(lines[0], r"every 1 s: show · refreshed \d\d:\d\d:\d\d · Ctrl-C or q to stop")
        self.assertEqual(lines[1:3], ["Monday, February 23, 2026", "50m total"])

        # The shell goes on, with the last data loaded, and the terminal edits lines again.
        out = shell.run("day", until="50m total", prompt="usage Mon 2026-02-23> ")
        self.assertIn("Monday, February 23, 2026\r\n50m total", out)

        # `q` stops a watch too.
        shell.send("watch 5 day\r")
        shell.expect(ENTER_ALT)
        shell.expect("50m total")
        shell.send("q")
        shell.expect(LEAVE_ALT)
        shell.prompt("usage Mon 2026-02-23> ")
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))

    def test_a_watch_that_cannot_start_says_why_and_stays_at_the_prompt(self):
        shell = self.spawn(str(self.data), "--tz", "UTC")
        shell.prompt("usage Mon 2026-02-23> ")
        out = shell.run("watch 1 app Nothing", prompt="usage Mon 2026-02-23> ")
        self.assertIn("error: no app named 'Nothing'", out)
        self.assertNotIn(ENTER_ALT, out)
        out = shell.run("watch load", prompt="usage Mon 2026-02-23> ")
        self.assertIn("'load' does not only show data", out)

    def test_sigterm_puts_the_screen_back_then_ends_the_shell_as_the_signal_would(self):
        shell = self.spawn(str(self.data), "--tz", "UTC")
        shell.prompt("usage Mon 2026-02-23> ")
        shell.send("watch 1 day\r")
        shell.expect(ENTER_ALT)
        shell.expect("30m total")
        shell.child.kill(signal.SIGTERM)
        shell.expect(LEAVE_ALT)
        shell.child.expect(pexpect.EOF, timeout=10)
        shell.child.close()
        self.assertIn(SHOW_CURSOR, shell.transcript)
        self.assertEqual(shell.child.signalstatus, signal.SIGTERM)

    def test_with_stdout_redirected_outputs_follow_one_another_and_ctrl_c_gives_back_the_prompt(self):
        out = self.cwd / "out.txt"
        shell = self.spawn(command=["sh", "-c", f'exec "{BIN}" "{self.data}" --tz UTC > "{out}"'])
        shell.prompt("usage Mon 2026-02-23> ")
        shell.send("watch 0.5 day\r")
        deadline = time.monotonic() + 10
        while out.read_text(encoding="utf-8").count("30m total") < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        shell.send(CTRL_C)
        shell.prompt("usage Mon 2026-02-23> ")
        written = out.read_text(encoding="utf-8")
        self.assertNotIn(ENTER_ALT, written)
        blocks = [b for b in written.split("\n\n") if b.strip()]
        self.assertGreaterEqual(len(blocks), 3, written)
        for block in blocks:
            self.assertRegex(block, r"^\w{3} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(every 0\.5 s\)\nMonday, February 23, 2026\n30m total$")
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))

    def test_today_moves_to_tuesday_at_tokyos_midnight_in_the_watch_and_at_the_prompt(self):
        needs_faketime(self)
        # 14:59:57 UTC is 23:59:57 in Tokyo: its midnight is three seconds away (UTC's is nine hours away).
        shell = Shell(self, faketime_env(self.env), str(self.cwd), dimensions=(30, 100), command=faketime_command(
            "2026-02-23 14:59:57", str(self.data), "--tz", "Asia/Tokyo", "--day", "today"))
        shell.prompt("usage Mon 2026-02-23> ")
        shell.send("watch 1 day\r")
        shell.expect(ENTER_ALT)
        shell.expect("Monday, February 23, 2026")
        shell.expect("Tuesday, February 24, 2026", timeout=10)
        shell.send(CTRL_C)
        shell.expect(LEAVE_ALT)
        shell.prompt("usage Tue 2026-02-24> ")

    def test_the_prompts_day_moves_at_midnight_while_it_waits(self):
        needs_faketime(self)
        shell = Shell(self, faketime_env(self.env), str(self.cwd), dimensions=(30, 100), command=faketime_command(
            "2026-02-23 14:59:58", str(self.data), "--tz", "Asia/Tokyo", "--day", "today"))
        shell.prompt("usage Mon 2026-02-23> ")
        time.sleep(3)
        out = shell.run("day", until="Tuesday, February 24, 2026", prompt="usage Tue 2026-02-24> ")
        self.assertIn("note: midnight passed: the day is now Tue 2026-02-24", out)


if __name__ == "__main__":
    unittest.main()
