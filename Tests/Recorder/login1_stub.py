#!/usr/bin/python3
# login1_stub.py — a small org.freedesktop.login1 for the lock tests (python3-dbus), on the bus at argv[1]: Manager.GetSession, GetSessionByPID and GetUser, one Session object with LockedHint (SetLockedHint as the desktop calls it, each call's value and instant printed as `LockedHint true|false TIME`; PropertiesChanged as logind emits it), its Lock/Unlock signals on demand, and a User object with its Display session. Run by Tests/Recorder/lock_cases.py, kde_cases.py (KDE's screen locker) and the Swift LockWatch tests.
# Usage: login1_stub.py ADDRESS [MODE…]
#   pid          GetSessionByPID answers the session for every PID (else NoSessionForPID, as for a
#                process outside any session, like a systemd user service)
#   display      the user's Display is the session (else none: ("", "/"))
#   locked       LockedHint is true at the start
#                (and GetSession("auto"), the caller's session, as KDE's screen locker asks)
# Test-only: Session.Invalidate(b) sets LockedHint and emits PropertiesChanged with LockedHint in
# the invalidated list (as a service may), not its value; Session.Emit(s) sends the session's
# Lock or Unlock signal (what `loginctl lock-session` / `unlock-session` make logind send, which
# KDE's screen locker obeys).
import sys
import time

import dbus
import dbus.lowlevel
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
MODES = set(sys.argv[2:])
SESSION_ID = "c1"
SESSION_PATH = "/org/freedesktop/login1/session/c1"
USER_PATH = "/org/freedesktop/login1/user/_1000"
SESSION = "org.freedesktop.login1.Session"
PROPERTIES = "org.freedesktop.DBus.Properties"


class NoSuchSession(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.login1.NoSuchSession"


class NoSessionForPID(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.login1.NoSessionForPID"


class UnknownProperty(dbus.DBusException):
    _dbus_error_name = "org.freedesktop.DBus.Error.UnknownProperty"


class Manager(dbus.service.Object):
    @dbus.service.method("org.freedesktop.login1.Manager", in_signature="s", out_signature="o")
    def GetSession(self, id):
        if id != SESSION_ID and not (id == "auto" and "pid" in MODES):
            raise NoSuchSession(f"No session '{id}' known")
        return dbus.ObjectPath(SESSION_PATH)

    @dbus.service.method("org.freedesktop.login1.Manager", in_signature="u", out_signature="o")
    def GetSessionByPID(self, pid):
        if "pid" not in MODES:
            raise NoSessionForPID(f"PID {pid} does not belong to any known session")
        return dbus.ObjectPath(SESSION_PATH)

    @dbus.service.method("org.freedesktop.login1.Manager", in_signature="u", out_signature="o")
    def GetUser(self, uid):
        return dbus.ObjectPath(USER_PATH)


class Session(dbus.service.Object):
    locked = "locked" in MODES

    def properties(self):
        return {"Id": dbus.String(SESSION_ID), "LockedHint": dbus.Boolean(Session.locked), "Active": dbus.Boolean(True), "Class": dbus.String("user")}

    @dbus.service.method(SESSION, in_signature="b")
    def SetLockedHint(self, locked):
        Session.locked = bool(locked)
        print(f"LockedHint {'true' if locked else 'false'} {time.time()!r}", flush=True)  # the instant the desktop said it
        self.PropertiesChanged(SESSION, {"LockedHint": dbus.Boolean(Session.locked)}, dbus.Array([], signature="s"))

    @dbus.service.method(SESSION, in_signature="b")
    def Invalidate(self, locked):
        Session.locked = bool(locked)
        self.PropertiesChanged(SESSION, dbus.Dictionary({}, signature="sv"), ["LockedHint"])

    @dbus.service.method(SESSION, in_signature="s")
    def Emit(self, member):
        if member not in ("Lock", "Unlock"):
            raise dbus.DBusException("Emit takes Lock or Unlock")
        bus.send_message(dbus.lowlevel.SignalMessage(SESSION_PATH, SESSION, str(member)))

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if interface != SESSION or name not in self.properties():
            raise UnknownProperty(f"no property {interface}.{name}")
        return self.properties()[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.properties() if interface == SESSION else {}

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class User(dbus.service.Object):
    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        if (interface, name) != ("org.freedesktop.login1.User", "Display"):
            raise UnknownProperty(f"no property {interface}.{name}")
        display = (SESSION_ID, SESSION_PATH) if "display" in MODES else ("", "/")
        return dbus.Struct((dbus.String(display[0]), dbus.ObjectPath(display[1])), signature="so")


bus = dbus.bus.BusConnection(sys.argv[1])
name = dbus.service.BusName("org.freedesktop.login1", bus)
Manager(bus, "/org/freedesktop/login1")
Session(bus, SESSION_PATH)
User(bus, USER_PATH)
print("ready", flush=True)
GLib.MainLoop().run()
