#!/usr/bin/env python3
"""Terminal safety (docs/DATA.md §6) of the interactive shell under a real pseudo-terminal (pexpect).

What the terminal receives is checked byte for byte: the banner naming a hostile source, the
prompt, the load spinner's label, error lines echoing hostile arguments, and Tab completion
(the list libedit prints, and the line it redraws after a completion). Names hold OSC and CSI
sequences, CR, BEL, NUL, DEL, C1 CSI (U+009B), bidi overrides and isolates.

Run with ``scripts/test-interactive`` (all ``Tests/Interactive/test_*.py``), or directly:

    USAGE_SHELL_BIN=$(swift build --show-bin-path)/usage-shell \\
        python3 Tests/Interactive/test_terminal_safety.py -v

Every escape sequence libedit itself sends is a CSI cursor move or erase (``ESC [ 23 G``,
``ESC [ K``, ``ESC [ A``); with NO_COLOR=1 the program sends none of its own. So anything else
starting with ESC, any C1, bidi, NUL or DEL character, and any BEL the test did not ask for
came from the data.
"""

import json
import re
import shutil
import tempfile
import unittest
from pathlib import Path

from ptyshell import (CTRL_C, CTRL_U, ENTER, TAB, TOTALS, Shell, ShellCase, banner_of, isolated_env, require_binary,
                      result_lines, same_words, session, stalled_fifo)


def setUpModule():
    require_binary()

PROMPT = "usage Mon 2026-02-23> "

# The apps of the hostile data and their categories, all on 2026-02-23 (UTC).
TITLE = "\x1b]0;pwned\x07Title"
CLEAR = "\x1b[2JClear"
BLINK = "\x1b[5mBlink\u2066"
RLO = "txt.exe\u202egnp"
C1 = "C1\u009b31mcsi"
TABNL = "Tab\tNew\nLine"
NULDEL = "Nul\x00Del\x7fx"
SOCIAL = "Social\x1b[31m"
APPS = [
    (TITLE, SOCIAL), (CLEAR, "\u202eerongi"), (BLINK, "Bell\x07\x7f"), (RLO, "\u2066Iso\u2069late"),
    (C1, "\u009b1mC1cat"), (TABNL, SOCIAL), (NULDEL, "Other"),
]
# The data file's own name: the banner, `load` and `check` show it.
SOURCE = "ses\x1b]0;pwned\x07\u202e\n\r\u009b2J\u2066.json"

# libedit's own sequences: cursor to a column, up, down, left, right, erase to the end of line.
LIBEDIT_CSI = re.compile(r"\x1b\[\d*[ABCDGK]")
# What must never reach the terminal: C0 but BS/LF/CR/BEL (libedit moves the cursor with BS
# and CR; BEL is checked on its own), DEL, C1, bidi controls, U+2028/2029, and U+FFFD (what a
# lone C1 byte would decode to).
FORBIDDEN = re.compile(
    "[\x00-\x06\x09\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufffd]")


def sanitize(text):
    """TerminalText.sanitize: controls, DEL, C1 and bidi controls as visible escapes."""
    out = []
    for ch in text:
        code = ord(ch)
        if code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029, 0x061C, 0x200E, 0x200F) \
                or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069:
            out.append({0x1B: "\\e", 0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}.get(code, "\\u{%X}" % code))
        else:
            out.append(ch)
    return "".join(out)


def ansi_c(text):
    """`text` as the shell's `$'…'` word (what completion writes, and what a user types)."""
    body = []
    for ch in text:
        if ch in "\\'":
            body.append("\\" + ch)
        else:
            body.append(sanitize(ch))
    return "$'" + "".join(body) + "'"


