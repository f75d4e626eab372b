# gnome_cases.py — the recorder on GNOME Shell 43 headless under Wayland (llvmpipe): the project's extension installed and enabled as a user would, a test-only extension that hides the overview, activates windows, moves the pointer and locks; GTK windows with hostile titles; sessions, idle from Mutter's watches, the lock, closing a window, kill -9, a disabled extension, record --enable enabling it (or refusing while user extensions are off), and the ES-module edition for GNOME 45 and later imported into this shell and recording.
import os
import shutil
import signal
import subprocess
import time

from peers import BIN, ROOT, Recorder, check, expect_sessions, run, scenario, sessions, start, stop, wait_for

UUID = "usage-shell-record@usage-shell"
TEST_UUID = "usage-shell-test@usage-shell"
HERE = os.path.dirname(os.path.abspath(__file__))

# GNOME Shell makes its screen shield (the lock) only when a display manager answers on the
# system bus: this one answers Version and RegisterSession, nothing more.
DISPLAY_MANAGER = r'''
import sys, dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(sys.argv[1])
name = dbus.service.BusName("org.gnome.DisplayManager", bus)
class Manager(dbus.service.Object):
    @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
    def Get(self, interface, prop):
        return dbus.String("43.0", variant_level=1)
    @dbus.service.method("org.gnome.DisplayManager.Manager", in_signature="a{sv}", out_signature="")
    def RegisterSession(self, details):
        pass
Manager(bus, "/org/gnome/DisplayManager/Manager")
print("ready", flush=True)
GLib.MainLoop().run()
'''

# A GTK application's window: its id is argv[1] (no .desktop file claims it, so the shell names
# it by its GTK application id), its title argv[2] — a title the store must never hold. A
# GApplication, as real apps are: GNOME gives a new window of one the focus (a bare window it
# may not).
WINDOW = r'''
import sys, gi
gi.require_version("Gtk", "3.0")
from gi.repository import Gio, Gtk
app = Gtk.Application(application_id=sys.argv[1], flags=Gio.ApplicationFlags.NON_UNIQUE)
app.connect("activate", lambda a: Gtk.ApplicationWindow(application=a, title=sys.argv[2]).show_all())
app.run([])
'''

SYSTEM_BUS = '''<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>system</type><listen>unix:path={path}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/><allow user="*"/></policy></busconfig>
'''

APP = "org.usageshell."  # the windows' application ids: APP + "A", APP + "B", APP + "C"
# A program that takes the extension's bus name (as malware could, to feed the recorder apps).
IMPOSTOR = r'''
import dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
name = dbus.service.BusName("org.usageshell.Focus", dbus.SessionBus())
GLib.MainLoop().run()
'''

# The test's one connection to the session bus: a process that reads "DEST PATH INTERFACE.METHOD
# [ARG]" lines and prints each answer's repr on a line (a gdbus process per call would take a
# tenth of a second or more: the script's instants must be the moment it acted).
DRIVER = r'''
import sys, dbus
bus = dbus.bus.BusConnection(sys.argv[1])
for line in sys.stdin:
    dest, path, method, *args = line.rstrip("\n").split(" ", 3)
    interface, member = method.rsplit(".", 1)
    try:
        answer = bus.call_blocking(dest, path, interface, member, "s" if args else "", args, timeout=10)
        print("ok " + repr(answer), flush=True)
    except dbus.DBusException as e:
        print("error " + e.get_dbus_name(), flush=True)
'''

# GNOME Shell 45's Extension base class (resource:///org/gnome/shell/extensions/extension.js), as
# far as the extension uses it: made with its metadata, which it keeps.
EXTENSION_BASE = """export class Extension {
    constructor(metadata) {
        this.metadata = metadata;
        this.uuid = metadata.uuid;
        this.path = metadata.path;
    }
}
"""

TITLE = "SECRET-TITLE \x1b]0;pwned\x07 bank statement.pdf"


