# lock_cases.py — away when locked (issue 42, item 4), on the X11 backend under Xvfb + openbox: a private system bus (a second dbus-daemon whose configuration allows everything, DBUS_SYSTEM_BUS_ADDRESS) with a python-dbus org.freedesktop.login1 (login1_stub.py) whose LockedHint the test sets as a desktop does; a private session bus with a screen saver (screensaver_stub.py) whose ActiveChanged it drives; no bus at all, and no libsystemd (hidden in a mount namespace). The store read back: no session covers a locked interval (within 0.3 s), sessions resume after.
import os
import subprocess
import time

from peers import BIN, TOLERANCE, Recorder, XSession, check, expect_sessions, run, sessions, start, stop, wait_for, work

HERE = os.path.dirname(os.path.abspath(__file__))

# The system bus of the test: anything allowed (the stub owns org.freedesktop.login1 as root
# or not; the recorder may call it and receive its signals).
SYSTEM_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""


def private_bus(argv):
    """A dbus-daemon of the test's own: (process, address)."""
    p = start(["dbus-daemon", "--nofork", "--print-address=1", *argv], stdout=subprocess.PIPE, text=True)
    address = p.stdout.readline().strip()
    if not address:
        raise RuntimeError(f"dbus-daemon {' '.join(argv)} printed no address")
    return p, address


def service(argv, address, name, out):
    """A stub started on the bus at `address`, once it owns `name`."""
    p = start(["/usr/bin/python3", *argv], stdout=open(out, "w"))
    wait_for(name, lambda: p.poll() is not None or run(
        ["dbus-send", f"--bus={address}", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
         "org.freedesktop.DBus.NameHasOwner", f"string:{name}"], text=True).stdout.strip().endswith("boolean true"))
    if p.poll() is not None:
        raise RuntimeError(f"{argv[0]} ended: {open(out).read()!r}")
    return p


def call(address, destination, path, method, *args):
    """A method call through dbus-send; the instant it returned (the stub emits its signal before replying)."""
    run(["dbus-send", f"--bus={address}", "--print-reply", f"--dest={destination}", path, method, *args], check=True)
    return time.time()


