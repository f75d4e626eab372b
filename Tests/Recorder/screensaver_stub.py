#!/usr/bin/python3
# screensaver_stub.py — a screen saver's D-Bus face for the lock tests (python3-dbus), on the bus at argv[1] under the name argv[2] (org.freedesktop.ScreenSaver, org.gnome.ScreenSaver…): GetActive, and ActiveChanged(b) emitted when the test calls SetActive, as KDE's and GNOME's lock screens emit it. Run by Tests/Recorder/lock_cases.py and the Swift LockWatch tests.
# Usage: screensaver_stub.py ADDRESS NAME [active]
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
NAME = sys.argv[2]


class Saver(dbus.service.Object):
    active = "active" in sys.argv[3:]

    @dbus.service.method(NAME, out_signature="b")
    def GetActive(self):
        return Saver.active

    @dbus.service.method(NAME, in_signature="b")
    def SetActive(self, on):
        Saver.active = bool(on)
        self.ActiveChanged(Saver.active)

    @dbus.service.signal(NAME, signature="b")
    def ActiveChanged(self, active):
        pass


bus = dbus.bus.BusConnection(sys.argv[1])
name = dbus.service.BusName(NAME, bus)
Saver(bus, "/" + NAME.replace(".", "/"))
print("ready", flush=True)
GLib.MainLoop().run()
