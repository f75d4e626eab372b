# more_cases.py — limits crossed while recording (a private dbus-daemon with a notification server, dbus-monitor, the --on-limit command), the systemd user unit (systemd-analyze verify), and the recorder on a PostgreSQL store.
import json
import os
import signal
import subprocess
import time

from peers import BIN, ROOT, TOLERANCE, Recorder, XSession, check, expect_sessions, fail, run, start, stop, wait_for


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
        print(json.dumps({"app": str(app), "summary": str(summary), "body": str(body)}), flush=True)
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
    bus = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"], capture_output=True, text=True, check=True)
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
        monitor = start(["dbus-monitor", "--session", "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"],
                        env=env, stdout=open(monitor_out, "w"))
        time.sleep(0.5)
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
            check(abs(float(at) - (t_a + 3)) <= TOLERANCE, f"the app limit said {float(at) - (t_a + 3):+.2f} s from its crossing")
            name, kind, seconds, at, text = lines[1].split("|", 4)
            check((name, kind, seconds, text) == ("Other", "category", "5", "Other (category): 5s today, limit 5s"), f"the category limit's command: {lines[1]}")
        check("limit reached: A (app): 3s today, limit 3s\n" in out and "limit reached: Other (category): 5s today, limit 5s\n" in out, f"the recorder's lines: {out!r}")
        notes = [json.loads(l) for l in open(server_out).read().splitlines()[1:]]
        check(notes == [{"app": "usage-shell", "summary": "Daily limit reached", "body": "A (app): 3s today, limit 3s"},
                        {"app": "usage-shell", "summary": "Daily limit reached", "body": "Other (category): 5s today, limit 5s"}],
              f"the notification server got {notes}")
        stop(monitor)
        check(open(monitor_out).read().count("member=Notify") == 2, "dbus-monitor saw two Notify calls")
        print("ok: limits crossed: two notifications on the session bus, the command twice, once per limit", flush=True)
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
