#!/usr/bin/env python3
"""A screen fits a screen (issue 21), under a real pseudo-terminal: `show` in a 24-row terminal
is the compact screen and the prompt follows; a result taller than the terminal goes through the
pager (`less -FRX` when PAGER is unset) and `q` returns to the prompt; the same commands piped
print everything without a pager; `clear` and Ctrl-L clear the screen.

Run with ``scripts/test-interactive`` (it runs every ``Tests/Interactive/test_*.py``), or
directly as ``test_interactive.py`` says.
"""

import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

import pexpect

from ptyshell import BIN, STRICT, HEADER, PROMPT, TIMEOUT, TOTALS, Shell, isolated_env, result_lines, require_binary

CLEAR = "\x1b[H\x1b[2J"
CTRL_L = "\x0c"


def setUpModule():
    require_binary()
    if shutil.which("less") is None:
        if STRICT:
            raise RuntimeError("less is not installed (scripts/packages.txt): the screen tests cannot run")
        raise unittest.SkipTest("less is not installed (apt-get install less)")


class ScreenTests(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="usage-shell-screen-"))
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        dirs = [self.root / name for name in ("home", "state", "config", "work")]
        for directory in dirs:
            directory.mkdir()
        self.cwd = str(dirs[3])
        self.env = isolated_env(*dirs[:3])

    def started(self, rows=24, env=None):
        shell = Shell(self, env or self.env, self.cwd, dimensions=(rows, 100))
        shell.prompt()
        return shell

    def test_show_in_a_24_row_terminal_is_compact_and_the_prompt_follows(self):
        shell = self.started(rows=24)
        lines = result_lines(shell.run("show", until="more apps"))
        self.assertLessEqual(len(lines), 23, lines)
        self.assertEqual(lines[0], HEADER + " · " + TOTALS)
        self.assertIn("Top apps", lines)
        self.assertNotIn(":", lines[-1])  # no pager's prompt: the shell's prompt came back at once

    def test_show_full_pages_through_less_and_q_returns_to_the_prompt(self):
        shell = self.started(rows=24)
        mark = shell.mark()
        shell.send("show full\r")
        # less shows the first screen and waits at its own prompt (the last line, `:`).
        shell.expect("Apps by hour")
        shell.expect_re(r"\r:\x1b\[K|\n:")
        screen = shell.since(mark)
        self.assertIn(HEADER, screen)
        self.assertNotIn("Clock", screen)  # the last app is past the first screen
        shell.send("q")
        shell.prompt()
        # The shell goes on as before.
        out = shell.run("day", until=TOTALS)
        self.assertIn(HEADER, out)

    def test_the_pager_shows_everything_when_scrolled(self):
        shell = self.started(rows=24)
        shell.send("help\r")
        shell.expect_re(r"\r:\x1b\[K|\n:")
        shell.send("G")  # to the end
        shell.expect("names the day.")
        shell.send("q")
        shell.prompt()

    def test_set_pager_off_and_an_empty_PAGER_print_it_all_at_once(self):
        shell = self.started(rows=24)
        shell.run("set pager off")
        out = shell.run("show full", until="  16. Clock")
        self.assertIn(HEADER, out)
        self.assertNotIn("\r:", out)
        shell = self.started(rows=24, env=dict(self.env, PAGER=""))
        out = shell.run("help", until="names the day.")
        self.assertNotIn("\r:", out)

    def test_the_same_commands_piped_print_everything_without_a_pager(self):
        # Standard input a pipe, standard output the terminal: commands from the pipe, no pager.
        child = pexpect.spawn("/bin/bash", ["-c", f"printf 'show\\nhelp\\n' | '{BIN}'"], env=self.env, cwd=self.cwd,
                              dimensions=(24, 100), timeout=TIMEOUT, encoding="utf-8", codec_errors="replace")
        out = child.read()
        child.close()
        self.assertEqual(child.exitstatus, 0, out)
        self.assertIn("  16. Clock", out)  # the full screen, to its last app
        self.assertIn("names the day.", out)
        self.assertNotIn("\r:", out)
        # And with -c, stdout piped.
        result = subprocess.run([BIN, "-c", "show", "-c", "help"], env=self.env, cwd=self.cwd, capture_output=True,
                                text=True, timeout=TIMEOUT)
        self.assertEqual(result.returncode, 0)
        self.assertIn("  16. Clock", result.stdout)
        self.assertIn("names the day.", result.stdout)

    def test_clear_and_ctrl_l_clear_the_screen(self):
        shell = self.started(rows=24)
        out = shell.run("clear")
        self.assertIn(CLEAR, out)
        mark = shell.mark()
        shell.send(CTRL_L)
        shell.expect(PROMPT)
        self.assertIn("\x1b[2J", shell.since(mark))


if __name__ == "__main__":
    unittest.main()
