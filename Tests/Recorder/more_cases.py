# more_cases.py — limits crossed while recording (a private dbus-daemon with a notification server — then without one —, dbus-monitor, the --on-limit command), the systemd user unit (systemd-analyze verify, then a real user systemd: enabled as documented, started by openbox's autostart line, record --enable and its rollback), and the recorder on a PostgreSQL store.
import json
import os
import signal
import subprocess
import time

from peers import BIN, ROOT, Recorder, XSession, check, expect_sessions, fail, quiet_bus_config, run, sessions, start, stop, wait_for

# A limit is said within this of the instant it is crossed.
LIMIT_TOLERANCE = 0.5
# How late a limit's --on-limit command may start on a loaded machine (a shell and date forked).
COMMAND_CEILING = 2.0


# ---------------------------------------------------------------------------------------------
# Limits as they are crossed: a private session bus with a notification server, and the
# user's command.

NOTIFY_SERVER = r"""
import json, sys
import dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
class Server(dbus.service.Object):
    count = 0
    @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        Server.count += 1
        print(json.dumps({"app": str(app), "summary": str(summary), "body": str(body), "hints": {str(k): int(v) for k, v in hints.items()}, "timeout": int(timeout)}), flush=True)
        return Server.count
    @dbus.service.method("org.freedesktop.Notifications", out_signature="as")
    def GetCapabilities(self):
        return ["body"]
    @dbus.service.method("org.freedesktop.Notifications", out_signature="ssss")
    def GetServerInformation(self):
        return ("usage-shell-test", "test", "1", "1.2")
    @dbus.service.method("org.freedesktop.Notifications", in_signature="u")
    def CloseNotification(self, id):
        pass
bus = dbus.SessionBus()
name = dbus.service.BusName("org.freedesktop.Notifications", bus)
Server(bus, "/org/freedesktop/Notifications")
print("ready", flush=True)
GLib.MainLoop().run()
"""


