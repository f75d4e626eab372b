#!/usr/bin/env python3
"""A working day with the tracker, under a real pseudo-terminal: three tasks added, one started,
the prompt shows it and ticks, pause and resume, another started (the first stops), quit with
one running, a second shell stops it, `today` and `calendar` show it, `load tracked` then `show`
draws it; Tab completes task names, and session ids after `@` (the latest first).

Run with ``scripts/test-interactive``.
"""

import subprocess
import time
import unittest

from ptyshell import BIN, PROMPT_ANY, Shell, StoreShellCase

RUNNING = r"usage \w{3} \d{4}-\d\d-\d\d ● Write report (\d+:\d\d)> "


def run(shell, line):
    """Types `line` and Enter; returns what the terminal showed up to the next prompt."""
    return StoreShellCase.answer(shell, line)


class TrackingAtThePromptTests(StoreShellCase):
    store_name = "track.sqlite"

    def spawn(self):
        """A shell not yet at its prompt (each test waits for the prompt it expects)."""
        return Shell(self, self.env, str(self.cwd))

    def test_a_working_day(self):
        shell = self.spawn()
        shell.expect_re(PROMPT_ANY)
        for line in ['task add "Write report" due today priority high estimate 2h',
                     'task add "Review PR" due tomorrow', 'task add Email priority low']:
            out = run(shell, line)
            self.assertIn("added task", out)
        out = run(shell, 'start "Write report"')
        self.assertIn("started Write report", out)
        self.assertRegex(out, RUNNING)
        # Pause and resume: the prompt loses the dot while paused, then has it again.
        out = run(shell, "pause")
        self.assertIn("paused Write report", out)
        self.assertNotIn("●", out.split("\n")[-1])
        out = run(shell, "resume")
        self.assertRegex(out, RUNNING)
        # Tab completes a task name (quoted: it has a space).
        shell.send("task Wri\t")
        shell.expect('"Write report" ')
        shell.send("\r")
        shell.expect_re(RUNNING)
        # Starting another stops the first, and says so.
        out = run(shell, "start Email")
        self.assertIn("stopped Write report", out)
        self.assertIn("started Email", out)
        self.assertRegex(out, r"● Email \d+:\d\d> ")
        # Quit with the stopwatch running: a second shell sees it and stops it.
        shell.send("quit\r")
        shell.child.expect(__import__("pexpect").EOF)
        r = subprocess.run([BIN, "--format", "json", "-c", "status"], env=self.env, cwd=str(self.cwd),
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
        self.assertIn('"running":true,"task":"Email"', r.stdout)
        second = self.spawn()
        second.expect_re(r"● Email \d+:\d\d> ")
        out = run(second, "stop")
        self.assertIn("stopped Email", out)
        out = run(second, "today")
        self.assertIn("Due today and overdue", out)
        self.assertIn("Write report", out)
        out = run(second, "calendar")
        self.assertIn("Calendar ·", out)
        self.assertIn("tracked on 1 day", out)
        run(second, "load tracked")
        out = run(second, "show")
        self.assertIn("Write report", out)
        self.assertIn("Email", out)
        self.assertEqual(second.exit_with_ctrl_d(), (0, None))

    def test_tab_completes_session_ids_the_latest_first(self):
        r = subprocess.run([BIN, "-c", "track Write 2026-02-23T09:00 2026-02-23T10:00",
                            "-c", "track Mail 2026-02-23T10:00 2026-02-23T10:30",
                            "-c", "track Write 2026-02-23T11:00 2026-02-23T12:00"],
                           env=self.env, cwd=str(self.cwd), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=30)
        self.assertEqual(r.returncode, 0, r.stderr)
        shell = self.spawn()
        shell.expect_re(PROMPT_ANY)
        # `@` and Tab: every session's id, the latest first, then the line again.
        start = shell.mark()
        shell.send("session edit @\t")
        shell.expect_re(PROMPT_ANY)
        listed = [line.split() for line in shell.since(start).split("\r\n") if "@1" in line]
        self.assertEqual(listed, [["@3", "@2", "@1"]], shell.since(start))
        # One more digit makes it one: completed with the space after it (else the line would
        # read `@2task`, no id).
        shell.send("2\t")
        out = run(shell, "task Email")
        self.assertIn("changed @2 Email Mon 2026-02-23 10:00–10:30 (30m)", out)
        out = run(shell, "undo")
        self.assertIn("undid session edit task @2 Email", out)
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))

    def test_the_prompt_ticks(self):
        r = subprocess.run([BIN, "-c", "start Tick --at " + time.strftime("%H:%M", time.localtime(time.time() - 125))],
                           env=self.env, cwd=str(self.cwd), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=30)
        self.assertEqual(r.returncode, 0, r.stderr)
        shell = self.spawn()
        first = shell.expect_re(r"● Tick (\d+):(\d\d)> ")
        before = shell.child.match.group(0)
        shell.send("\r")
        shell.expect_re(r"● Tick (\d+):(\d\d)> ")
        minutes = int(shell.child.match.group(1)) * 60 + int(shell.child.match.group(2))
        self.assertGreaterEqual(minutes, 2, before)


if __name__ == "__main__":
    unittest.main()
