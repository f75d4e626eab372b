#!/usr/bin/env python3
"""Ctrl-C during `import` at a real pseudo-terminal (issue 51, item 2): reading or writing, the
import is cancelled, nothing is written, the shell says so and offers `retry`, which imports again;
a store the import was about to make is not left behind, and one that was there keeps its sessions.
SIGTERM during an import cancels it the same way, says so (no `retry`: the shell ends), puts the
terminal back and ends the shell with 143.

Run with ``scripts/test-interactive -k import_cancel``.
"""

import signal
import sqlite3
import termios
import unittest

import pexpect

from ptyshell import CTRL_C, ENTER, PROMPT_ANY, BigImportCase, session

CANCELLED = "error: import cancelled: nothing was written; 'retry' imports again"
MANY = BigImportCase.MANY


class ImportCancelTests(BigImportCase):
    store_name = "usage.sqlite"


    def sessions(self):
        with sqlite3.connect(f"file:{self.store}?mode=ro", uri=True) as db:
            return db.execute("SELECT * FROM session ORDER BY id").fetchall()

    def test_item2_ctrl_c_while_an_import_writes_leaves_no_store_and_retry_imports_again(self):
        self.big_file()
        shell = self.spawn()
        shell.send("import big.json" + ENTER)
        # Read first, then the store is made (its write-ahead log appears) and the rows go in,
        # the write saying that Ctrl-C cancels it too.
        self.wait_for(lambda: (self.root / (self.store_name + "-wal")).exists(), "the store to be made")
        shell.expect("writing to the store (Ctrl-C cancels)", timeout=60)
        shell.send(CTRL_C)
        before = shell.expect_re(PROMPT_ANY, timeout=120)
        self.assertIn(CANCELLED, before)
        self.assertNotIn("added", before)
        self.assertEqual(self.store_files(), [], "no store, -wal, -shm or .lock left where there was none")

        start = shell.mark()
        shell.send("retry" + ENTER)
        shell.expect("added", timeout=120)
        shell.expect_re(PROMPT_ANY, timeout=120)
        self.assertIn("200,000 added, 0 updated, 0 unchanged", " ".join(shell.since(start).split()))
        self.assertEqual(len(self.sessions()), MANY)

    def test_item2_ctrl_c_while_an_import_reads_cancels_it_and_a_store_keeps_its_sessions(self):
        small = self.write_sessions("small.json", [session("Safari", "Web", "09:00", "10:00")])
        self.big_file()
        shell = self.spawn()
        self.answer(shell, f"import {small.name}", until="1 added")
        kept = self.sessions()
        shell.send("import big.json" + ENTER)
        shell.expect("(Ctrl-C cancels)", timeout=60)  # the spinner of the reading
        shell.send(CTRL_C)
        before = shell.expect_re(PROMPT_ANY, timeout=60)
        self.assertIn(CANCELLED, before)
        self.assertEqual(self.sessions(), kept)

        # Cancelled while it writes, the store that was there keeps every session as it was.
        shell.send("retry" + ENTER)
        self.wait_for(lambda: self.writing(), "the import to write")
        shell.send(CTRL_C)
        before = shell.expect_re(PROMPT_ANY, timeout=120)
        self.assertIn(CANCELLED, before)
        self.assertEqual(self.sessions(), kept)

    def test_item2_sigterm_while_an_import_writes_cancels_it_leaves_no_store_and_ends_the_shell(self):
        self.big_file()
        shell = self.spawn()
        fd = shell.child.child_fd
        shell.send("import big.json" + ENTER)
        self.wait_for(lambda: (self.root / (self.store_name + "-wal")).exists(), "the store to be made")
        shell.expect("writing to the store (Ctrl-C cancels)", timeout=60)
        start = shell.mark()
        shell.child.kill(signal.SIGTERM)
        shell.child.expect(pexpect.EOF, timeout=120)
        said = shell.since(start)
        self.assertIn("error: import cancelled: nothing was written", said)
        self.assertNotIn("retry", said)
        self.assertNotIn("added", said)
        modes = termios.tcgetattr(fd)
        self.assertTrue(modes[3] & termios.ICANON and modes[3] & termios.ECHO, modes)
        shell.child.close()
        self.assertEqual((shell.child.exitstatus, shell.child.signalstatus), (143, None))
        self.assertEqual(self.store_files(), [], "no store, -wal, -shm or .lock left where there was none")

    def writing(self):
        """Whether another connection holds the store's write lock (the import's transaction)."""
        try:
            with sqlite3.connect(str(self.store), timeout=0) as db:
                db.execute("BEGIN IMMEDIATE")
                db.execute("ROLLBACK")
            return False
        except sqlite3.OperationalError as error:
            return "locked" in str(error)


if __name__ == "__main__":
    unittest.main()
