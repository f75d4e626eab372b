#!/usr/bin/env python3
"""The store at the prompt, under a real pseudo-terminal: with a store that holds sessions the shell
opens on it and its banner says so; `forget` asks before it deletes, and only a yes deletes.

Run with ``scripts/test-interactive``.
"""

import json
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from ptyshell import BIN, ENTER, Shell, banner_of, isolated_env, same_words, session


class StoreAtThePromptTests(unittest.TestCase):
    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="usage-shell-pty-store-"))
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        self.home, self.cwd = self.root / "home", self.root / "work"
        for directory in (self.home, self.cwd):
            directory.mkdir()
        self.env = isolated_env(self.home, self.root / "state", self.root / "config")

    def spawn(self):
        return Shell(self, self.env, str(self.cwd))

    def write_sessions(self, name, rows):
        path = self.cwd / name
        path.write_text(json.dumps(rows), encoding="utf-8")
        return path

    def import_into_store(self, *rows):
        data = self.write_sessions("data.json", list(rows))
        r = subprocess.run([BIN, "import", str(data)], env=self.env, cwd=str(self.cwd), stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=30)
        self.assertEqual(r.returncode, 0, r.stderr)
        return self.home / ".local" / "share" / "usage-shell" / "usage.sqlite"

    def test_with_a_store_the_shell_opens_on_it_and_the_banner_says_so(self):
        store = self.import_into_store(session("Safari", "Web", "09:00", "10:00"), session("Mail", "Work", "10:30", "11:00"))
        shell = self.spawn()
        before = shell.expect("usage Mon 2026-02-23> ")
        # Longer than the terminal's 100 columns, the banner is wrapped to it (the path whole,
        # or broken after a `/`), not cut nor broken by the terminal.
        banner = banner_of(self, before)
        self.assertGreater(len(banner), 1, f"{before!r}")
        self.assertEqual(same_words("".join(banner)), same_words(f"usage-shell 0.1.0 — 2 sessions from the store {store} — type 'help'"))
        out = shell.run("day", prompt="usage Mon 2026-02-23> ")
        self.assertIn("1h 30m total", out)
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))

    def test_forget_asks_and_only_a_yes_deletes(self):
        self.import_into_store(session("Safari", "Web", "09:00", "10:00"), session("Mail", "Work", "10:30", "11:00"))
        shell = self.spawn()
        prompt = "usage Mon 2026-02-23> "
        shell.expect(prompt)
        question = "forget 2 of 2 imported sessions (those that end before 2026-03-01 00:00)? [y/N] "
        for answer in ("n", "", "maybe"):
            shell.send("forget before 2026-03-01" + ENTER)
            shell.expect(question)
            out = shell.run(answer, until="nothing changed", prompt=prompt)
            self.assertNotIn("forgot", out)
        shell.send("store" + ENTER)
        shell.expect("sessions   2 from 2 apps")
        shell.prompt(prompt)
        shell.send("forget before 2026-03-01" + ENTER)
        shell.expect(question)
        # The store is empty now: the prompt shows today.
        shell.run("y", until="forgot 2 of 2 imported sessions (those that end before 2026-03-01 00:00)", prompt=None)
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))

    def test_end_of_input_at_the_question_is_a_no(self):
        self.import_into_store(session("Safari", "Web", "09:00", "10:00"))
        shell = self.spawn()
        prompt = "usage Mon 2026-02-23> "
        shell.expect(prompt)
        shell.send("forget older-than 1d" + ENTER)
        shell.expect("? [y/N] ")
        shell.send("\x04")
        shell.expect("nothing changed")
        shell.prompt(prompt)
        self.assertIn("sessions   1 from 1 app", shell.run("store", prompt=prompt))


if __name__ == "__main__":
    unittest.main()
