#!/usr/bin/python3
# kwin6_standin.py — KWin 6 as far as `record --backend kde` speaks to it, on the bus at argv[1]: org.kde.KWin with /Scripting's loadScript, unloadScript and isScriptLoaded, each loaded script's object at /Scripting/ScriptN (KWin 6's path; KWin 5's /N is not there) whose run() runs the script under node with KWin 6's scripting names (kwin6_host.js), its callDBus calls made on the bus; /Test's org.usageshell.KWin6.Activate(s class, s pid) makes a window active (Activate("", "") none). Prints "ready". Run by Tests/Recorder/kde_cases.py: Debian 12 has KWin 5.27 only.
import json
import os
import subprocess
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.bus.BusConnection(sys.argv[1])
HOST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kwin6_host.js")
scripts = {}  # name -> Script
hosts = []  # the running scripts' node processes


class Script(dbus.service.Object):
    def __init__(self, number, path):
        super().__init__(bus, f"/Scripting/Script{number}")
        self.path = path
        self.host = None

    @dbus.service.method("org.kde.kwin.Script")
    def run(self):
        self.host = subprocess.Popen(["node", HOST, self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        hosts.append(self.host)
        GLib.io_add_watch(self.host.stdout, GLib.IO_IN | GLib.IO_HUP, self.called)

    @dbus.service.method("org.kde.kwin.Script")
    def stop(self):
        self.end()

    def end(self):
        if self.host and self.host.poll() is None:
            self.host.kill()
            self.host.wait()
            hosts.remove(self.host)
        self.host = None
        self.remove_from_connection()

    def called(self, source, condition):
        line = source.readline()
        if not line:
            return False
        service, path, interface, method, *args = json.loads(line)
        bus.call_async(service, path, interface, method, "s" * len(args), args, None, lambda e: print("callDBus failed:", e, file=sys.stderr))
        return True


class Scripting(dbus.service.Object):
    count = 0

    @dbus.service.method("org.kde.kwin.Scripting", in_signature="ss", out_signature="i")
    def loadScript(self, path, name):
        if name in scripts:
            return -1
        number = Scripting.count
        Scripting.count += 1
        scripts[name] = Script(number, path)
        return number

    @dbus.service.method("org.kde.kwin.Scripting", in_signature="s", out_signature="b")
    def unloadScript(self, name):
        script = scripts.pop(name, None)
        if script:
            script.end()
        return script is not None

    @dbus.service.method("org.kde.kwin.Scripting", in_signature="s", out_signature="b")
    def isScriptLoaded(self, name):
        return name in scripts


class Test(dbus.service.Object):
    @dbus.service.method("org.usageshell.KWin6", in_signature="ss")
    def Activate(self, cls, pid):
        for host in hosts:
            host.stdin.write(f"activate {cls} {pid}\n" if cls else "none\n")
            host.stdin.flush()


name = dbus.service.BusName("org.kde.KWin", bus)
Scripting(bus, "/Scripting")
Test(bus, "/Test")
print("ready", flush=True)
GLib.MainLoop().run()
