# x11_cases.py — the recorder on Xvfb + openbox: two X sessions started at once, each on its own display; the script (idle from XSync's alarms), idle already at the start, --once, kill -9 and restart, the lock, status (text and JSON), imports and a tracker start beside it, SIGTERM, hostile window classes, no display, GNOME on Wayland.
import json
import os
import signal
import sqlite3
import subprocess
import threading
import time

from peers import BIN, TOLERANCE, Recorder, XSession, check, expect_sessions, run, scenario, sessions, work


def test_bug_two_runs_at_once_took_one_display():
    """Issue 45: an X session took the first display number with no socket or lock file in /tmp,
    then started Xvfb on it; two runs at once (two checkouts on one machine) could both take it,
    the second's Xvfb refused or its window manager and windows on the first's display. A number
    is now reserved (a file made with O_EXCL) before Xvfb starts. Two sessions started together
    from the same number: each its own display."""
    made, errors = [], []

    def one():
        try:
            made.append(XSession(93, ["openbox"]))
        except Exception as e:  # noqa: BLE001 — what went wrong is the failure's text
            errors.append(f"{type(e).__name__}: {e}")

    threads = [threading.Thread(target=one) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        displays = sorted(x.display for x in made)
        if check(not errors and len(set(displays)) == 2 and all(x.xvfb.poll() is None for x in made),
                 f"two X sessions started together: displays {displays}, Xvfb running {[x.xvfb.poll() is None for x in made]}, {errors}"):
            print(f"ok: two X sessions started together, each on its own display ({' '.join(displays)})", flush=True)
    finally:
        for x in made:
            x.close()
    left = [x.reservation for x in made if os.path.exists(x.reservation)]
    check(not left, f"reservations left after the sessions closed: {left}")


def test_x11(tmp):
    test_bug_two_runs_at_once_took_one_display()
    x = XSession(93, ["openbox"])
    try:
        for cls in ["A", "B"]:
            x.xterm(cls)
        db = tmp + "/x11.sqlite"
        want, _ = scenario("x11 openbox", x.focus, x.move, db, x.env)
        expect_sessions("x11 openbox: A 3 s, B 2 s, idle, A 2 s", sessions(db), want)

        # Idle already when the recorder starts: no alarm tells it (the counter crosses nothing),
        # the first reading does; the session begins at the first input, not at the start.
        db = tmp + "/idle-at-start.sqlite"
        x.focus("A")
        time.sleep(2.5)  # no input for longer than --idle
        rec = Recorder(db, x.env, "--idle", "2s")
        time.sleep(1.5)
        t_in = x.xdo("mousemove_relative", "--", "1", "0")
        work(2, x.move)
        t_stop = rec.stop()
        rec.close()
        expect_sessions("x11: idle when the recorder starts, then A 2 s", sessions(db), [("A", t_in, t_stop)])

        # --once: what it sees now.
        x.focus("B")
        once = run([BIN, "record", "--once"], env=x.env, text=True)
        check(once.returncode == 0 and once.stdout.startswith("backend: x11\napp: B (category Other)\nidle: "), f"record --once: {once.stdout!r} {once.stderr!r}")
        # Idle is told by XSync's alarms (the scenario above ran on them), not polled.
        check(" s (from XSync IDLETIME)\n" in once.stdout, f"record --once: idle from XSync IDLETIME expected: {once.stdout!r}")

        # kill -9 mid-session: the store keeps it up to its last write; a restart doubles nothing.
        db = tmp + "/kill.sqlite"
        rec = Recorder(db, x.env, "--idle", "1m")
        t_a = x.focus("A")
        x.move()
        time.sleep(7.5)  # one write at 5 s after the start, the next would come at 10 s
        rec.stop(signal.SIGKILL)
        got = sessions(db)
        check(len(got) == 1 and got[0][0] == "A" and abs(got[0][1] - t_a) <= TOLERANCE and 1.5 <= got[0][2] - got[0][1] <= 7.5,
              f"kill -9: one A session up to the last write expected, got {got}")
        rec.close()
        rec = Recorder(db, x.env, "--idle", "1m")
        x.move()
        time.sleep(1.5)  # A again, long enough to keep
        second = run([BIN, "record", "--db", db], env=x.env, text=True)
        check(second.returncode == 1 and second.stdout == ""
              and second.stderr == f"usage-shell record: a recorder already runs on {db} for device '{os.uname().nodename}' (PID {rec.p.pid})\n",
              f"a second recorder: {second.returncode} {second.stderr!r}")
        status = run([BIN, "--db", db, "-c", "status"], env=x.env, text=True)
        check(f"recording: usage-shell record on device '{os.uname().nodename}' (PID {rec.p.pid}, last write" in status.stdout, f"status: {status.stdout!r}")
        status = run([BIN, "--db", db, "-c", "status", "--format", "json"], env=x.env, text=True)
        live = json.loads(status.stdout).get("recorders") if status.returncode == 0 else None
        check(isinstance(live, list) and len(live) == 1 and live[0]["device"] == os.uname().nodename and live[0]["pid"] == rec.p.pid
              and 0 <= live[0]["last_write_seconds_ago"] <= 15, f"status --format json: {status.stdout!r} {status.stderr!r}")
        # A recorder, two imports and a tracker start at the same time lose nothing.
        sample = tmp + "/usage-shell-sample.json"
        with open(sample, "w") as f:
            json.dump([{"app_name": "Imported", "start_timestamp": "2026-01-05T10:00:00Z", "end_timestamp": "2026-01-05T10:30:00Z"}], f)
        jobs = [subprocess.Popen([BIN, "--db", db, "import", sample], env=x.env, stdout=subprocess.DEVNULL),
                subprocess.Popen([BIN, "--db", db, "import", "--device", "other", sample], env=x.env, stdout=subprocess.DEVNULL),
                subprocess.Popen([BIN, "--db", db, "-c", "start Writing"], env=x.env, stdout=subprocess.DEVNULL)]
        x.focus("B")
        x.move()
        statuses = [j.wait(60) for j in jobs]
        check(statuses == [0, 0, 0], f"imports and start beside the recorder: {statuses}")
        time.sleep(6)
        t_stop = rec.stop()
        got = sessions(db)
        apps = [a for a, _, _ in got]
        check(apps.count("A") == 2 and apps.count("B") == 1 and apps.count("Imported") == 2, f"after kill -9 and restart: {got}")
        last = got[-1]
        check(last[0] == "B" and abs(last[2] - t_stop) <= TOLERANCE, f"SIGTERM closes the open session at once: {last} vs {t_stop}")
        c = sqlite3.connect(db)
        check(c.execute("SELECT count(*) FROM tracked WHERE \"end\" IS NULL").fetchone()[0] == 1, "the tracker's start beside the recorder")
        check(c.execute("SELECT count(*) FROM meta WHERE key LIKE 'recorder.%'").fetchone()[0] == 0, "a stopped recorder leaves no mark")
        c.close()
        status = run([BIN, "--db", db, "-c", "status"], env=x.env, text=True)
        check("recording:" not in status.stdout, f"status after the stop: {status.stdout!r}")
        status = run([BIN, "--db", db, "-c", "status", "--format", "json"], env=x.env, text=True)
        check(status.returncode == 0 and json.loads(status.stdout)["recorders"] == [], f"status --format json after the stop: {status.stdout!r}")
        rec.close()
        print("ok: kill -9, restart, a second recorder refused, status, imports and start beside it, SIGTERM", flush=True)

        # Hostile window classes: escape sequences, invalid UTF-8, 10 kB.
        db = tmp + "/hostile.sqlite"
        hostile = b"\x1b]0;pwned\x07\x1b[31m\xff\xfeevil"
        run(["xdotool", "set_window", "--class", hostile, x.windows["A"]], env=x.env, check=True)
        rec = Recorder(db, x.env, "--idle", "1m")
        x.focus("A")
        x.move()
        once = run([BIN, "record", "--once"], env=x.env)
        check(b"\x1b" not in once.stdout and b"\xff" not in once.stdout and once.returncode == 0, f"--once shows a hostile class raw: {once.stdout!r}")
        long = "L" * 10_000
        run(["xdotool", "set_window", "--class", long, x.windows["B"]], env=x.env, check=True)
        time.sleep(1.5)
        x.focus("B")
        x.move()
        time.sleep(1.5)
        rec.stop()
        rec.close()
        got = sessions(db)
        check(len(got) == 2 and got[0][0] == "\x1b]0;pwned\x07\x1b[31m\ufffd\ufffdevil" and got[1][0] == "L" * 256,
              f"hostile classes as data (repaired UTF-8, 256 bytes at most): {[a[:40] for a, _, _ in got]}")
        shown = run([BIN, "--db", db, "--width", "200", "-c", "apps"], env=x.env)
        check(b"\x1b" not in shown.stdout and b"\\e]0;pwned" in shown.stdout, f"the shell shows a hostile class raw: {shown.stdout[:300]!r}")
        print("ok: hostile window classes", flush=True)
    finally:
        x.close()

    # No display at all: one line, status 1.
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "XDG_CURRENT_DESKTOP", "DBUS_SESSION_BUS_ADDRESS")}
    p = run([BIN, "record", "--db", tmp + "/none.sqlite"], env=env, text=True)
    check(p.returncode == 1 and p.stdout == "" and p.stderr
          == "usage-shell record: no display: DISPLAY and WAYLAND_DISPLAY are unset (run it in your desktop session; under systemd, the session must export them: see the README)\n",
          f"no display: {p.returncode} {p.stderr!r}")
    check(not os.path.exists(tmp + "/none.sqlite"), "no display: no store made")
    # GNOME on Wayland without its session bus: the GNOME backend's reason is the one said, and
    # XWayland's DISPLAY is not used (it would see only X clients).
    env2 = dict(env, XDG_CURRENT_DESKTOP="ubuntu:GNOME", WAYLAND_DISPLAY="wayland-0", XDG_SESSION_TYPE="wayland", DISPLAY=":0")
    env2.pop("DBUS_SESSION_BUS_ADDRESS", None)
    p = run([BIN, "record", "--once"], env=env2, text=True)
    check(p.returncode == 1 and p.stderr == "usage-shell record: no backend can read this desktop: gnome: no session bus (DBUS_SESSION_BUS_ADDRESS is unset and "
          "$XDG_RUNTIME_DIR/bus is not there) (usage-shell record --once lists every backend's verdict)\n"
          and "\n  x11: this is a Wayland session: X11 would see only XWayland's windows (--backend x11 reads it anyway)\n" in p.stdout,
          f"GNOME on Wayland: {p.returncode} {p.stdout!r} {p.stderr!r}")
    p = run([BIN, "record", "--once"], env=dict(env, DISPLAY=":79"), text=True)
    check(p.returncode == 1 and p.stderr == "usage-shell record: no backend can read this desktop: x11: cannot open the X display :79 (usage-shell record --once lists every backend's verdict)\n",
          f"a display that is not there: {p.stderr!r}")
    check(p.stdout == "backends, in the order tried:\n  sway: no sway IPC socket: SWAYSOCK is unset (run it from inside sway)\n  i3: cannot open the X display :79\n"
          "  gnome: not a GNOME session (XDG_CURRENT_DESKTOP is unset)\n"
          "  kde: no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is not there)\n"
          "  wlroots: WAYLAND_DISPLAY is unset (not a Wayland session)\n  x11: cannot open the X display :79\n",
          f"a display that is not there: every backend's verdict: {p.stdout!r}")
    print("ok: no display, GNOME on Wayland, a display that is not there", flush=True)