def test_notify(tmp):
    config = tmp + "/usage-shell-session-bus.conf"
    with open(config, "w") as f:
        f.write(quiet_bus_config("unix:tmpdir=" + tmp))
    bus = subprocess.run(["dbus-daemon", "--config-file=" + config, "--fork", "--print-address=1", "--print-pid=1"],
                         capture_output=True, text=True, check=True)
    address, pid = bus.stdout.split("\n")[:2]
    x = server = None
    try:
        x = XSession(95, ["openbox"])
        for cls in ["A", "B"]:
            x.xterm(cls)
        env = dict(x.env, DBUS_SESSION_BUS_ADDRESS=address)
        server_out = tmp + "/usage-shell-notifyd.out"
        server = start(["/usr/bin/python3", "-c", NOTIFY_SERVER], env=env, stdout=open(server_out, "w"))
        wait_for("the notification server", lambda: open(server_out).read().startswith("ready"))
        monitor_out = tmp + "/usage-shell-monitor.out"
        monitor = start(["dbus-monitor", "--session", "type='method_call',interface='org.freedesktop.Notifications',member='Notify'",
                         "type='signal',interface='org.usage_shell.Probe'"],
                        env=env, stdout=open(monitor_out, "w"))
        # Watching once it sees a signal sent after it started (not after a guessed time).
        wait_for("dbus-monitor", lambda: subprocess.run(["dbus-send", "--session", "--type=signal", "/probe", "org.usage_shell.Probe.Ready"], env=env, check=True)
                 and "org.usage_shell.Probe" in open(monitor_out).read())
        os.makedirs(os.environ["XDG_CONFIG_HOME"] + "/usage-shell", exist_ok=True)
        with open(os.environ["XDG_CONFIG_HOME"] + "/usage-shell/limits.json", "w") as f:
            f.write('{"limits": [{"app": "A", "seconds": 3}, {"category": "Other", "seconds": 5}]}\n')
        said = tmp + "/usage-shell-said.txt"
        command = f'printf "%s|%s|%s|%s|%s\\n" "$USAGE_SHELL_LIMIT_NAME" "$USAGE_SHELL_LIMIT_KIND" "$USAGE_SHELL_LIMIT_SECONDS" "$(date +%s.%N)" "$USAGE_SHELL_LIMIT_TEXT" >> {said}'
        db = tmp + "/notify.sqlite"
        rec = Recorder(db, env, "--idle", "1m", "--on-limit", command)
        t_a = x.focus("A")
        x.move()
        time.sleep(3.5)
        x.focus("B")
        x.move()
        time.sleep(3.0)
        x.focus("A")  # back in A: its limit was said today already
        x.move()
        time.sleep(1.5)
        rec.stop()
        out = rec.output()
        rec.close()
        lines = open(said).read().splitlines() if os.path.exists(said) else []
        check(len(lines) == 2, f"the --on-limit command ran {len(lines)} times: {lines}; output {out!r}")
        if len(lines) == 2:
            name, kind, seconds, at, text = lines[0].split("|", 4)
            check((name, kind, seconds, text) == ("A", "app", "3", "A (app): 3s today, limit 3s"), f"the app limit's command: {lines[0]}")
            # The command's own clock includes starting a shell and `date` (a loaded machine's
            # fork and exec, not the recorder's delay): it ran after the crossing, soon after.
            check(-LIMIT_TOLERANCE <= float(at) - (t_a + 3) <= COMMAND_CEILING, f"the app limit's command ran {float(at) - (t_a + 3):+.2f} s from its crossing")
            name, kind, seconds, at, text = lines[1].split("|", 4)
            check((name, kind, seconds, text) == ("Other", "category", "5", "Other (category): 5s today, limit 5s"), f"the category limit's command: {lines[1]}")
        check("limit reached: A (app): 3s today, limit 3s\n" in out and "limit reached: Other (category): 5s today, limit 5s\n" in out, f"the recorder's lines: {out!r}")
        notes = [json.loads(l) for l in open(server_out).read().splitlines()[1:]]
        check(notes == [{"app": "usage-shell", "summary": "Daily limit reached", "body": "A (app): 3s today, limit 3s", "hints": {"urgency": 1}, "timeout": -1},
                        {"app": "usage-shell", "summary": "Daily limit reached", "body": "Other (category): 5s today, limit 5s", "hints": {"urgency": 1}, "timeout": -1}],
              f"the notification server got {notes}")
        check("no desktop notification" not in out, f"a notification said to have failed: {out!r}")
        stop(monitor)
        watched = open(monitor_out).read()
        check(watched.count("member=Notify") == 2, "dbus-monitor saw two Notify calls")
        # The announcement's instant as the bus saw the recorder's call: held to the promise
        # (bug: a focus Xlib held until the loop's next wait armed no deadline, and the limit was
        # said at the next wakeup, B's focus 0.56 s later, in about 1 run of 3).
        calls = [float(line.split("time=")[1].split()[0]) for line in watched.splitlines() if "member=Notify" in line and "time=" in line]
        if calls:
            check(abs(calls[0] - (t_a + 3)) <= LIMIT_TOLERANCE, f"the app limit said {calls[0] - (t_a + 3):+.2f} s from its crossing (its Notify call on the bus)")
        print("ok: limits crossed: two notifications on the session bus, the command twice, once per limit", flush=True)

        # No notification server on the bus: said once, in one line; the limits are still said.
        stop(server)
        server = None
        with open(os.environ["XDG_CONFIG_HOME"] + "/usage-shell/limits.json", "w") as f:
            f.write('{"limits": [{"app": "A", "seconds": 2}, {"category": "Other", "seconds": 3}]}\n')
        rec = Recorder(tmp + "/notify-none.sqlite", env, "--idle", "1m")
        x.focus("A")
        x.move()
        time.sleep(4)
        rec.stop()
        out = rec.output()
        rec.close()
        warning = ("usage-shell record: no desktop notification (D-Bus call org.freedesktop.Notifications.Notify on org.freedesktop.Notifications: "
                   "org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.Notifications was not provided by any .service files): "
                   "limits are said here only\n")
        check(out.count(warning) == 1 and "limit reached: A (app): 2s today, limit 2s\n" in out
              and "limit reached: Other (category): 3s today, limit 3s\n" in out, f"no notification server: {out!r}")
        print("ok: no notification server: said once, the limits said here", flush=True)
    finally:
        if server:
            stop(server)
        if x:
            x.close()
        os.kill(int(pid), signal.SIGTERM)


# ---------------------------------------------------------------------------------------------
# The systemd user unit: systemd's own checker on it, with ExecStart pointing at this binary.