class GnomeSession:
    """gnome-shell --headless --wayland inside dbus-run-session, with a private system bus."""

    def __init__(self, tmp):
        self.root = tmp + "/gnome"
        home = self.root + "/home"
        runtime = self.root + "/run"
        os.makedirs(home + "/.local/share/gnome-shell/extensions")
        os.makedirs(runtime, 0o700)
        for source in [ROOT + "/Resources/gnome-shell/" + UUID, HERE + "/gnome/" + TEST_UUID]:
            shutil.copytree(source, home + "/.local/share/gnome-shell/extensions/" + os.path.basename(source))
        # The shell locks only where systemd's seat folder is (logind's sign of a real session).
        os.makedirs("/run/systemd/seats", exist_ok=True)
        system = self.root + "/system_bus"
        with open(self.root + "/system.conf", "w") as f:
            f.write(SYSTEM_BUS.format(path=system))
        self.system_bus = start(["dbus-daemon", "--config-file=" + self.root + "/system.conf", "--nofork"])
        wait_for("the private system bus", lambda: os.path.exists(system))
        self.system_address = "unix:path=" + system
        out = self.root + "/dm.out"
        self.dm = start(["/usr/bin/python3", "-c", DISPLAY_MANAGER, self.system_address], stdout=open(out, "w"))
        wait_for("the display manager stub", lambda: open(out).read().startswith("ready"))
        base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "DBUS_SESSION_BUS_ADDRESS")}
        self.env = dict(base, HOME=home, XDG_RUNTIME_DIR=runtime, XDG_CONFIG_HOME=home + "/.config", XDG_DATA_HOME=home + "/.local/share",
                        XDG_CACHE_HOME=home + "/.cache", DBUS_SYSTEM_BUS_ADDRESS=self.system_address, LIBGL_ALWAYS_SOFTWARE="1",
                        XDG_CURRENT_DESKTOP="GNOME", XDG_SESSION_TYPE="wayland")
        address = self.root + "/session-address"
        # dconf writes where HOME and XDG_* point, so they are set before the bus starts; the
        # extensions are enabled as `gnome-extensions enable` would, before the shell reads them.
        script = ("gsettings set org.gnome.shell disable-user-extensions false && "
                  f"gsettings set org.gnome.shell enabled-extensions \"['{UUID}', '{TEST_UUID}']\" && "
                  f"echo \"$DBUS_SESSION_BUS_ADDRESS\" > {address} && "
                  "exec gnome-shell --headless --wayland --no-x11 --virtual-monitor 1280x800 --wayland-display usage-shell-gnome")
        self.shell = start(["dbus-run-session", "--", "sh", "-c", script], env=self.env)
        wait_for("the session bus", lambda: os.path.exists(address) and open(address).read().strip())
        self.env["DBUS_SESSION_BUS_ADDRESS"] = open(address).read().strip()
        self.env["WAYLAND_DISPLAY"] = "usage-shell-gnome"
        wait_for("the test extension", lambda: self.has_name("org.usageshell.Test"), timeout=90)
        self.driver = start(["/usr/bin/python3", "-c", DRIVER, self.env["DBUS_SESSION_BUS_ADDRESS"]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        # The shell opens in the overview, where a new window gets no focus: hidden once its start is over.
        def overview_hidden():
            return self.test("HideOverview") == "(true,)" and "false" in self.gdbus(
                "org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties.Get", "org.gnome.Shell", "OverviewActive")
        wait_for("the overview to hide", overview_hidden, timeout=60)
        self.windows = {}

    def gdbus(self, dest, path, method, *args):
        p = run(["gdbus", "call", "--session", "-d", dest, "-o", path, "-m", method, *args], env=self.env, text=True)
        return p.stdout.strip() if p.returncode == 0 else "error: " + p.stderr.strip()

    def has_name(self, name):
        return "true" in self.gdbus("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", name)

    def call(self, dest, path, method, *args):
        """A method's answer through the driver: "ok VALUE" or "error NAME"."""
        self.driver.stdin.write(" ".join([dest, path, method, *args]) + "\n")
        self.driver.stdin.flush()
        return self.driver.stdout.readline().strip()

    def test(self, method, *args):
        """The test extension's answer: "(true,)", "(false,)" or "()" as gdbus would print them."""
        answer = self.call("org.usageshell.Test", "/org/usageshell/Test", "org.usageshell.Test." + method, *args)
        return {"ok dbus.Boolean(True)": "(true,)", "ok dbus.Boolean(False)": "(false,)", "ok None": "()"}.get(answer, answer)

    def current(self):
        answer = self.call("org.usageshell.Focus", "/org/usageshell/Focus", "org.usageshell.Focus.Current")
        return f"('{answer[len('ok dbus.String(') + 1:-2]}',)" if answer.startswith("ok dbus.String(") else answer

    def window(self, name, title=TITLE):
        """Opens the window of app APP + `name`; returns once the shell has given it the focus."""
        self.windows[name] = start(["/usr/bin/python3", "-c", WINDOW, APP + name, title], env=dict(self.env, GDK_BACKEND="wayland"))
        wait_for("window " + name, lambda: self.current() == f"('{APP}{name}',)", timeout=30)
        return time.time()

    def close_window(self, app):
        stop(self.windows.pop(app))
        return time.time()

    def focus(self, name):
        check(self.test("Activate", APP + name) == "(true,)", f"gnome: no window {name} to activate")
        return time.time()

    def move(self):
        self.test("MovePointer")

    def close(self):
        for p in self.windows.values():
            stop(p)
        if getattr(self, "driver", None):
            stop(self.driver)
        stop(self.shell, signal.SIGINT)  # SIGTERM crashes the shell; SIGINT ends it (then SIGKILL after a timeout)
        stop(self.dm)
        stop(self.system_bus)


def named(db, before=None):
    """The store's sessions with the apps' names as the script calls them (A, not org.usageshell.A);
    without the first one when it is `before`'s (the app in front as the recorder started, before
    the script's first instant; kept when that took a second or more)."""
    got = sessions(db)
    check(all(app.startswith(APP) for app, _, _ in got), f"gnome: every app is named by its application id: {got}")
    got = [(app.removeprefix(APP), start, end) for app, start, end in got]
    return got[1:] if before and got and got[0][0] == before else got


def test_gnome(tmp):
    g = GnomeSession(tmp)
    try:
        env = g.env
        # Installed and enabled as the README says: its name is on the bus, it answers.
        check(g.current() == "('',)", f"gnome: the extension's answer with no window: {g.current()!r}")
        g.window("A")
        g.window("B")
        once = run([BIN, "record", "--once"], env=env, text=True)
        check(once.returncode == 0 and once.stdout.startswith(f"backend: gnome\napp: {APP}B (category Other)\nidle: "),
              f"gnome --once: {once.stdout!r} {once.stderr!r}")
        check("(from Mutter's idle monitor)" in once.stdout and "  gnome: records\n" in once.stdout,
              f"gnome --once says where idle comes from and the verdicts: {once.stdout!r}")

        # The script: A 3 s, B 2 s, idle, A 2 s — focus moved by activating windows.
        db = tmp + "/gnome.sqlite"
        want, output = scenario("gnome", g.focus, g.move, db, env)
        expect_sessions("gnome: A 3 s, B 2 s, idle, A 2 s", named(db), want)

        # A new window takes the focus; closing it gives it back.
        db = tmp + "/gnome-close.sqlite"
        g.focus("B")
        rec = Recorder(db, env, "--idle", "1m")
        t0 = g.focus("A")  # the instants are the script's: A focused once the recorder runs
        g.move()
        time.sleep(1.5)
        t_c = g.window("C")
        time.sleep(1.5)
        t_closed = g.close_window("C")
        wait_for("A to have the focus again", lambda: g.current() == f"('{APP}A',)")
        time.sleep(1.5)
        t_stop = rec.stop()
        rec.close()
        expect_sessions("gnome: a window opened then closed", named(db, before="B"), [("A", t0, t_c), ("C", t_c, t_closed), ("A", t_closed, t_stop)])

        # The lock: no session runs from the moment the screen locks until it unlocks.
        db = tmp + "/gnome-lock.sqlite"
        g.focus("B")
        rec = Recorder(db, env, "--idle", "1m")
        t0 = g.focus("A")
        g.move()
        time.sleep(1.5)
        g.test("Lock")
        t_lock = time.time()
        wait_for("the lock", lambda: g.test("Locked") == "(true,)")
        time.sleep(2)
        g.test("Unlock")
        t_unlock = time.time()
        wait_for("the unlock", lambda: g.test("Locked") == "(false,)")
        g.move()
        time.sleep(1.5)
        t_stop = rec.stop()
        rec.close()
        expect_sessions("gnome: locked is away", named(db, before="B"), [("A", t0, t_lock), ("A", t_unlock, t_stop)])

        # kill -9: at most the 5 s between writes is lost.
        db = tmp + "/gnome-kill.sqlite"
        g.focus("B")
        rec = Recorder(db, env, "--idle", "1m")
        t0 = g.focus("A")
        g.move()
        time.sleep(7)
        t_kill = time.time()
        rec.stop(signal.SIGKILL)
        rec.close()
        got = named(db, before="B")
        check(len(got) == 1 and got[0][0] == "A" and abs(got[0][1] - t0) <= 0.5 and t_kill - 5.5 <= got[0][2] <= t_kill,
              f"gnome: kill -9 keeps all but the last 5 s: {got} (started {t0:.2f}, killed {t_kill:.2f})")

        # No window title reaches any store.
        for name in os.listdir(tmp):
            if name.startswith("gnome") and ".sqlite" in name:
                with open(tmp + "/" + name, "rb") as f:
                    check(b"SECRET-TITLE" not in f.read(), f"gnome: a window title is in {name}")

        # The extension disabled: the one line that says how to enable it.
        run(["gnome-extensions", "disable", UUID], env=env)
        wait_for("the extension to leave the bus", lambda: not g.has_name("org.usageshell.Focus"))
        p = run([BIN, "record", "--once", "--backend", "gnome"], env=env, text=True)
        check(p.returncode == 1 and p.stderr == f"usage-shell record: --backend gnome: the usage-shell extension is installed but not enabled: run gnome-extensions enable {UUID}\n",
              f"gnome: extension disabled: {p.returncode} {p.stderr!r}")
        p = run([BIN, "record", "--once"], env=env, text=True)
        check(p.returncode == 1 and "\n  gnome: the usage-shell extension is installed but not enabled" in p.stdout
              and p.stderr.startswith("usage-shell record: no backend can read this desktop: gnome: the usage-shell extension is installed but not enabled"),
              f"gnome: --once lists the verdicts when none opens: {p.stdout!r} {p.stderr!r}")
        # Another program that takes the extension's name is not heard.
        impostor = start(["/usr/bin/python3", "-c", IMPOSTOR], env=env)
        wait_for("the impostor on the bus", lambda: g.has_name("org.usageshell.Focus"))
        p = run([BIN, "record", "--once", "--backend", "gnome"], env=env, text=True)
        check(p.returncode == 1 and p.stderr.startswith("usage-shell record: --backend gnome: org.usageshell.Focus is owned by another program than GNOME Shell (:")
              and p.stderr.endswith("): it is not the usage-shell extension\n"), f"gnome: an impostor's name: {p.returncode} {p.stderr!r}")
        stop(impostor)
        wait_for("the impostor gone", lambda: not g.has_name("org.usageshell.Focus"))

        # record --enable enables the extension with the unit, or neither (systemctl is the test's own).
        fake = tmp + "/gnome-fake-bin"
        os.makedirs(fake)
        with open(fake + "/systemctl", "w") as f:
            f.write('#!/bin/sh\n[ "$FAIL" = 1 ] && { echo "Failed to enable unit: the test says no" >&2; exit 1; }\nexit 0\n')
        os.chmod(fake + "/systemctl", 0o755)
        with_fake = dict(env, PATH=fake + ":" + env["PATH"])
        p = run([BIN, "record", "--enable"], env=dict(with_fake, FAIL="1"), text=True)
        check(p.returncode == 1 and p.stdout == "" and p.stderr == "usage-shell record: systemctl --user enable usage-shell-record.service failed "
              "(Failed to enable unit: the test says no): nothing was changed (the GNOME Shell extension was disabled again)\n",
              f"gnome: --enable whose unit fails: {p.returncode} {p.stdout!r} {p.stderr!r}")
        time.sleep(1)
        check(not g.has_name("org.usageshell.Focus"), "gnome: --enable whose unit failed left the extension enabled")
        enabled = f"enabled the usage-shell GNOME Shell extension ({UUID}): GNOME Shell tells the recorder which app has the focus\n"
        # Then the browsers' native-messaging hosts, installed per user (issue 53).
        config = with_fake.get("XDG_CONFIG_HOME") or with_fake["HOME"] + "/.config"
        hosts = (f"chromium's native-messaging host: {config}/chromium/NativeMessagingHosts/usage_shell.json\n"
                 f"chrome's native-messaging host: {config}/google-chrome/NativeMessagingHosts/usage_shell.json\n"
                 f"firefox's native-messaging host: {with_fake['HOME']}/.mozilla/native-messaging-hosts/usage_shell.json\n")
        p = run([BIN, "record", "--enable"], env=with_fake, text=True)
        check(p.returncode == 0 and p.stdout.startswith("enabled usage-shell-record.service: it starts with every session that starts graphical-session.target")
              and p.stdout.endswith(enabled + hosts) and p.stderr == "", f"gnome: --enable: {p.returncode} {p.stdout!r} {p.stderr!r}")
        wait_for("the extension back on the bus", lambda: g.has_name("org.usageshell.Focus"))
        p = run([BIN, "record", "--enable"], env=with_fake, text=True)
        check(p.returncode == 0 and p.stdout.endswith(f"the usage-shell GNOME Shell extension ({UUID}) is enabled already\n" + hosts),
              f"gnome: --enable again: {p.returncode} {p.stdout!r} {p.stderr!r}")
        print("ok: gnome: --once, the extension disabled and enabled again by record --enable, an impostor refused, no titles stored", flush=True)

        # The ES-module edition (GNOME Shell 45 and later) run in this real shell: the 43 edition
        # disabled, the module imported by the test driver as GNOME Shell 45 would, with 45's
        # Extension base class (which 43 has not) stubbed: its import is the one line changed.
        run(["gnome-extensions", "disable", UUID], env=env)
        wait_for("the extension to leave the bus", lambda: not g.has_name("org.usageshell.Focus"))
        modern = tmp + "/gnome-45/" + UUID
        os.makedirs(modern)
        with open(ROOT + "/Resources/gnome-shell-45/" + UUID + "/extension.js") as f:
            source = f.read()
        base = "import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';"
        check(source.count(base) == 1 and "imports." not in source, "gnome 45: the module imports GNOME Shell's Extension once, and nothing the legacy way")
        with open(modern + "/extension.js", "w") as f:
            f.write(source.replace(base, "import {Extension} from './extension-base.js';"))
        with open(modern + "/extension-base.js", "w") as f:
            f.write(EXTENSION_BASE)
        shutil.copy(ROOT + "/Resources/gnome-shell-45/" + UUID + "/metadata.json", modern)
        loaded = g.test("LoadModule", modern + "/extension.js")
        check(loaded == "ok dbus.String('ok')", f"gnome 45: the module did not load: {loaded}")
        wait_for("the module's name on the bus", lambda: g.has_name("org.usageshell.Focus"))
        db = tmp + "/gnome-45.sqlite"
        want, _ = scenario("gnome 45", g.focus, g.move, db, env)
        expect_sessions("gnome 45 (the ES module): A 3 s, B 2 s, idle, A 2 s", named(db), want)
        g.test("UnloadModule")
        wait_for("the module to leave the bus", lambda: not g.has_name("org.usageshell.Focus"))
        run(["gnome-extensions", "enable", UUID], env=env)
        wait_for("the extension back on the bus", lambda: g.has_name("org.usageshell.Focus"))
        print("ok: gnome: the ES-module edition for GNOME Shell 45 and later records in this shell", flush=True)

        # User extensions turned off (GNOME's own switch): record --enable refuses and changes
        # nothing, rather than turning them on behind the user's back.
        run(["gsettings", "set", "org.gnome.shell", "disable-user-extensions", "true"], env=env)
        wait_for("the extension to leave the bus", lambda: not g.has_name("org.usageshell.Focus"))
        p = run([BIN, "record", "--enable"], env=with_fake, text=True)
        check(p.returncode == 1 and p.stdout == "" and p.stderr == "usage-shell record: GNOME has user extensions turned off, so the usage-shell extension "
              "cannot run: turn them on (the Extensions app, or gsettings set org.gnome.shell disable-user-extensions false) and run usage-shell "
              "record --enable again; nothing was changed\n", f"gnome: --enable with user extensions off: {p.returncode} {p.stdout!r} {p.stderr!r}")
        run(["gsettings", "set", "org.gnome.shell", "disable-user-extensions", "false"], env=env)
        wait_for("the extension back on the bus", lambda: g.has_name("org.usageshell.Focus"))
        print("ok: gnome: record --enable with user extensions turned off refuses, changing nothing", flush=True)
    finally:
        g.close()
