#!/usr/bin/env python3
"""What a newcomer still tripped on (issue 44), the questions at a real pseudo-terminal: `export
store:FILE` onto a store already there asks before it merges (item 8), `forget import N` and
`forget device NAME` ask before they delete (item 4; `forget import N` names the site visits it takes too), `session join` of different tasks or across
a long gap says what moves and asks (item 5). A no (or Ctrl-C) changes nothing; a yes goes ahead.

Run with ``scripts/test-interactive``.
"""

import sqlite3
from pathlib import Path
import unittest

from ptyshell import CTRL_C, ENTER, PROMPT_ANY, StoreShellCase


class QuestionsOfIssue44Tests(StoreShellCase):
    store_name = "usage.sqlite"

    @staticmethod
    def ask(shell, line, question):
        """Types `line` and Enter and waits for its `[y/N]` question, which must say `question`
        (the terminal wraps a long one: libedit breaks it with " \\r", inside a word too)."""
        start = shell.mark()
        shell.send(line + ENTER)
        shell.expect("[y/N] ")
        shown = " ".join(shell.since(start).replace(" \r", "").split())
        assert question in shown, f"{question!r} not in {shown!r}"

    def count(self, path, sql):
        with sqlite3.connect(path) as db:
            return db.execute(sql).fetchone()[0]

    def test_item8_export_onto_a_store_already_there_asks_before_it_merges(self):
        backup = self.root / "backup.sqlite"
        shell = self.spawn()
        self.answer(shell, "track Email 2026-11-02T09:00 10:30")
        self.assertIn("copied", self.answer(shell, f"export store:{backup}"))
        self.answer(shell, "track Report 2026-11-03T09:00 10:00")
        question = f"'{backup}' is a store already (0 sessions): merge this store into it (each session kept once)? [y/N]"
        for key in ("n" + ENTER, CTRL_C):
            self.ask(shell, f"export store:{backup}", question)
            start = shell.mark()
            shell.send(key)
            shell.expect_re(PROMPT_ANY)
            self.assertIn("nothing changed", shell.since(start))
            self.assertEqual(self.count(backup, "SELECT count(*) FROM tracked"), 1)
        self.ask(shell, f"export store:{backup}", question)
        self.assertIn("1 tracked interval added", " ".join(self.answer(shell, "y").split()))
        self.assertEqual(self.count(backup, "SELECT count(*) FROM tracked"), 2)
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))

    def write_sessions(self, name, count, first_hour, prefix):
        """A sessions file of `count` one-minute sessions from `first_hour`:00 on 2026-02-23."""
        rows = [
            f'{{"session_id":"{prefix}{k}","app_name":"App{k}","category":"Work",'
            f'"start_timestamp":"2026-02-23T{first_hour:02d}:{k:02d}:00Z","end_timestamp":"2026-02-23T{first_hour:02d}:{k:02d}:59Z"}}'
            for k in range(count)
        ]
        path = self.cwd / name
        path.write_text("[" + ",".join(rows) + "]")
        return path

    def test_item4_forget_import_and_forget_device_ask_first(self):
        phone = self.write_sessions("phone.json", 3, 9, "p")
        shell = self.spawn()
        self.answer(shell, f"import {phone} --device phone")
        self.answer(shell, f"import {phone} --device laptop")
        self.assertEqual(self.count(self.store, "SELECT count(*) FROM session"), 6)
        for key in ("n" + ENTER, CTRL_C):
            self.ask(shell, "forget import 2", "and the 3 sessions it added? [y/N]")
            start = shell.mark()
            shell.send(key)
            shell.expect_re(PROMPT_ANY)
            self.assertIn("nothing changed", shell.since(start))
            self.assertEqual(self.count(self.store, "SELECT count(*) FROM session"), 6)
        self.ask(shell, "forget import 2", f"{phone} as laptop) and the 3 sessions it added? [y/N]")
        self.assertIn("forgot import #2", self.answer(shell, "y"))
        self.assertEqual(self.count(self.store, "SELECT count(*) FROM session"), 3)
        self.ask(shell, "forget device phone", "forget device phone and its 3 sessions (its sources and totals with them)? [y/N]")
        self.assertIn("forgot device phone: 3 sessions", self.answer(shell, "y"))
        self.assertEqual(self.count(self.store, "SELECT count(*) FROM session"), 0)
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))

    def test_bug_forget_import_did_not_say_it_takes_the_site_visits_too(self):
        # The ActivityWatch fixture's web bucket: one visit (example.org), the import's.
        fixture = Path(__file__).resolve().parents[1] / "EndToEndTests" / "Fixtures" / "aw-export.json"
        shell = self.spawn()
        self.assertIn("1 site visit", " ".join(self.answer(shell, f"import {fixture}").split()))
        self.assertEqual(self.count(self.store, "SELECT count(*) FROM site_visit"), 1)
        self.ask(shell, "forget import 1", "sessions and 1 site visit it added? [y/N]")
        self.assertIn("sessions, 1 site visit", " ".join(self.answer(shell, "y").split()))
        self.assertEqual(self.count(self.store, "SELECT count(*) FROM site_visit"), 0)
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))

    def test_item5_a_join_that_moves_time_says_what_and_asks(self):
        shell = self.spawn()
        self.answer(shell, 'track "Acme website" 2026-11-23T09:15 10:30')
        self.answer(shell, 'track "Beta API" 2026-11-23T13:00 15:30')
        question = ("join @1 Acme website Mon 2026-11-23 09:15–10:30 (1h 15m) and @2 Beta API Mon 2026-11-23 13:00–15:30 (2h 30m)? "
                    "Beta API loses 2h 30m; 2h 30m of gap becomes Acme website [y/N]")
        for key in ("n" + ENTER, CTRL_C):
            self.ask(shell, "session join @1 @2", question)
            start = shell.mark()
            shell.send(key)
            shell.expect_re(PROMPT_ANY)
            self.assertIn("nothing changed", shell.since(start))
            self.assertEqual(self.count(self.store, "SELECT count(*) FROM tracked"), 2)
        self.ask(shell, "session join @1 @2", question)
        self.assertIn("joined @2 into @1 Acme website Mon 2026-11-23 09:15–15:30 (6h 15m)", " ".join(self.answer(shell, "y").split()))
        self.assertEqual(self.count(self.store, "SELECT count(*) FROM tracked"), 1)
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))


if __name__ == "__main__":
    unittest.main()