class TerminalSafetyTests(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.root = Path(tempfile.mkdtemp(prefix="usage-shell-safety-pty-"))
        self.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        self.cwd = self.root / "work"
        for name in ("home", "state", "config", "work"):
            (self.root / name).mkdir()
        self.history_path = self.root / "state" / "usage-shell" / "history"
        self.env = isolated_env(self.root / "home", self.root / "state", self.root / "config")
        rows = [
            {"session_id": f"id\x1b[2J\u202e{k}", "app_name": app, "category": category,
             "start_timestamp": f"2026-02-23T{8 + k:02d}:00:00Z", "end_timestamp": f"2026-02-23T{8 + k:02d}:30:00Z"}
            for k, (app, category) in enumerate(APPS)
        ]
        (self.cwd / SOURCE).write_text(json.dumps(rows), encoding="utf-8")

    def started(self):
        """A shell on the hostile data, at its first prompt; returns it and the banner's text."""
        shell = Shell(self, self.env, str(self.cwd), args=[SOURCE])
        before = shell.expect(PROMPT)
        return shell, before

    def assertTerminalSafe(self, shell, bells=0):
        """Everything the terminal got: no ESC but libedit's own cursor moves, nothing forbidden,
        and no more BELs than the test rang."""
        text = shell.transcript
        stray = [text[m.start():m.start() + 12] for m in re.finditer("\x1b", text)
                 if not LIBEDIT_CSI.match(text, m.start())]
        self.assertEqual(stray, [], f"escape sequences that are not libedit's in {text!r}")
        self.assertEqual(FORBIDDEN.findall(text), [], f"raw control or bidi characters in {text!r}")
        self.assertLessEqual(text.count("\x07"), bells, f"BEL from the data in {text!r}")

    def history(self):
        return self.history_path.read_text(encoding="utf-8").splitlines()

    # The banner and the prompt ---------------------------------------------------------------

    def test_banner_names_a_hostile_source_escaped_and_the_prompt_holds_no_data(self):
        shell, before = self.started()
        # One banner, then the prompt: wrapped to the terminal's width when longer.
        banner = banner_of(self, before)
        self.assertEqual(same_words("".join(banner)), same_words(f"usage-shell 0.1.0 — 7 sessions from {sanitize(SOURCE)} — type 'help'"))

        out = shell.run(f"load {ansi_c(SOURCE)}", until="loaded")
        self.assertIn(f"loaded 7 sessions from {sanitize(SOURCE)}, 2026-02-23", out)
        out = shell.run("check", until="source:")
        self.assertIn(f"source: {sanitize(SOURCE)}", out)
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))
        self.assertTerminalSafe(shell)

    # The spinner -----------------------------------------------------------------------------

    def test_spinner_label_of_a_hostile_file_name_is_escaped(self):
        name = "slow\x1b]0;x\x07\u202e\x1b[2J.json"
        fifo = self.cwd / name
        stalled_fifo(self, fifo)

        shell, _ = self.started()
        shell.send(f"load {ansi_c(name)}")
        shell.send(ENTER)
        shell.expect(f"loading {sanitize(name)}")
        shell.expect("(Ctrl-C cancels)")
        shell.send(CTRL_C)
        before = shell.prompt()
        self.assertIn(f"error: load of '{sanitize(name)}' cancelled; the previous data is kept", before)
        self.assertTerminalSafe(shell)

    # Error lines -------------------------------------------------------------------------------

    def test_error_lines_echo_hostile_arguments_escaped(self):
        shell, _ = self.started()
        evil = "x\x1b]0;pwned\x07\x1b[2J\u009b\u202e\u2066y"
        out = shell.run(f"app {ansi_c(evil)}", until="error:")
        self.assertEqual(result_lines(out), [f"error: no app named '{sanitize(evil)}' in the loaded data"])

        gone = "gone\x1b[2J\n\u202e.json"
        out = shell.run(f"load {ansi_c(gone)}", until="error:")
        self.assertEqual(
            result_lines(out),
            [f"error: cannot load '{sanitize(gone)}': no such file; the previous data is kept, 'retry' tries again"])

        out = shell.run(ansi_c(evil), until="error:")
        self.assertEqual(result_lines(out), [f"error: unknown command '{sanitize(evil)}' — type 'help' for the list"])

        out = shell.run(f"apps category {ansi_c(evil)}", until="error:")
        self.assertIn(f"no category named '{sanitize(evil)}'", out)
        self.assertTerminalSafe(shell)

    # Completion --------------------------------------------------------------------------------

    def test_completion_list_shows_hostile_names_escaped(self):
        shell, _ = self.started()
        start = shell.mark()
        shell.send("app ")
        shell.send(TAB)  # nothing in common: the list at once
        shell.prompt()  # the list, then the prompt and the line again
        listing = shell.since(start)
        for app, _ in APPS:
            self.assertIn(sanitize(app), listing)
        shell.send(CTRL_U)

        start = shell.mark()
        shell.send("apps category ")
        shell.send(TAB)
        shell.prompt()
        listing = shell.since(start)
        for category in (SOCIAL, "\u202eerongi", "Bell\x07\x7f", "\u2066Iso\u2069late", "\u009b1mC1cat"):
            self.assertIn(sanitize(category), listing)
        shell.send(CTRL_U)
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))
        self.assertTerminalSafe(shell)

    # Bug (fixed): Tab put an app's raw name into the edited line, and libedit drew it: the newline
    # of "Tab\tNew\nLine" broke the line in two, the tab became spaces, U+202E vanished from
    # "txt.exe\u202egnp" (shown "txt.exegnp"), C1 showed as "^Û". Names with controls now
    # complete as $'…' with them escaped as the tables show them, and still name the real app.
    def test_bug_completion_put_raw_control_characters_into_the_edited_line(self):
        shell, _ = self.started()
        for typed, app in (("app Ta", TABNL), ("app tx", RLO), ("app C", C1), ("app N", NULDEL)):
            start = shell.mark()
            shell.send(typed)
            shell.send(TAB)
            shell.expect(ansi_c(app) + " ")
            shell.send(ENTER)
            shell.expect(f"{sanitize(app)} · ")
            shell.prompt()
            echo = shell.since(start).split("\r\n")[0]
            self.assertNotIn("^", echo, "no caret notation: nothing raw is in the line")
            self.assertEqual(self.history()[-1], f"app {ansi_c(app)}")

        # Two names begin with ESC [: Tab lists them; a typed character and Tab finish one
        # (libedit redraws from the cursor on).
        start = shell.mark()
        shell.send("app $'\\e[")
        shell.send(TAB)
        shell.prompt()
        listing = shell.since(start)
        self.assertIn(sanitize(CLEAR), listing)
        self.assertIn(sanitize(BLINK), listing)
        shell.send("5")
        shell.send(TAB)
        shell.expect(ansi_c(BLINK)[len("$'\\e[5"):] + " ")
        out = shell.run("", until=f"{sanitize(BLINK)} · ")
        self.assertIn(f"{sanitize(BLINK)} · Bell\\u{{7}}\\u{{7F}} · Mon 2026-02-23", out)

        # A file name completes the same way, and the completed word loads that file.
        shell.send("load s")
        shell.send(TAB)
        shell.expect(ansi_c(SOURCE) + " ")
        out = shell.run("", until="loaded")
        self.assertIn(f"loaded 7 sessions from {sanitize(SOURCE)}", out)

        # The same word typed by hand, as the tables show the name inside $'…'.
        out = shell.run(f"app $'{sanitize(TITLE)}'", until="· Mon 2026-02-23")
        self.assertEqual(result_lines(out)[0], f"{sanitize(TITLE)} · {sanitize(SOCIAL)} · Mon 2026-02-23")
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))
        self.assertTerminalSafe(shell)


