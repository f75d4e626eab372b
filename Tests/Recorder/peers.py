# peers.py — what the recorder's tests share: the real peers started and stopped (Xvfb on a display reserved for this run, with a window manager and xterms), the recorder run as a process with its output kept, the store read back, sessions checked against the instants the script acted at; failures collected, never skipped.
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The binary: USAGE_SHELL_BIN (scripts/bench/recorder sets it), else the debug build's, found as every Python script finds it.
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
from lib import usage_shell_path  # noqa: E402

BIN = os.environ.get("USAGE_SHELL_BIN") or str(usage_shell_path())
# Issue 42's promise on every backend: each session within 0.3 s of the instant the script acted at.
TOLERANCE = 0.3
PEERS = ["Xvfb", "openbox", "i3", "i3-msg", "sway", "swaymsg", "swayidle", "foot", "weston", "xdotool", "xprop", "xterm", "dbus-daemon", "dbus-monitor", "dbus-send", "kwin_wayland", "kwin_x11", "node", "runuser",
         "systemd-analyze", "systemd", "systemctl", "unshare", "gnome-shell", "gnome-extensions", "gsettings", "gdbus", "dbus-run-session"]

failures = []
children = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message, flush=True)


def check(condition, message):
    if not condition:
        fail(message)
    return condition


def start(argv, **kw):
    kw.setdefault("stdout", subprocess.DEVNULL)
    kw.setdefault("stderr", None if os.environ.get("RECORDER_TEST_VERBOSE") else subprocess.DEVNULL)
    p = subprocess.Popen(argv, start_new_session=True, **kw)
    children.append(p)
    return p


def stop(p, sig=signal.SIGTERM):
    if p.poll() is None:
        try:
            os.killpg(p.pid, sig)
        except ProcessLookupError:
            pass
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


# How long a desktop peer (a window manager, a compositor) may take to come up: generous, since a
# loaded machine (CI's builds beside the tests) once held KWin on Xvfb past 30 s; the wait ends
# on the peer's own signal of readiness (or its exit), never on the clock while it is healthy.
START_CEILING = 180.0


