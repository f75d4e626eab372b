// RecorderError.swift — why the recorder cannot run, each said in one line: no display, no backend that can read the desktop (each one's reason kept), missing X libraries or window manager, an IPC socket that fails, D-Bus (libsystemd missing, a bus, a call), a recorder already running, the store.
import UsageStore

/// Why `usage-shell record` stops or cannot start; one line each.
public enum RecorderError: Error, Equatable, CustomStringConvertible {
    case noDisplay
    /// No backend opened: each one's verdict, and the one this desktop most likely wants.
    case noBackend([BackendVerdict], likely: BackendKind)
    case noX11Library(reason: String)
    case cannotOpenDisplay(String)
    case noWindowManager(display: String)
    case noSocket(BackendKind)
    case ipc(socket: String, reason: String)
    case notThatBackend(BackendKind, reason: String)
    case alreadyRunning(pid: Int, device: String, store: String)
    case lock(path: String, reason: String)
    case store(StoreError)
    /// libsystemd (its sd-bus, the D-Bus client) cannot be loaded.
    case dbusLibrary(reason: String)
    /// A bus cannot be reached (`bus` in words: "the session bus").
    case dbusConnect(bus: String, reason: String)
    /// A D-Bus method call failed: the error reply's name and text (name empty: no reply came, or
    /// the call could not be made, and `message` says why).
    case dbusCall(method: String, name: String, message: String)
    /// Another D-Bus failure: a match rule, a name, an object, the connection lost.
    case dbus(what: String, reason: String)
    /// The desktop went away (the window manager shut down, the X server closed): a clean end.
    case desktopEnded(String)

    public var description: String {
        switch self {
        case .noDisplay:
            return "no display: DISPLAY and WAYLAND_DISPLAY are unset (run it in your desktop session; under systemd, the session must export them: see the README)"
        case .noBackend(let verdicts, let likely):
            let reason = verdicts.first { $0.kind == likely }?.reason ?? verdicts.last?.reason ?? "none tried"
            return "no backend can read this desktop: \(likely.rawValue): \(reason) (usage-shell record --once lists every backend's verdict)"
        case .noX11Library(let reason):
            return "the X11 backend needs libX11 (Debian: apt-get install libx11-6 libxext6 libxss1): \(reason)"
        case .cannotOpenDisplay(let name):
            return "cannot open the X display \(name.isEmpty ? "(DISPLAY)" : name)"
        case .noWindowManager(let display):
            return "the X display \(display) has no EWMH window manager keeping _NET_ACTIVE_WINDOW (start one: openbox, i3, xfwm4, KWin…)"
        case .noSocket(let kind):
            return kind == .sway ? "no sway IPC socket: SWAYSOCK is unset (run it from inside sway)" : "no i3 IPC socket: I3SOCK is unset and the display names none"
        case .ipc(let socket, let reason):
            return "the window manager's IPC socket \(socket): \(reason)"
        case .notThatBackend(let kind, let reason):
            return "--backend \(kind.rawValue): \(reason)"
        case .alreadyRunning(let pid, let device, let store):
            return "a recorder already runs on \(store) for device '\(device)' (PID \(pid))"
        case .lock(let path, let reason):
            return "cannot take the recorder's lock \(path): \(reason)"
        case .store(let error):
            return error.description
        case .dbusLibrary(let reason):
            return "D-Bus needs libsystemd (Debian: apt-get install libsystemd0): " + Self.oneLine(reason)
        case .dbusConnect(let bus, let reason):
            return "cannot connect to \(Self.oneLine(bus)): \(Self.oneLine(reason))"
        case .dbusCall(let method, let name, let message):
            return "D-Bus call \(Self.oneLine(method)): " + Self.oneLine(name.isEmpty ? message : message.isEmpty ? name : name + ": " + message)
        case .dbus(let what, let reason):
            return "D-Bus, \(Self.oneLine(what)): \(Self.oneLine(reason))"
        case .desktopEnded(let what):
            return "the desktop ended (\(what)); the last session is closed"
        }
    }

    /// A peer's text on one line (a D-Bus error's message may hold line breaks).
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