def test_unit(tmp):
    source = os.path.join(ROOT, "Resources/systemd/usage-shell-record.service")
    text = open(source).read()
    check("\nExecStart=%h/.local/bin/usage-shell record\n" in text and "\nWantedBy=graphical-session.target\n" in text, "the unit's ExecStart and WantedBy")
    unit = tmp + "/usage-shell-record.service"
    with open(unit, "w") as f:
        f.write(text.replace("%h/.local/bin/usage-shell", BIN))
    p = run(["systemd-analyze", "verify", "--man=no", unit], text=True)
    check(p.returncode == 0 and p.stderr == "", f"systemd-analyze verify: {p.returncode} {p.stderr!r}")
    print("ok: the systemd user unit", flush=True)
    test_unit_in_a_user_systemd(tmp, text)


OPENBOX_LINE = ("(systemctl --user import-environment DISPLAY XAUTHORITY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && "
                "systemctl --user start usage-shell-record.service) &")


def test_unit_in_a_user_systemd(tmp, text):
    """Issue 44, item 6, in a real user systemd: the unit enabled as documented never starts in an
    openbox session (graphical-session.target is never reached, and refuses a manual start);
    `record --once` prints the line openbox's autostart needs; `record --enable` writes it and
    enables the unit, or, when `systemctl --user enable` fails, leaves the autostart as it was;
    the autostart run as openbox runs it starts the unit, which records.

    The container runs no systemd as PID 1, and `systemd --user` refuses to start without
    /run/systemd/system: the manager runs in a mount namespace of its own (`unshare -m`) with a
    private /run holding that folder, its socket in a runtime folder of the test's."""
    home, runtime = tmp + "/unit-home", tmp + "/unit-run"
    os.makedirs(runtime, mode=0o700)
    data, config = home + "/.local/share", home + "/.config"
    os.makedirs(data + "/systemd/user")
    unit = data + "/systemd/user/usage-shell-record.service"
    with open(unit, "w") as f:
        f.write(text.replace("%h/.local/bin/usage-shell", BIN))
    env = {"PATH": os.environ["PATH"], "HOME": home, "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": config, "XDG_DATA_HOME": data,
           "USAGE_SHELL_DEVICE": os.environ["USAGE_SHELL_DEVICE"], "LANG": "C.UTF-8", "TZ": "UTC"}
    manager = start(["unshare", "-m", "sh", "-c", "mount -t tmpfs tmpfs /run && mkdir -p /run/systemd/system && exec systemd --user"], env=env)
    x = None
    recorder = None
    try:
        wait_for("the user systemd", lambda: manager.poll() is not None
                 or run(["systemctl", "--user", "show", "--property=Version"], env=env).returncode == 0)
        if not check(manager.poll() is None, "the user systemd did not start (unshare -m, a private /run, systemd --user)"):
            return
        x = XSession(98, ["openbox"])
        session = dict(env, DISPLAY=x.display, DESKTOP_SESSION="openbox")
        autostart = config + "/openbox/autostart"

        once = run([BIN, "record", "--once"], env=session, text=True)
        check(once.returncode == 0 and "\nnote: no usage-shell-record.service runs; openbox starts no graphical-session.target, so "
              + autostart + " needs this line" in once.stdout and "\n  " + OPENBOX_LINE + "\n" in once.stdout,
              f"record --once without a unit: {once.stdout!r} {once.stderr!r}")

        # systemctl --user enable failing (the unit not installed): no half a set-up.
        os.rename(unit, unit + ".away")
        failed = run([BIN, "record", "--enable"], env=session, text=True)
        check(failed.returncode == 1 and failed.stderr.startswith("usage-shell record: systemctl --user enable usage-shell-record.service failed (")
              and failed.stderr.endswith("); " + autostart + ", which it made, is gone again: nothing was changed\n"), f"record --enable failing: {failed.stderr!r}")
        check(not os.path.exists(config + "/openbox"), "a failed record --enable left " + config + "/openbox behind")
        os.rename(unit + ".away", unit)

        enabled = run([BIN, "record", "--enable"], env=session, text=True)
        check(enabled.returncode == 0 and enabled.stdout.startswith("added to " + autostart + ": " + OPENBOX_LINE + "\n"), f"record --enable: {enabled.stdout!r} {enabled.stderr!r}")
        state = run(["systemctl", "--user", "is-enabled", "usage-shell-record.service"], env=env, text=True).stdout.strip()
        check(state == "enabled", f"the unit is {state!r} after record --enable")

        # What the documented set-up gave: enabled, wanted by a target openbox never reaches.
        active = run(["systemctl", "--user", "is-active", "usage-shell-record.service"], env=env, text=True).stdout.strip()
        check(active == "inactive", f"the unit is {active!r} in an openbox session before its autostart ran")
        refused = run(["systemctl", "--user", "start", "graphical-session.target"], env=env, text=True)
        check(refused.returncode != 0 and "refuse manual start" in refused.stderr, f"graphical-session.target started by hand: {refused.stderr!r}")

        # The fix: openbox runs its autostart (openbox-autostart: `sh FILE`), which starts the unit.
        run(["sh", autostart], env=dict(session, XDG_CURRENT_DESKTOP="openbox", XDG_SESSION_TYPE="x11"), check=True)
        wait_for("the unit to run", lambda: run(["systemctl", "--user", "is-active", "usage-shell-record.service"], env=env, text=True).stdout.strip() == "active")
        recorder = run(["systemctl", "--user", "show", "--property=MainPID", "--value", "usage-shell-record.service"], env=env, text=True).stdout.strip()
        x.xterm("U")
        x.focus("U")
        x.move()
        store = data + "/usage-shell/usage.sqlite"
        wait_for("the unit's recorder to write a session", lambda: os.path.exists(store) and any(a == "U" for a, _, _ in sessions(store)), timeout=30)
        again = run([BIN, "record", "--once"], env=session, text=True)
        check(again.returncode == 0 and "note: no usage-shell-record.service runs" not in again.stdout, f"record --once with the unit running: {again.stdout!r}")
        run(["systemctl", "--user", "stop", "usage-shell-record.service"], env=env, check=True)
        print("ok: the systemd user unit in a user systemd, started by openbox's autostart line", flush=True)
    finally:
        if x:
            x.close()
        stop(manager)
        # The manager ends its services; one left behind (no cgroups to find it by) is ended here.
        if recorder and recorder.isdigit() and recorder != "0":
            try:
                os.kill(int(recorder), signal.SIGTERM)
            except ProcessLookupError:
                pass


