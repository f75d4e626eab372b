#!/usr/bin/env python3
"""What a newcomer tripped on a third time (issue 51, item 10), at a real pseudo-terminal: the
`session join` question wraps at words to the terminal's width (libedit cut it mid-word), and the
banner's count has its thousands separated as every other count.

Run with ``scripts/test-interactive``.
"""

import json
import unittest

from ptyshell import ENTER, PROMPT_ANY, StoreShellCase, same_words


class ThirdTripsTests(StoreShellCase):
    store_name = "usage.sqlite"

    def test_item10_the_session_join_question_wraps_at_words(self):
        question = ("join @1 Acme website Mon 2026-11-23 09:15–10:30 (1h 15m) and @2 Beta API Mon 2026-11-23 13:00–15:30 (2h 30m)? "
                    "Beta API loses 2h 30m; 2h 30m of gap becomes Acme website [y/N]")
        shell = self.spawn()
        self.answer(shell, 'track "Acme website" 2026-11-23T09:15 10:30')
        self.answer(shell, 'track "Beta API" 2026-11-23T13:00 15:30')
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))
        for columns in (60, 120):
            shell = self.spawn(dimensions=(24, columns))
            start = shell.mark()
            shell.send("session join @1 @2" + ENTER)
            shell.expect("[y/N] ")
            shown = shell.since(start).split("\r\n")[1:]
            # Each line within the width, and the lines joined with a space are the question: no
            # word was cut (libedit's own wrap cut one and went on after " \r").
            self.assertNotIn(" \r", "".join(shown), f"{shown!r}")
            self.assertTrue(all(len(line.rstrip()) <= columns for line in shown), f"{columns}: {shown!r}")
            self.assertEqual(" ".join(line.strip() for line in shown), question, f"{columns}: {shown!r}")
            self.assertGreater(len(shown), 1)
            shell.send("n" + ENTER)
            shell.expect_re(PROMPT_ANY)
            self.assertEqual(shell.exit_with_ctrl_d(), (0, None))

    def test_item10_the_banner_counts_as_every_other_count(self):
        rows = [{"session_id": f"s{k}", "app_name": "App", "category": "Work",
                 "start_timestamp": f"2026-02-23T{k // 60 % 24:02d}:{k % 60:02d}:00Z",
                 "end_timestamp": f"2026-02-23T{k // 60 % 24:02d}:{k % 60:02d}:30Z"} for k in range(1200)]
        path = self.cwd / "big.json"
        path.write_text(json.dumps(rows))
        shell = self.spawn(str(path))
        # The banner wraps to the terminal's width (the folder's name is as long as TMPDIR's):
        # its words are compared without the wrapping's spaces, the count whole.
        self.assertIn(same_words(f"— 1,200 sessions from {path} —"), same_words(shell.since(0)))
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))


if __name__ == "__main__":
    unittest.main()
