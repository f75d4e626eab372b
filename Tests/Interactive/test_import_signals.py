#!/usr/bin/env python3
"""The terminal closed (SIGHUP) or Ctrl-\\ (SIGQUIT) during an import, at a real pseudo-terminal:
the import is cancelled as Ctrl-C and SIGTERM cancel it, nothing is written, a store the import
made for itself is removed again, and the program ends with 128 + the signal (129, 131) once the
store is cleaned up; at the prompt, in `usage-shell import` and in a `-c` run alike.

Run with ``scripts/test-interactive -k import_signals``.
"""

import os
import signal
import unittest

import pexpect

from ptyshell import BIN, ENTER, BigImportCase, ShellCase

MANY = BigImportCase.MANY


class ImportSignalsTests(BigImportCase):
    store_name = "usage.sqlite"


    def made(self):
        """Whether the import has made the store (its write-ahead log is there): it writes next."""
        return (self.root / (self.store_name + "-wal")).exists()

    def ended(self, shell, hung_up=False):
        """Waits for the program to end (reading all it wrote, unless the terminal hung up);
        its (exit status, signal)."""
        if not hung_up:
            shell.child.expect(pexpect.EOF, timeout=120)
        shell.child.wait()
        return shell.child.exitstatus, shell.child.signalstatus

    def batch(self, *args):
        """`usage-shell ARGS` at the pseudo-terminal, not waited for at a prompt (it shows none)."""
        return ShellCase.spawn(self, *args)

    def test_bug_terminal_closed_during_an_import_at_the_prompt_left_an_empty_store(self):
        self.big_file()
        shell = self.spawn()
        shell.send("import big.json" + ENTER)
        self.wait_for(self.made, "the store to be made")
        # The terminal hangs up: the kernel sends the shell SIGHUP (and SIGCONT).
        shell.child.ptyproc.fileobj.close()
        self.assertEqual(self.ended(shell, hung_up=True), (129, None))
        self.assertEqual(self.store_files(), [], "no store, -wal, -shm or .lock left where there was none")

    def test_bug_sigquit_during_an_import_at_the_prompt_left_an_empty_store(self):
        self.big_file()
        shell = self.spawn()
        shell.send("import big.json" + ENTER)
        self.wait_for(self.made, "the store to be made")
        start = shell.mark()
        shell.child.kill(signal.SIGQUIT)
        self.assertEqual(self.ended(shell), (131, None))
        said = shell.since(start)
        self.assertIn("error: import cancelled: nothing was written", said)
        self.assertNotIn("retry", said)
        self.assertEqual(self.store_files(), [], "no store, -wal, -shm or .lock left where there was none")

    def test_bug_sighup_during_usage_shell_import_left_an_empty_store(self):
        self.big_file()
        shell = self.batch("import", "big.json")
        self.wait_for(self.made, "the store to be made")
        os.kill(shell.child.pid, signal.SIGHUP)
        self.assertEqual(self.ended(shell), (129, None))
        self.assertEqual(self.store_files(), [], "no store, -wal, -shm or .lock left where there was none")

    def test_bug_sigquit_during_usage_shell_import_left_an_empty_store(self):
        self.big_file()
        shell = self.batch("import", "big.json")
        self.wait_for(self.made, "the store to be made")
        os.kill(shell.child.pid, signal.SIGQUIT)
        self.assertEqual(self.ended(shell), (131, None))
        self.assertEqual(self.store_files(), [], "no store, -wal, -shm or .lock left where there was none")

    def test_bug_sighup_during_a_c_runs_import_left_an_empty_store(self):
        self.big_file()
        shell = self.batch("-c", "import big.json", "-c", "sessions")
        self.wait_for(self.made, "the store to be made")
        start = shell.mark()
        os.kill(shell.child.pid, signal.SIGHUP)
        self.assertEqual(self.ended(shell), (129, None))
        said = shell.since(start)
        self.assertIn("import cancelled: nothing was written", said)
        self.assertNotIn("added", said)
        self.assertEqual(self.store_files(), [], "no store, -wal, -shm or .lock left where there was none")


    def test_bug_sigquit_during_a_f_scripts_import_left_an_empty_store(self):
        self.big_file()
        (self.cwd / "script.txt").write_text("import big.json\nsessions\n")
        shell = self.batch("-f", "script.txt")
        self.wait_for(self.made, "the store to be made")
        start = shell.mark()
        os.kill(shell.child.pid, signal.SIGQUIT)
        self.assertEqual(self.ended(shell), (131, None))
        self.assertIn("error: line 1: import cancelled: nothing was written", shell.since(start))
        self.assertEqual(self.store_files(), [], "no store, -wal, -shm or .lock left where there was none")

    def test_sighup_ignored_as_by_nohup_stays_ignored_during_usage_shell_import(self):
        self.big_file()
        ignoring = pexpect.spawn(
            BIN, ["import", "big.json"], env=self.env, cwd=str(self.cwd), encoding="utf-8", timeout=120,
            preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
        self.addCleanup(ignoring.close, force=True)
        self.wait_for(self.made, "the store to be made")
        os.kill(ignoring.pid, signal.SIGHUP)
        ignoring.expect(pexpect.EOF, timeout=120)
        ignoring.wait()
        self.assertEqual((ignoring.exitstatus, ignoring.signalstatus), (0, None))
        self.assertIn("200,000 added", " ".join(ignoring.before.split()))


if __name__ == "__main__":
    unittest.main()