def wait_for(what, condition, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise RuntimeError("timed out waiting for " + what)


def run(argv, env=None, **kw):
    kw.setdefault("timeout", 60)  # a recorder that was meant to be refused must not hang the run
    return subprocess.run(argv, env=env, capture_output=True, **kw)


def sessions(db):
    """(app, start s, end s) of the store's sessions, in start order."""
    c = sqlite3.connect(db)
    try:
        c.text_factory = bytes
        rows = c.execute("SELECT a.name, s.start, s.length FROM session s JOIN app a ON a.id = s.app ORDER BY s.start").fetchall()
    finally:
        c.close()
    return [(name.decode("utf-8", "surrogateescape"), start / 1e6, (start + length) / 1e6) for name, start, length in rows]


def off(at, want):
    """How far `at` is from `want`: an instant, or a pair (earliest, latest) for a moment known
    only to lie between two instants (0 inside it)."""
    if isinstance(want, tuple):
        earliest, latest = want
        return at - earliest if at < earliest else at - latest if at > latest else 0.0
    return at - want


def expect_sessions(label, got, want, tolerance=TOLERANCE):
    """`want`: (app, start, end) with the script's instants (or (earliest, latest) pairs, see
    `off`); each within `tolerance` (s)."""
    shown = [(a, round(s, 2), round(e - s, 2)) for a, s, e in got]
    if not check(len(got) == len(want), f"{label}: {len(want)} sessions expected, the store holds {shown}"):
        return
    for (app, start, end), (wapp, wstart, wend) in zip(got, want):
        check(app == wapp, f"{label}: app {app!r}, expected {wapp!r}")
        check(abs(off(start, wstart)) <= tolerance, f"{label}: {wapp} starts {off(start, wstart):+.2f} s from the script's instant")
        check(abs(off(end, wend)) <= tolerance, f"{label}: {wapp} ends {off(end, wend):+.2f} s from the script's instant")
    worst = max(max(abs(off(s, ws)), abs(off(e, we))) for (_, s, e), (_, ws, we) in zip(got, want)) if got else 0
    shown = lambda app: app if app.isprintable() and len(app) <= 40 else ascii(app[:40]) + ("…" if len(app) > 40 else "")  # noqa: E731
    print(f"ok: {label}: " + ", ".join(f"{shown(a)} {e - s:.2f}s" for a, s, e in got) + f" (at most {worst:.3f} s off)", flush=True)


# A session bus of a test's own that starts no service: with Debian's session.conf, dbus-daemon
# starts a package's service on a call to its name — KDE's kglobalaccel and kded5, which crash at
# once without the display (KWin asked again at its every shortcut: some 560 spawns that held
# kwin_x11's start for 25 s, `timed out waiting for env on :96` in CI), or KDE Plasma's
# org.freedesktop.Notifications, which the "no notification server" case must not meet. With no
# service folder such a call fails at once, as on a desktop without them. LISTEN: its address.
def quiet_bus_config(listen):
    return f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>{listen}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""


class Recorder:
    """A `usage-shell record` running on `db`, its output kept."""

    def __init__(self, db, env, *extra, user=None):
        self.out = tempfile.NamedTemporaryFile(prefix="usage-shell-rec-", suffix=".out", delete=False)
        argv = [BIN, "record", "--db", db, *extra]
        self.began = time.time()  # the earliest instant a session of the app already in front can begin at
        if user:
            argv = ["runuser", "-u", user, "--", "env"] + [f"{k}={v}" for k, v in env.items()] + argv
        self.p = start(argv, env=env, stdout=self.out, stderr=subprocess.STDOUT)
        self.db = db
        wait_for("the recorder to start", lambda: self.output().startswith("recording") or self.p.poll() is not None)
        if self.p.poll() is not None:
            raise RuntimeError(f"the recorder did not start: {self.output().strip()!r}")

    def output(self):
        with open(self.out.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def stop(self, sig=signal.SIGTERM):
        at = time.time()
        os.kill(self.p.pid, sig)
        self.p.wait(15)
        return at

    def close(self):
        stop(self.p)
        os.unlink(self.out.name)


def work(seconds, move):
    """Input every 0.3 s for `seconds`; returns the instant of the last input."""
    end = time.time() + seconds
    last = time.time()
    while time.time() < end:
        move()
        last = time.time()
        time.sleep(0.3)
    return last


# ---------------------------------------------------------------------------------------------
# X11: Xvfb, a window manager, two xterms.

def reserve_display(number):
    """The first display from `number` on that no X server holds (a stale socket of a dead one
    counts as held) and no other test run has reserved: a reservation is a file made with O_EXCL
    (two runs, or two threads, cannot both make it) holding its process's pid, given back when
    its session closes; one whose process is gone is taken back. Returns the number and the file."""
    while True:
        if not (os.path.exists(f"/tmp/.X11-unix/X{number}") or os.path.exists(f"/tmp/.X{number}-lock")):
            path = f"/tmp/.usage-shell-X{number}-reserved"
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                if _reservation_gone(path):
                    try:
                        os.unlink(path)
                    except FileNotFoundError:
                        pass
                    continue  # the same number again
            else:
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)
                return number, path
        number += 1


def _reservation_gone(path):
    """Whether the run that reserved a display is gone (its file given back, or its process dead)."""
    try:
        with open(path) as f:
            pid = int(f.read())
    except FileNotFoundError:
        return True
    except ValueError:
        return False  # being written now
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # another user's live run
    return False


class XSession:
    def __init__(self, number, wm):
        number, self.reservation = reserve_display(number)
        self.display = f":{number}"
        self.env = dict(os.environ, DISPLAY=self.display)
        for k in ["WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS"]:
            self.env.pop(k, None)
        self.xvfb = start(["Xvfb", self.display, "-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset"])
        wait_for("Xvfb", lambda: self.xvfb.poll() is not None or run(["xdotool", "getmouselocation"], env=self.env).returncode == 0)
        if self.xvfb.poll() is not None:
            os.unlink(self.reservation)
            raise RuntimeError(f"Xvfb {self.display} did not start")
        self.wm = start(wm, env=self.env)
        self.windows = {}
        # The window manager is ready when it says so on the display, as the recorder reads it:
        # EWMH's check window (_NET_SUPPORTING_WM_CHECK). Waited for up to START_CEILING; its
        # exit ends the wait at once.
        name = next((w for w in wm if w != "env" and "=" not in w), wm[0])

        def ready():
            if self.wm.poll() is not None:
                raise RuntimeError(f"{name} exited ({self.wm.returncode}) on {self.display} before it was ready")
            return self.wm_check_window() is not None
        began = time.monotonic()
        wait_for(name + " on " + self.display, ready, timeout=START_CEILING)
        if time.monotonic() - began > 10:  # what a loaded machine costs, said where it is paid
            print(f"note: {name} on {self.display} was ready after {time.monotonic() - began:.1f} s", flush=True)

    def wm_check_window(self):
        """EWMH's sign that a window manager runs: the root window's _NET_SUPPORTING_WM_CHECK names
        a window whose own _NET_SUPPORTING_WM_CHECK names itself (a stale one left by a window
        manager that died does not); that window's id, or None."""
        def check_of(*where):
            p = run(["xprop", *where, "-notype", "_NET_SUPPORTING_WM_CHECK"], env=self.env, text=True)
            words = p.stdout.split()
            return words[-1] if p.returncode == 0 and "window" in words and words[-1].startswith("0x") else None
        window = check_of("-root")
        return window if window is not None and check_of("-id", window) == window else None

    def xterm(self, cls):
        """An xterm of class `cls`, its window id; started again if it exits before its window shows
        (seen once on a loaded machine), its error output named when it never does."""
        found = lambda: run(["xdotool", "search", "--onlyvisible", "--class", f"^{cls}$"], env=self.env).stdout.split()
        errors = ""
        for _ in range(3):
            with tempfile.TemporaryFile() as log:
                p = start(["xterm", "-class", cls, "-title", cls], env=self.env, stderr=log)
                try:
                    window = wait_for("xterm " + cls, lambda: found() or p.poll() is not None, timeout=30)
                except RuntimeError:
                    window = None
                if isinstance(window, list):
                    self.windows[cls] = window[0].decode()
                    return self.windows[cls]
                log.seek(0)
                errors = log.read().decode(errors="replace")
                stop(p)
        raise RuntimeError(f"xterm {cls} showed no window on {self.display}: {errors.strip()!r}")

    def xdo(self, *args):
        run(["xdotool", *args], env=self.env, check=True)
        return time.time()

    def focus(self, cls):
        self.xdo("windowactivate", "--sync", self.windows[cls])
        return time.time()

    def move(self):
        self.xdo("mousemove_relative", "--", "1", "0")

    def close(self):
        for p in children:
            if p.args[0] == "xterm" and p.poll() is None:
                stop(p)
        stop(self.wm)
        stop(self.xvfb)
        try:
            os.unlink(self.reservation)
        except FileNotFoundError:
            pass


def scenario(label, focus, move, db, env, user=None, extra=()):
    """The issue's script: A 3 s, B 2 s, idle past --idle 2s, A 2 s, SIGTERM."""
    rec = Recorder(db, env, "--idle", "2s", *extra, user=user)
    try:
        time.sleep(2.5)  # idle before: nothing recorded
        t_a = focus("A")
        move()
        a_end = work(3, move)
        t_b = focus("B")
        move()
        b_last = work(2, move)
        time.sleep(3.5)  # idle: 2 s counts as idle, no session
        focus("A")
        move()
        t_a2 = time.time()
        work(2, move)
        t_stop = rec.stop()
        check(rec.p.returncode == 0, f"{label}: the recorder's exit status {rec.p.returncode}: {rec.output()}")
        want = [("A", t_a, t_b), ("B", t_b, b_last), ("A", t_a2, t_stop)]
        return want, rec.output()
    finally:
        rec.close()