class NamesAndPathsAtThePromptTests(ShellCase):
    """An app name and the history file's path that hold escape sequences, at the sample's prompt."""

    def test_escape_sequences_in_app_names_never_reach_the_terminal(self):
        self.write_sessions("evil.json", [
            session("evil\u001b[31mred", "Other", "12:00", "12:10"),
            session("Google Chrome", "Productivity", "10:00", "11:00"),
        ])
        shell = self.spawn("evil.json")
        shell.prompt()

        out = shell.run("apps", until="total")
        evil = [line for line in result_lines(out) if "evil" in line]
        self.assertEqual(len(evil), 1, repr(out))
        self.assertIn("evil\\e[31mred", evil[0])

        out = shell.run("app evil", until="Other")
        self.assertEqual(result_lines(out)[0], "evil\\e[31mred · Other · Mon 2026-02-23")

        shell.send("app evi")
        shell.send(TAB)  # completion writes $'evil\e[31mred': the line never holds the raw ESC
        shell.run("", until="evil\\e[31mred · Other · Mon 2026-02-23")
        self.assertNotIn("\x1b[31m", shell.transcript)
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))
        self.assertNotIn("\x1b[31m", shell.transcript)

    # Bug (fixed): EditLineReader.addHistory wrote "warning: history file '…'" with the path
    # unsanitised (and on the editor's stream), while the same warning at start-up went through
    # TerminalText.sanitize: an ESC in the history path reached the terminal raw (docs/DATA.md §6).
    def test_bug_history_write_warning_printed_escape_sequences_in_the_path_raw(self):
        blocker = self.root / "hist\u001b[31mfile"
        env = dict(self.env, USAGE_SHELL_HISTORY=str(blocker / "history"))
        shell = self.started(env=env)
        # Once the shell has started (no history yet), a regular file takes the folder's place:
        # saving the next command fails.
        blocker.write_text("not a directory\n", encoding="utf-8")
        out = shell.run("day", until=TOTALS)
        self.assertIn("warning: cannot save the history file", out)
        self.assertIn("Not a directory; history is not saved from now on", out)
        out = shell.run("day 2026-02-22", prompt=None)  # the shell goes on
        self.assertIn("Sunday, February 22, 2026", out)
        self.assertNotIn("\x1b[31m", shell.transcript)
        self.assertIn("hist\\e[31mfile", shell.transcript)


if __name__ == "__main__":
    unittest.main()
