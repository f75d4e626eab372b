#!/usr/bin/env python3
"""The files the shell owns (history, limits) under a real pseudo-terminal: a corrupt one is set
aside and named in one warning, an unreadable one or one in a read-only folder is left exactly as
it is, and the shell works on in every case.

Run with ``scripts/test-interactive`` (it runs every ``Tests/Interactive/test_*.py``), or
directly as ``test_interactive.py`` says. Permission cases need a user without root's powers:
as root (CI) the binary runs under ``setpriv --reuid=nobody``; as another user plain ``chmod``
does. When neither is possible (no setpriv, or the binary lies in a folder that nobody cannot
enter) they fail with the reason under scripts/test and CI (USAGE_SHELL_STRICT, CI), and are
skipped, saying why, elsewhere.
"""

import os
import shutil
import subprocess
import unittest

from ptyshell import BIN, STRICT, PROMPT, TOTALS, Shell, ShellCase, require_binary

JUNK = bytes([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0xFF, 0xFE, 0x0A, 0xC3])  # an ELF header, cut
BAD_LIMITS = b'{"limits": [oops'
AS_NOBODY = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"]


def setUpModule():
    require_binary()


class OwnedFilesTests(ShellCase):
    def setUp(self):
        super().setUp()
        # Run first (cleanups go last in, first out): folders a test made read-only opened again.
        self.addCleanup(self.remove_root)
        self.limits_path = self.config / "usage-shell" / "limits.json"
        self.history_path.parent.mkdir()
        self.limits_path.parent.mkdir()

    def remove_root(self):
        for directory, _, _ in os.walk(self.root):
            os.chmod(directory, 0o755)  # folders made read-only by a test
        shutil.rmtree(self.root, ignore_errors=True)

    def started(self, prefix=()):
        """A shell on the sample (run through `prefix`, e.g. setpriv), at its first prompt;
        returns it and what it printed before that prompt."""
        command = [*prefix, BIN] if prefix else None
        shell = Shell(self, self.env, str(self.cwd), command=command)
        before = shell.prompt()
        return shell, before

    def finish(self, shell):
        self.assertEqual(shell.exit_with_ctrl_d(), (0, None))
        return shell.transcript

    def unprivileged(self):
        """The command prefix that runs the binary without root's powers over files ([] when
        the tests do not run as root), with the test's folders opened to that user; or skip."""
        if os.geteuid() != 0:
            return []
        setpriv = shutil.which("setpriv")
        if not setpriv:
            if STRICT:
                self.fail("running as root and setpriv (util-linux, scripts/packages.txt) is missing: permissions cannot be tested")
            self.skipTest("running as root and setpriv (util-linux) is missing: permissions cannot be tested")
        probe = subprocess.run([setpriv, *AS_NOBODY, BIN, "--version"], capture_output=True, text=True)
        if probe.returncode != 0:
            if STRICT:
                self.fail(f"the binary cannot run as nobody (is it in a private folder?): {probe.stderr.strip()}")
            self.skipTest(f"the binary cannot run as nobody (is it in a private folder?): {probe.stderr.strip()}")
        for directory in (self.root, self.home, self.state, self.config, self.cwd,
                          self.history_path.parent, self.limits_path.parent):
            os.chmod(directory, 0o755)
        return [setpriv, *AS_NOBODY]

    def give_to_the_shell(self, directory):
        """Makes `directory` writable by the user the shell runs as."""
        if os.geteuid() == 0:
            os.chown(directory, 65534, 65534)

    def make_read_only(self, directory):
        """Makes `directory` read-only for the user the shell runs as."""
        os.chmod(directory, 0o755 if os.geteuid() == 0 else 0o555)  # as root, nobody cannot write a root folder

    def make_unreadable(self, path):
        os.chmod(path, 0o600 if os.geteuid() == 0 else 0o000)  # as root, nobody cannot read a root file

    def listing(self, directory):
        return sorted(os.listdir(directory))

    # Corrupt files: set aside, named once, and the shell saves anew --------------------------

    def test_corrupt_history_and_limits_are_set_aside_with_one_warning_each_and_saved_anew(self):
        self.history_path.write_bytes(JUNK)
        self.limits_path.write_bytes(BAD_LIMITS)
        shell, before = self.started()
        self.assertIn(
            f"warning: the history file '{self.history_path}' is corrupt (a NUL byte at offset 7: not a text file); "
            f"it was kept aside as '{self.history_path}.corrupt' and history starts empty", before)
        out = shell.run("limits", until="no limits")
        self.assertIn(
            f"warning: the limits file '{self.limits_path}' is not valid (not JSON); "
            f"it was kept aside as '{self.limits_path}.corrupt' and limits start empty", out)
        out = shell.run("limit Safari 30m", until="Safari")
        self.assertNotIn("warning", out)
        out = shell.run("day", until=TOTALS)
        self.assertNotIn("warning", out)
        transcript = self.finish(shell)
        self.assertEqual(transcript.count("warning:"), 2, transcript)
        # Nothing lost: both bad files kept byte for byte; new files written whole.
        self.assertEqual((self.history_path.parent / "history.corrupt").read_bytes(), JUNK)
        self.assertEqual(self.history_path.read_text(encoding="utf-8").splitlines(), ["limits", "limit Safari 30m", "day"])
        self.assertEqual(os.stat(self.history_path).st_mode & 0o777, 0o600)
        self.assertEqual((self.limits_path.parent / "limits.json.corrupt").read_bytes(), BAD_LIMITS)
        self.assertIn('"app": "Safari", "seconds": 1800', self.limits_path.read_text(encoding="utf-8"))
        self.assertEqual(self.listing(self.history_path.parent), ["history", "history.corrupt", "history.lock"])
        self.assertEqual(self.listing(self.limits_path.parent), ["limits.json", "limits.json.corrupt", "limits.json.lock"])
        # The next session starts clean, with the saved history to recall.
        shell, before = self.started()
        self.assertNotIn("warning", before)
        out = shell.run("\x1b[A", until=TOTALS)  # Up: the last command, `day`
        self.assertNotIn("warning", out)
        self.finish(shell)

    def test_a_folder_in_place_of_the_history_file_is_said_once_and_left_alone(self):
        self.history_path.mkdir()
        shell, before = self.started()
        self.assertIn(
            f"warning: cannot read the history file '{self.history_path}': it is a directory; "
            "it is left as it is and history is not saved this session", before)
        shell.run("day", until=TOTALS)
        shell.run("apps top 2", prompt=PROMPT)
        transcript = self.finish(shell)
        self.assertEqual(transcript.count("warning:"), 1, transcript)
        self.assertEqual(self.listing(self.history_path), [])
        self.assertEqual(self.listing(self.history_path.parent), ["history"])

    # Permissions: never overwritten, said once ---------------------------------------------

    def test_corrupt_files_in_read_only_folders_are_left_as_they_are(self):
        prefix = self.unprivileged()
        self.history_path.write_bytes(JUNK)
        self.limits_path.write_bytes(BAD_LIMITS)
        for path in (self.history_path, self.limits_path):
            os.chmod(path, 0o644)
            self.make_read_only(path.parent)
        shell, before = self.started(prefix)
        self.assertIn(
            f"warning: the history file '{self.history_path}' is corrupt (a NUL byte at offset 7: not a text file) "
            "and could not be moved aside (Permission denied); it is left as it is and history is not saved this session",
            before)
        out = shell.run("limit Safari 30m", until="Safari")
        self.assertIn(
            f"warning: the limits file '{self.limits_path}' is not valid (not JSON) and could not be moved aside "
            "(Permission denied); it is left as it is, and limits are kept in memory for this session only", out)
        out = shell.run("limits", until="Safari")  # in memory
        self.assertNotIn("warning", out)
        out = shell.run("limits check", until="could not be read this session")
        transcript = self.finish(shell)
        self.assertEqual(transcript.count("warning:"), 2, transcript)
        self.assertEqual(self.history_path.read_bytes(), JUNK)
        self.assertEqual(self.limits_path.read_bytes(), BAD_LIMITS)
        self.assertEqual(self.listing(self.history_path.parent), ["history"])
        self.assertEqual(self.listing(self.limits_path.parent), ["limits.json"])

    def test_unreadable_files_are_never_overwritten_even_in_a_writable_folder(self):
        prefix = self.unprivileged()
        self.history_path.write_text("apps top 2\n", encoding="utf-8")
        self.limits_path.write_bytes(b'{"limits": [{"app": "Maps", "seconds": 60}]}\n')
        stamps = {}
        for path in (self.history_path, self.limits_path):
            self.make_unreadable(path)
            self.give_to_the_shell(path.parent)  # it could replace the file: it must not
            stamps[path] = (os.stat(path).st_ino, path.read_bytes())
        shell, before = self.started(prefix)
        self.assertIn(
            f"warning: cannot read the history file '{self.history_path}': permission denied; "
            "it is left as it is and history is not saved this session", before)
        out = shell.run("limit Safari 30m", until="Safari")
        self.assertIn(
            f"warning: cannot read the limits file '{self.limits_path}': permission denied; "
            "it is left as it is, and limits are kept in memory for this session only", out)
        shell.run("day", until=TOTALS)
        transcript = self.finish(shell)
        self.assertEqual(transcript.count("warning:"), 2, transcript)
        for path, (inode, content) in stamps.items():
            self.assertEqual((os.stat(path).st_ino, path.read_bytes()), (inode, content), path)
        self.assertEqual(self.listing(self.history_path.parent), ["history"])
        # The lock was taken to change the limits, before the file turned out unreadable.
        self.assertEqual(self.listing(self.limits_path.parent), ["limits.json", "limits.json.lock"])

    def test_a_history_folder_made_read_only_stops_saving_with_one_warning(self):
        prefix = self.unprivileged()
        self.history_path.write_text("apps top 2\n", encoding="utf-8")
        os.chmod(self.history_path, 0o644)
        self.make_read_only(self.history_path.parent)
        shell, before = self.started(prefix)
        self.assertNotIn("warning", before)
        out = shell.run("day", until=TOTALS)
        self.assertIn(
            f"warning: cannot save the history file '{self.history_path}': Permission denied; "
            "history is not saved from now on", out)
        out = shell.run("day 2026-02-22", until="Sunday, February 22, 2026", prompt=None)
        self.assertNotIn("warning", out)
        transcript = self.finish(shell)
        self.assertEqual(transcript.count("warning:"), 1, transcript)
        self.assertEqual(self.history_path.read_text(encoding="utf-8"), "apps top 2\n")
        self.assertEqual(self.listing(self.history_path.parent), ["history"])


if __name__ == "__main__":
    unittest.main()
