// extension.js — the GNOME test's driver (never installed for users): org.usageshell.Test on the session bus hides the overview the shell starts in, activates a window by its WM class, GTK application id or app id, moves the pointer through a virtual input device (input that ends idle as a person's would), and locks or unlocks the screen.
/* exported init */
'use strict';

const { Gio, Clutter, Shell } = imports.gi;
const Main = imports.ui.main;

const INTERFACE = `
<node>
  <interface name="org.usageshell.Test">
    <method name="HideOverview">
      <arg type="b" direction="out" name="hidden"/>
    </method>
    <method name="Activate">
      <arg type="s" direction="in" name="app"/>
      <arg type="b" direction="out" name="found"/>
    </method>
    <method name="MovePointer"/>
    <method name="Lock"/>
    <method name="Unlock"/>
    <method name="Locked">
      <arg type="b" direction="out" name="locked"/>
    </method>
  </interface>
</node>`;

class TestDriver {
    enable() {
        this._dbus = Gio.DBusExportedObject.wrapJSObject(INTERFACE, this);
        this._dbus.export(Gio.DBus.session, '/org/usageshell/Test');
        this._owner = Gio.bus_own_name_on_connection(Gio.DBus.session, 'org.usageshell.Test', Gio.BusNameOwnerFlags.NONE, null, null);
        const seat = Clutter.get_default_backend().get_default_seat();
        this._pointer = seat.create_virtual_device(Clutter.InputDeviceType.POINTER_DEVICE);
    }

    disable() {
        Gio.bus_unown_name(this._owner);
        this._dbus.unexport();
        this._pointer = null;
    }

    /** Hides the overview once the shell's start is over (it shows the overview as its start ends); true when hidden then. */
    HideOverview() {
        if (Main.layoutManager._startingUp)
            return false;
        Main.overview.hide();
        return !Main.overview.visible;
    }

    Activate(app) {
        const tracker = Shell.WindowTracker.get_default();
        const named = w => [w.get_wm_class(), w.get_gtk_application_id(), tracker.get_window_app(w)?.get_id()];
        const window = global.display.list_all_windows().find(w => named(w).includes(app));
        if (!window)
            return false;
        Main.activateWindow(window);
        return true;
    }

    MovePointer() {
        this._pointer.notify_relative_motion(global.get_current_time() * 1000, 3, 2);
    }

    Lock() {
        Main.screenShield.lock(false);
    }

    Unlock() {
        Main.screenShield.deactivate(false);
    }

    Locked() {
        return Main.screenShield.locked;
    }
}

function init() {
    return new TestDriver();
}
