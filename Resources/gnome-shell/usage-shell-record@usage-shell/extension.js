// extension.js — Usage Shell's GNOME Shell extension for GNOME Shell 43 and 44 (the legacy module format), made by scripts/gen-gnome-extension from Resources/gnome-shell-45/'s ES-module edition (edit that one): owns org.usageshell.Focus on the session bus, answers Current() with the focused app and emits FocusChanged(app) when it changes; the app is Shell.WindowTracker's focus app id (".desktop" dropped), else the window's GTK application id, else its WM class — never a title.
/* exported init */
'use strict';

const { GLib, Gio, Shell } = imports.gi;

const BUS_NAME = 'org.usageshell.Focus';
const OBJECT_PATH = '/org/usageshell/Focus';
const INTERFACE = `
<node>
  <interface name="org.usageshell.Focus">
    <method name="Current">
      <arg type="s" direction="out" name="app"/>
    </method>
    <signal name="FocusChanged">
      <arg type="s" name="app"/>
    </signal>
    <property name="Version" type="u" access="read"/>
  </interface>
</node>`;

/** The app of `window`: its tracked app's id, else its GTK application id, else its WM class ('' when none). */
function appOf(window) {
    if (!window)
        return '';
    const app = Shell.WindowTracker.get_default().get_window_app(window);
    const id = app ? app.get_id() : null;
    // A window no .desktop file claims gets an id of "window:N": not a name, so the next ones are tried.
    if (id && !id.startsWith('window:'))
        return id.endsWith('.desktop') ? id.slice(0, -'.desktop'.length) : id;
    return window.get_gtk_application_id() || window.get_wm_class() || '';
}

class UsageShellFocus {
    enable() {
        this._app = '';
        this._dbus = Gio.DBusExportedObject.wrapJSObject(INTERFACE, this);
        this._dbus.export(Gio.DBus.session, OBJECT_PATH);
        this._owner = Gio.bus_own_name_on_connection(Gio.DBus.session, BUS_NAME, Gio.BusNameOwnerFlags.NONE, null, null);
        this._focusHandler = global.display.connect('notify::focus-window', () => this._update());
        this._app = appOf(global.display.focus_window);
    }

    disable() {
        if (this._focusHandler)
            global.display.disconnect(this._focusHandler);
        this._focusHandler = 0;
        if (this._owner)
            Gio.bus_unown_name(this._owner);
        this._owner = 0;
        if (this._dbus)
            this._dbus.unexport();
        this._dbus = null;
    }

    _update() {
        const app = appOf(global.display.focus_window);
        if (app === this._app)
            return;
        this._app = app;
        this._dbus.emit_signal('FocusChanged', new GLib.Variant('(s)', [app]));
    }

    Current() {
        return appOf(global.display.focus_window);
    }

    get Version() {
        return 1;
    }
}

function init() {
    return new UsageShellFocus();
}
