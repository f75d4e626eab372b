// extension.js — the GNOME test's driver (never installed for users): org.usageshell.Test on the session bus hides the overview the shell starts in, activates a window by its WM class, GTK application id or app id, moves the pointer through a virtual input device (input that ends idle as a person's would), locks or unlocks the screen, and loads an ES-module extension (GNOME Shell 45's format) into this GNOME Shell 43 to run it on the real shell.
/* exported init */
'use strict';

const { Gio, GLib, Clutter, Shell } = imports.gi;
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
    <method name="LoadModule">
      <arg type="s" direction="in" name="path"/>
      <arg type="s" direction="out" name="outcome"/>
    </method>
    <method name="UnloadModule"/>
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

    /** Imports the ES module at `path` (an extension for GNOME Shell 45 and later), makes its
     * default class with its metadata as GNOME Shell 45 would, and enables it: "ok", or the error. */
    LoadModuleAsync([path], invocation) {
        import(`file://${path}`).then(module => {
            const folder = GLib.path_get_dirname(path);
            const [, json] = GLib.file_get_contents(`${folder}/metadata.json`);
            const metadata = JSON.parse(new TextDecoder().decode(json));
            this._module = new module.default(Object.assign(metadata, {path: folder}));
            this._module.enable();
            invocation.return_value(new GLib.Variant('(s)', ['ok']));
        }).catch(e => invocation.return_value(new GLib.Variant('(s)', [`${e}`])));
    }

    UnloadModule() {
        this._module?.disable();
        this._module = null;
    }
}

function init() {
    return new TestDriver();
}
