#!/usr/bin/env python3
"""What a newcomer tripped on at the prompt (issue 35), under a real pseudo-terminal: Ctrl-C (and
Ctrl-D) at a `[y/N]` question answers no, says it was cancelled and gives back the prompt (the
next line typed was taken as the answer); a new task name a slip away from an existing one is
asked about first; a store named with USAGE_SHELL_DB that is not there is said so, and the first
command that writes makes it and shows it.

Run with ``scripts/test-interactive``.
"""

import unittest

from ptyshell import ANY_PROMPT, CTRL_C, CTRL_D, ENTER, PROMPT_ANY, Shell, StoreShellCase, banner_of, same_words


class NewcomerAtThePromptTests(StoreShellCase):
    store_name = "track.sqlite"

    def run_line(self, shell, line):
        """Types `line` and Enter; returns what the terminal showed up to the next prompt."""
        return self.answer(shell, line)

    def test_bug_ctrl_c_at_a_question_did_not_cancel_it(self):
        shell = self.spawn()
        self.assertIn("added task 1 Throwaway", self.run_line(shell, "task add Throwaway"))
        for key in (CTRL_C, CTRL_D):
            shell.send("task delete Throwaway" + ENTER)
            shell.expect("delete task 1 Throwaway? (it has no tracked time) [y/N] ")
            start = shell.mark()
            if key == CTRL_C:
                # Ctrl-C once the line is being edited (the echo seen): the terminal raises SIGINT
                # the moment ^C is written. Ctrl-D ends only an empty line.
                shell.send("y")
                shell.expect("y")
            shell.send(key)
            shell.expect("cancelled; nothing changed")
            shell.expect_re(PROMPT_ANY)
            self.assertNotIn("deleted", shell.since(start))
            # The next line is a command again, not the question's answer.
            out = self.run_line(shell, "status")
            self.assertIn("nothing running", out)
            self.assertNotIn("nothing changed", out)
        self.assertIn("Throwaway", self.run_line(shell, "tasks"))
        # A yes still deletes.
        shell.send("task delete Throwaway" + ENTER)
        shell.expect("[y/N] ")
        self.assertIn("deleted task 1 Throwaway", self.answer(shell, "y"))
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))

    def test_bug_a_typo_made_a_new_task(self):
        shell = self.spawn()
        self.run_line(shell, "task add Email")
        question = "new task 'Emial'? 'Email' exists [y/N] "
        shell.send("start Emial" + ENTER)
        shell.expect(question)
        out = self.answer(shell, "n", until="nothing changed")
        self.assertNotIn("started", out)
        self.assertIn("Tasks · 1", self.run_line(shell, "tasks"))
        # Ctrl-C cancels this question too.
        shell.send("start Emial" + ENTER)
        shell.expect(question)
        shell.send("y")
        shell.expect("y")
        shell.send(CTRL_C)
        shell.expect("cancelled; nothing changed")
        shell.expect_re(PROMPT_ANY)
        # A yes makes it; --new asks nothing; a far name or the task's own asks nothing.
        shell.send("start Emial" + ENTER)
        shell.expect(question)
        out = self.answer(shell, "y", until="new task 2 Emial")
        self.assertIn("started Emial", out)
        self.assertIn("started Emails", self.run_line(shell, "start Emails --new"))
        out = self.run_line(shell, "start Email")
        self.assertIn("started Email", out)
        self.assertNotIn("[y/N]", out)
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))

    def test_a_named_store_that_is_not_there_is_said_and_made_by_a_write(self):
        shell = Shell(self, self.env, str(self.cwd))
        before = shell.expect("usage> ")
        banner = banner_of(self, before)
        self.assertEqual(
            same_words("".join(banner)),
            same_words(f"usage-shell 0.1.0 — no store at {self.store} yet (import FILE, start TASK or task add NAME makes it) — type 'help'"))
        out = shell.run("day", prompt="usage> ")
        self.assertIn(f"error: no store at '{self.store}' yet (import FILE, start TASK or task add NAME makes it)", out)
        self.assertFalse(self.store.exists())
        # A write makes it, and the shell shows it from then on: today, with no usage in it.
        out = self.answer(shell, "task add Write")
        self.assertIn("added task 1 Write", out)
        self.assertRegex(out.split("\r\n")[-1], ANY_PROMPT)
        self.assertNotEqual(out.split("\r\n")[-1], "usage> ")
        self.assertIn("0m total · no usage recorded", self.answer(shell, "day"))
        self.assertTrue(self.store.exists())
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))


if __name__ == "__main__":
    unittest.main()