def test_lock(tmp):
    conf = tmp + "/system-bus.conf"
    with open(conf, "w") as f:
        f.write(SYSTEM_CONF.format(socket=tmp + "/system_bus_socket"))
    system, system_address = private_bus(["--config-file=" + conf])
    session, session_address = private_bus(["--session"])
    x = None
    try:
        x = XSession(97, ["openbox"])
        for cls in ["A", "B"]:
            x.xterm(cls)
        env = dict(x.env, DBUS_SYSTEM_BUS_ADDRESS=system_address, DBUS_SESSION_BUS_ADDRESS=session_address, XDG_SESSION_ID="c1")
        login1 = service([HERE + "/login1_stub.py", system_address], system_address, "org.freedesktop.login1", tmp + "/login1.out")
        session_path = "/org/freedesktop/login1/session/c1"

        def locked_hint(value):
            return call(system_address, "org.freedesktop.login1", session_path, "org.freedesktop.login1.Session.SetLockedHint", f"boolean:{value}")

        once = run([BIN, "record", "--once"], env=env, text=True)
        check(once.returncode == 0 and "\nlock: logind's LockedHint of session c1 (XDG_SESSION_ID), not locked now\n"
              "lock: the screen savers' ActiveChanged on the session bus (none runs now)\ndevice: " in once.stdout,
              f"record --once with logind: {once.stdout!r} {once.stderr!r}")

        # Locked for 3 s: the session ends at the lock; input at the lock screen and a focus
        # change behind it count nothing; B, in front at the unlock, starts then.
        db = tmp + "/lock.sqlite"
        rec = Recorder(db, env, "--idle", "1m")
        check("; lock from logind and the screen savers) into " in rec.output(), f"the recorder's first line: {rec.output()!r}")
        t_a = x.focus("A")
        x.move()
        time.sleep(2)
        t_lock = locked_hint("true")
        time.sleep(1)
        x.move()
        x.focus("B")
        time.sleep(2)
        t_unlock = locked_hint("false")
        time.sleep(2)
        t_stop = rec.stop()
        out = rec.output()
        rec.close()
        check(rec.p.returncode == 0 and "screen lock" not in out, f"the recorder with logind: {rec.p.returncode} {out!r}")
        expect_sessions("lock from logind: A until the lock, B from the unlock", sessions(db), [("A", t_a, t_lock), ("B", t_unlock, t_stop)],
                        tolerance=TOLERANCE)

        # Idle, then the lock, then the unlock while still idle: nothing until input comes back.
        db = tmp + "/lock-idle.sqlite"
        rec = Recorder(db, env, "--idle", "2s")
        t_a = x.focus("A")
        x.move()
        a_last = work(2, x.move)
        time.sleep(3)  # idle from the last input
        locked_hint("true")
        time.sleep(1)
        locked_hint("false")
        time.sleep(1.5)  # unlocked, still idle
        x.move()
        t_in = time.time()
        work(2, x.move)
        t_stop = rec.stop()
        rec.close()
        expect_sessions("idle, lock, unlock while idle: A until the last input, A from the next", sessions(db),
                        [("A", t_a, a_last), ("A", t_in, t_stop)], tolerance=TOLERANCE)

        # Locked when the recorder starts: nothing until the unlock.
        db = tmp + "/lock-at-start.sqlite"
        locked_hint("true")
        rec = Recorder(db, env, "--idle", "1m")
        x.focus("A")
        x.move()
        time.sleep(2)
        t_unlock = locked_hint("false")
        x.move()
        time.sleep(2)
        t_stop = rec.stop()
        rec.close()
        expect_sessions("locked at the start: A from the unlock", sessions(db), [("A", t_unlock, t_stop)], tolerance=TOLERANCE)
        stop(login1)

        # No logind: GNOME's screen shield (org.gnome.ScreenSaver's ActiveChanged on the session bus).
        saver = service([HERE + "/screensaver_stub.py", session_address, "org.gnome.ScreenSaver"], session_address, "org.gnome.ScreenSaver",
                        tmp + "/saver.out")

        def shield(value):
            return call(session_address, "org.gnome.ScreenSaver", "/org/gnome/ScreenSaver", "org.gnome.ScreenSaver.SetActive", f"boolean:{value}")

        once = run([BIN, "record", "--once"], env=env, text=True)
        check(once.returncode == 0 and f"\nlock: logind not seen (no org.freedesktop.login1 on the bus at {system_address})\n"
              "lock: the screen savers' ActiveChanged on the session bus (org.gnome.ScreenSaver not active now)\n" in once.stdout,
              f"record --once with GNOME's screen saver: {once.stdout!r} {once.stderr!r}")
        db = tmp + "/lock-saver.sqlite"
        rec = Recorder(db, env, "--idle", "1m")
        t_a = x.focus("A")
        x.move()
        time.sleep(2)
        t_lock = shield("true")
        time.sleep(2.5)
        t_unlock = shield("false")
        x.move()
        time.sleep(2)
        t_stop = rec.stop()
        rec.close()
        expect_sessions("lock from org.gnome.ScreenSaver: A until the lock, A from the unlock", sessions(db),
                        [("A", t_a, t_lock), ("A", t_unlock, t_stop)], tolerance=TOLERANCE)
        stop(saver)
        print("ok: the lock from logind's LockedHint and from GNOME's ActiveChanged; record --once says where it comes from", flush=True)

        # No bus at all: said once, and recording goes on.
        bare = dict(x.env, DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={tmp}/no-system-bus")
        why = (f"logind: cannot connect to the bus at unix:path={tmp}/no-system-bus: No such file or directory; screen savers: "
               "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is not there)")
        once = run([BIN, "record", "--once"], env=bare, text=True)
        check(once.returncode == 0 and f"\nlock: not seen, a locked screen counts as use until idle ({why})\n" in once.stdout,
              f"record --once without a bus: {once.stdout!r} {once.stderr!r}")
        db = tmp + "/lock-none.sqlite"
        rec = Recorder(db, bare, "--idle", "1m")
        t_a = x.focus("A")
        x.move()
        time.sleep(2)
        t_stop = rec.stop()
        out = rec.output()
        rec.close()
        check(f"; lock not seen) into " in out and out.count(f"usage-shell record: the screen lock is not seen ({why}): a locked screen counts as use until idle\n") == 1,
              f"the recorder without a bus: {out!r}")
        expect_sessions("no bus: recording goes on", sessions(db), [("A", t_a, t_stop)], tolerance=TOLERANCE)

        # No libsystemd (hidden behind /dev/null in a mount namespace of its own): said so.
        library = os.path.realpath("/usr/lib/x86_64-linux-gnu/libsystemd.so.0")
        hidden = run(["unshare", "-m", "sh", "-c", f'mount --bind /dev/null "{library}" && exec "$0" record --once', BIN], env=env, text=True)
        check(hidden.returncode == 0 and "\nlock: not seen, a locked screen counts as use until idle (D-Bus needs libsystemd (Debian: apt-get install libsystemd0): "
              "/lib/x86_64-linux-gnu/libsystemd.so.0: file too short (nor libelogind.so.0 or libbasu.so.0))\n" in hidden.stdout,
              f"record --once without libsystemd: {hidden.stdout!r} {hidden.stderr!r}")
        print("ok: no bus, no libsystemd: recording goes on, record --once says why the lock is not seen", flush=True)
    finally:
        if x:
            x.close()
        stop(system)
        stop(session)
