#!/usr/bin/env python3
"""Signals at the prompt, as a closing terminal and pexpect's close send them.

Run with ``scripts/test-interactive -k signals`` (needs pexpect), and under AddressSanitizer with
``scripts/test-asan`` (which fails on any sanitizer report of the shells it ran).

- SIGCONT, SIGINT and SIGWINCH in bursts at a prompt with text on its line, just after a load
  cancelled by Ctrl-C (its worker thread still ending), leave the shell alive and answering; then
  SIGHUP, SIGCONT and SIGINT (pexpect's own close) end it by SIGHUP, never by a crash. libedit's
  own handlers (EL_SIGNAL) read its EditLine through a pointer that `el_gets` clears on its way
  out, and the kernel may run a handler on any thread: on the worker, libedit's read through null
  once the main thread left `el_gets` (the ASan build crashed in the first round, SEGV on thread
  T2). The handlers are the program's now, safe on any thread.
- SIGTERM at the prompt puts the terminal's modes back (canonical, echoing) before it ends the shell.
"""

import os
import signal
import termios
import time
import unittest

import pexpect

from ptyshell import CTRL_C, ENTER, ShellCase, stalled_fifo

ROUNDS = 20


class PromptSignalsTests(ShellCase):
    def test_bug_signals_at_the_prompt_crashed_libedits_handler_on_another_thread(self):
        for round_ in range(ROUNDS):
            fifo = self.cwd / f"slow-{round_}.json"
            stalled_fifo(self, fifo)
            shell = self.started()
            shell.send(f"load {fifo.name}" + ENTER)
            shell.expect("(Ctrl-C cancels)")
            shell.send(CTRL_C)
            shell.expect("cancelled")
            shell.prompt()
            shell.send("show")
            shell.expect("show")
            for _ in range(5):
                for sig in (signal.SIGCONT, signal.SIGINT, signal.SIGWINCH):
                    os.kill(shell.child.pid, sig)
            time.sleep(0.05)
            self.assertTrue(shell.child.isalive(), f"round {round_}: {shell.transcript[-2000:]!r}")
            shell.prompt()
            shell.run("day", until="screen time")
            # pexpect's close: the terminal hung up, then SIGHUP, SIGCONT and SIGINT 0.1 s apart.
            shell.child.close(force=True)
            self.assertEqual(
                (shell.child.exitstatus, shell.child.signalstatus), (None, signal.SIGHUP),
                f"round {round_}: {shell.transcript[-2000:]!r}")
            self.assertNotIn("Sanitizer", shell.transcript)

    def test_sigterm_at_the_prompt_puts_the_terminal_back_before_the_shell_ends(self):
        shell = self.started()
        fd = shell.child.child_fd
        self.assertFalse(termios.tcgetattr(fd)[3] & termios.ICANON)  # the prompt's editing mode
        shell.child.kill(signal.SIGTERM)
        shell.child.expect(pexpect.EOF)
        modes = termios.tcgetattr(fd)
        self.assertTrue(modes[3] & termios.ICANON and modes[3] & termios.ECHO, modes)
        shell.child.close()
        self.assertEqual(shell.child.signalstatus, signal.SIGTERM)


if __name__ == "__main__":
    unittest.main()