# ---------------------------------------------------------------------------------------------
# The same recorder on a PostgreSQL store (the tests' server: scripts/pg-test-server).

def test_postgres(tmp):
    server = os.environ.get("USAGE_SHELL_TEST_PG")
    if not server:
        if os.environ.get("CI") or os.environ.get("USAGE_SHELL_REQUIRE_PG"):
            fail("postgres: USAGE_SHELL_TEST_PG is unset (scripts/test starts a server)")
        else:
            print("not run: postgres (USAGE_SHELL_TEST_PG unset: scripts/pg-test-server start DIR)", flush=True)
        return
    name = f"usage_shell_record_{os.getpid()}"
    run(["psql", server, "-qc", f"CREATE DATABASE {name}"], check=True)
    conninfo = server + f" dbname={name}"
    x = None
    try:
        x = XSession(96, ["openbox"])
        for cls in ["A", "B"]:
            x.xterm(cls)
        rec = Recorder(conninfo, x.env, "--idle", "1m")
        t_a = x.focus("A")
        x.move()
        time.sleep(6)  # a heartbeat on the way
        t_b = x.focus("B")
        x.move()
        time.sleep(2)
        second = run([BIN, "record", "--db", conninfo], env=x.env, text=True)
        check(second.returncode == 1 and f"(PID {rec.p.pid})" in second.stderr, f"postgres: a second recorder: {second.stderr!r}")
        t_stop = rec.stop()
        check(rec.p.returncode == 0, f"postgres: the recorder's exit status {rec.p.returncode}: {rec.output()}")
        rec.close()
        rows = run(["psql", conninfo, "-XAtc", "SELECT a.name, s.start, s.length FROM usage_shell.session s JOIN usage_shell.app a ON a.id = s.app ORDER BY s.start"],
                   text=True, check=True).stdout.split()
        got = [(r.split("|")[0], int(r.split("|")[1]) / 1e6, (int(r.split("|")[1]) + int(r.split("|")[2])) / 1e6) for r in rows]
        expect_sessions("postgres: A 6 s, B 2 s", got, [("A", t_a, t_b), ("B", t_b, t_stop)])
    finally:
        if x:
            x.close()
        run(["psql", server, "-qc", f"DROP DATABASE IF EXISTS {name}"])
