# wlroots_cases.py — the wlroots backend (`record --backend wlroots`: zwlr_foreign_toplevel_manager_v1, idle from org_kde_kwin_idle) on sway 1.7 headless, the one wlroots compositor Debian 12 has that runs here: focus moved by starting a client, closing it and activating one through the protocol, idle, an idle inhibitor, kill -9, hostile app ids, titles never stored, --once, the compositor ending; and the lines it says where it cannot open (no display, weston without the protocol, libwayland-client missing).
import glob
import json
import os
import signal
import socket
import struct
import threading
import time

import peers
from desktop_cases import SwaySession
from peers import BIN, TOLERANCE, Recorder, check, expect_sessions, run, sessions, start, stop, wait_for, work
from wayland_wire import Toplevels

SECRET = "SECRET-TITLE"


class FocusWatch:
    """sway's IPC `window` events, each with the instant it arrived: when a window took the focus.
    Another channel than the protocol the recorder reads, so the instants are the compositor's."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        payload = json.dumps(["window"]).encode()
        self.sock.sendall(b"i3-ipc" + struct.pack("<II", len(payload), 2) + payload)
        self.events = []  # (instant, change, app_id)
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _exactly(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise EOFError
            data += chunk
        return data

    def _read(self):
        try:
            while True:
                _, length, kind = struct.unpack("<6sII", self._exactly(14))
                body = self._exactly(length)
                at = time.time()
                if kind & 0x80000000:
                    event = json.loads(body.decode("utf-8", "surrogateescape"))
                    with self.lock:
                        self.events.append((at, event.get("change"), (event.get("container") or {}).get("app_id")))
        except (EOFError, OSError):
            pass

    def focus(self, since, app=None, timeout=20):
        """The instant of the first focus event after `since` (on `app`, when given)."""
        def found():
            with self.lock:
                return next((at for at, change, a in self.events if at >= since and change == "focus" and (app is None or a == app)), None)
        return wait_for(f"sway to focus {app or 'a window'}", found, timeout=timeout)

    def close(self):
        self.sock.close()


def foot(sway, app, title, *command):
    """A foot window started by the test (not through sway), `app` as its app id (str or bytes),
    `title` as its title; the Popen."""
    return start([b"foot", b"--app-id=" + (app if isinstance(app, bytes) else app.encode()), b"--title=" + title.encode(), *command], env=sway.env)


def store_bytes(db):
    data = b""
    for path in (db, db + "-wal", db + "-shm", db + "-journal"):
        if os.path.exists(path):
            with open(path, "rb") as f:
                data += f.read()
    return data


def test_wlroots(tmp):
    try:
        on_sway(tmp)
    finally:
        refusals(tmp)


def on_sway(tmp):
    sway = SwaySession(tmp, "wlroots")
    # The recorder sees only the Wayland display: no SWAYSOCK, no desktop name, as on river or labwc.
    env = {k: v for k, v in sway.env.items() if k not in ("SWAYSOCK", "XDG_CURRENT_DESKTOP")}
    watch = FocusWatch(sway.env["SWAYSOCK"])
    toplevels = None
    try:
        # Titles hostile and secret; each window then retitles itself (OSC 2) with another.
        retitle = ["sh", "-c", f'printf "\\033]2;\\342\\200\\256{SECRET}-late-$0\\007"; exec sleep 100000']
        since = time.time()
        foot(sway, "A", f"\x1b]0;{SECRET}-A\x07 {'T' * 3000}", *retitle, "A")
        watch.focus(since, "A")
        since = time.time()
        foot(sway, "B", f"{SECRET}-B \u202e", *retitle, "B")
        watch.focus(since, "B")
        toplevels = Toplevels(sway.runtime, env["WAYLAND_DISPLAY"])
        wait_for("the windows' own titles", lambda: f"{SECRET}-late".encode() in run(["swaymsg", "-t", "get_tree"], env=sway.env).stdout)

        once = run([BIN, "record", "--once", "--backend", "wlroots"], env=env, text=True)
        check(once.returncode == 0 and once.stdout.startswith("backend: wlroots\napp: B (category Other)\nidle: unknown (from org_kde_kwin_idle)\n")
              and SECRET not in once.stdout, f"wlroots --once: {once.stdout!r} {once.stderr!r}")

        # The script: idle before (nothing), A activated through the protocol 3 s, C started (it
        # takes the focus) 2 s, C closed (the focus returns to A) 2 s, B focused by sway 2 s,
        # idle, B again 2 s, then 3.5 s without input under an idle inhibitor (not idle), stop.
        db = tmp + "/wlroots.sqlite"
        rec = Recorder(db, env, "--idle", "2s", "--backend", "wlroots")
        try:
            time.sleep(2.5)
            toplevels.activate("A")
            t_a = time.time()
            sway.move()
            work(3, sway.move)
            since = time.time()
            foot(sway, "C", f"{SECRET}-C", *retitle, "C")
            t_c = watch.focus(since, "C")
            work(2, sway.move)
            # The instant before the kill is asked: the focus can come back to A before swaymsg
            # returns (after an X session case, as fast as that, every time here).
            since = time.time()
            sway.msg('[app_id="^C$"] kill')
            t_close = watch.focus(since, "A")
            work(2, sway.move)
            t_b = sway.focus("B")
            sway.move()
            b_last = work(2, sway.move)
            time.sleep(3.5)  # idle: 2 s after the last input
            sway.move()
            t_b2 = time.time()
            work(2, sway.move)
            sway.msg('[app_id="^B$"]', "inhibit_idle", "open")
            time.sleep(3.5)  # no input, but an inhibitor (a video playing): not idle
            sway.msg('[app_id="^B$"]', "inhibit_idle", "none")
            t_stop = rec.stop()
            check(rec.p.returncode == 0, f"wlroots: the recorder's exit status {rec.p.returncode}: {rec.output()}")
            said = rec.output()
            check(said.startswith("recording wlroots (idle from org_kde_kwin_idle after 2 s") and SECRET not in said, f"wlroots: the recorder said {said!r}")
        finally:
            rec.close()
        want = [("A", t_a, t_c), ("C", t_c, t_close), ("A", t_close, t_b), ("B", t_b, b_last), ("B", t_b2, t_stop)]
        expect_sessions("wlroots: A activated 3 s, C started 2 s, C closed: A 2 s, B 2 s, idle, B under an inhibitor",
                        sessions(db), want, tolerance=TOLERANCE)
        check(SECRET.encode() not in store_bytes(db), "wlroots: a window title is in the store")

        # kill -9 mid-session: the store keeps it up to its last write, at most 5 s before.
        db = tmp + "/wlroots-kill.sqlite"
        rec = Recorder(db, env, "--idle", "1m", "--backend", "wlroots")
        try:
            toplevels.activate("A")
            t_a = time.time()
            time.sleep(7.5)  # one write at 5 s after the start, the next would come at 10 s
            t_kill = rec.stop(signal.SIGKILL)
        finally:
            rec.close()
        got = sessions(db)
        check(len(got) == 1 and got[0][0] == "A" and abs(got[0][1] - t_a) <= TOLERANCE and t_kill - 5 - TOLERANCE <= got[0][2] <= t_kill,
              f"wlroots kill -9: one A session from {t_a:.2f} to at most 5 s before {t_kill:.2f} expected, got {got}")
        print(f"ok: wlroots kill -9: lost {t_kill - got[0][2]:.2f} s" if got else "", flush=True)

        # Hostile app ids (escapes, invalid UTF-8, 1000 bytes): kept repaired and cut, shown sanitised.
        db = tmp + "/wlroots-hostile.sqlite"
        rec = Recorder(db, env, "--idle", "1m", "--backend", "wlroots")
        try:
            since = time.time()
            foot(sway, b"\x1b]0;pwned\x07\x1b[31m\xff\xfeevil", f"{SECRET}-H", *retitle, "H")
            t_h = watch.focus(since)
            once = run([BIN, "record", "--once", "--backend", "wlroots"], env=env)
            check(once.returncode == 0 and b"\x1b" not in once.stdout and b"\xff" not in once.stdout and b"\\e]0;pwned" in once.stdout,
                  f"--once shows a hostile app id raw: {once.stdout!r}")
            time.sleep(1.5)
            since = time.time()
            foot(sway, "L" * 1000, f"{SECRET}-L", *retitle, "L")
            t_l = watch.focus(since)
            time.sleep(1.5)
            t_stop = rec.stop()
        finally:
            rec.close()
        expect_sessions("wlroots: hostile app ids as data (repaired UTF-8, 256 bytes at most)", sessions(db),
                        [("\x1b]0;pwned\x07\x1b[31m\ufffd\ufffdevil", t_h, t_l), ("L" * 256, t_l, t_stop)], tolerance=TOLERANCE)
        check(SECRET.encode() not in store_bytes(db), "wlroots: a window title is in the store")

        # The compositor ends: the recorder closes the session then and stops cleanly.
        db = tmp + "/wlroots-end.sqlite"
        rec = Recorder(db, env, "--idle", "1m", "--backend", "wlroots")
        try:
            toplevels.activate("B")
            t_b = time.time()
            time.sleep(1.5)
            toplevels.close()
            toplevels = None
            watch.close()
            t_end = time.time()
            sway.close()
            rec.p.wait(15)
            said = rec.output()
        finally:
            rec.close()
        check(rec.p.returncode == 0 and "the desktop ended (the Wayland compositor closed the connection); the last session is closed" in said,
              f"wlroots: the compositor's end: {rec.p.returncode} {said!r}")
        expect_sessions("wlroots: the compositor ends", sessions(db), [("B", t_b, t_end)], tolerance=TOLERANCE)
    finally:
        if toplevels:
            toplevels.close()
        watch.close()
        for p in peers.children:
            if p.args[0] == b"foot":
                stop(p)
        sway.close()


def refusals(tmp):
    """Where it cannot open: one line each, status 1."""
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "XDG_CURRENT_DESKTOP")}
    p = run([BIN, "record", "--once", "--backend", "wlroots"], env=base, text=True)
    check(p.returncode == 1 and p.stdout == "" and p.stderr == "usage-shell record: --backend wlroots: WAYLAND_DISPLAY is unset (not a Wayland session)\n",
          f"wlroots without WAYLAND_DISPLAY: {p.returncode} {p.stderr!r}")
    p = run([BIN, "record", "--once", "--backend", "wlroots"], env=dict(base, WAYLAND_DISPLAY="wayland-79"), text=True)
    check(p.returncode == 1 and p.stderr == "usage-shell record: --backend wlroots: cannot connect to the Wayland display wayland-79\n",
          f"wlroots on a display that is not there: {p.returncode} {p.stderr!r}")

    # weston, a compositor without zwlr_foreign_toplevel_manager_v1.
    runtime = tmp + "/weston-run"
    os.mkdir(runtime, 0o700)
    env = dict(base, XDG_RUNTIME_DIR=runtime, WAYLAND_DISPLAY="wayland-w", XDG_CURRENT_DESKTOP="weston")
    weston = start(["weston", "--backend=headless-backend.so", "--socket=wayland-w", "--idle-time=0"], env=env)
    try:
        wait_for("weston's socket", lambda: os.path.exists(runtime + "/wayland-w") or weston.poll() is not None)
        p = run([BIN, "record", "--once", "--backend", "wlroots"], env=env, text=True)
        check(p.returncode == 1 and p.stderr == "usage-shell record: --backend wlroots: weston offers no zwlr_foreign_toplevel_manager_v1: "
              "it lists its windows to no client (GNOME and KDE have backends of their own)\n", f"wlroots on weston: {p.returncode} {p.stderr!r}")
    finally:
        stop(weston)

    # libwayland-client missing: an empty file in its place, in a mount namespace of the test's own.
    found = glob.glob("/usr/lib/*/libwayland-client.so.0") + glob.glob("/usr/lib/libwayland-client.so.0")
    check(len(found) == 1, f"libwayland-client.so.0 where the recorder finds it: {found}")
    library = os.path.realpath(found[0])
    p = run(["unshare", "-m", "sh", "-c", f'mount --bind /dev/null "$0" && exec "$1" record --once --backend wlroots', library, BIN],
            env=dict(base, WAYLAND_DISPLAY="wayland-1", XDG_RUNTIME_DIR=tmp), text=True)
    check(p.returncode == 1 and p.stderr.startswith("usage-shell record: --backend wlroots: libwayland-client is missing (Debian: apt-get install libwayland-client0): ")
          and "file too short" in p.stderr, f"wlroots without libwayland-client: {p.returncode} {p.stderr!r}")
    print("ok: wlroots refusals: no WAYLAND_DISPLAY, no compositor, weston (no toplevel protocol), libwayland-client missing", flush=True)
