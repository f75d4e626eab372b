#!/usr/bin/python3
# gnome_shell_stub.py — GNOME Shell's D-Bus face as `record --enable` reads it when the shell does not know the usage-shell extension (python3-dbus): org.gnome.Shell owned, GetExtensionInfo answering an empty dictionary, ShellVersion argv[2], user extensions on. Run by Tests/Recorder/gnome_install_cases.py.
# Usage: gnome_shell_stub.py ADDRESS VERSION
import sys

import dbus
import dbus.exceptions
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
VERSION = sys.argv[2]


class Shell(dbus.service.Object):
    @dbus.service.method("org.gnome.Shell.Extensions", in_signature="s", out_signature="a{sv}")
    def GetExtensionInfo(self, uuid):
        return dbus.Dictionary({}, signature="sv")  # what GNOME Shell answers for an extension it does not know

    @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
    def Get(self, interface, prop):
        if interface == "org.gnome.Shell" and prop == "ShellVersion":
            return dbus.String(VERSION)
        if interface == "org.gnome.Shell.Extensions" and prop == "UserExtensionsEnabled":
            return dbus.Boolean(True)
        raise dbus.exceptions.DBusException(f"no property {interface}.{prop}", name="org.freedesktop.DBus.Error.UnknownProperty")


bus = dbus.bus.BusConnection(sys.argv[1])
name = dbus.service.BusName("org.gnome.Shell", bus)
Shell(bus, "/org/gnome/Shell")
print("ready", flush=True)
GLib.MainLoop().run()
