#!/usr/bin/env python3
"""Ctrl-C during `import` at a real pseudo-terminal (issue 51, item 2): reading or writing, the
import is cancelled, nothing is written, the shell says so and offers `retry`, which imports again;
a store the import was about to make is not left behind, and one that was there keeps its sessions.

Run with ``scripts/test-interactive -k import_cancel``.
"""

import json
import sqlite3
import time
import unittest

from ptyshell import CTRL_C, ENTER, PROMPT_ANY, StoreShellCase, session

CANCELLED = "error: import cancelled: nothing was written; 'retry' imports again"
# Enough sessions for the reading and the writing to take a second or more each.
MANY = 200_000


class ImportCancelTests(StoreShellCase):
    store_name = "usage.sqlite"

    def big_file(self):
        rows = [{"session_id": f"s{k}", "app_name": f"App {k % 40}", "category": f"Cat {k % 6}",
                 "start_timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1767225600 + k * 120)),
                 "end_timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1767225600 + k * 120 + 60))}
                for k in range(MANY)]
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
            time.sleep(0.02)

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
