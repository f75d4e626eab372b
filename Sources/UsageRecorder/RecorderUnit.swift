// RecorderUnit.swift — the systemd user unit and the sessions that never start it: which session the environment is (i3, sway, openbox, another), the one line its config needs to start the unit (the display handed to the user manager first), what `record --once` says when no unit runs, and `record --enable`: that line written and the unit enabled, or neither (the file put back when `systemctl --user enable` fails). Pure: files and systemctl are the caller's.

/// A desktop session, as far as starting the recorder's unit goes.
public enum SessionKind: String, Sendable, Equatable {
    /// i3 and sway start no systemd target: their config's `exec` starts the unit.
    case i3, sway
    /// Openbox starts no target either: its `autostart` script does.
    case openbox
    /// Another session: GNOME and KDE start `graphical-session.target`, which the unit is wanted by.
    case other

    /// The session the environment tells (the backend chosen, when one was, settles i3 and sway).
    public static func of(_ environment: [String: String], backend: BackendKind? = nil) -> SessionKind {
        func has(_ key: String) -> Bool { !(environment[key] ?? "").isEmpty }
        if backend == .sway || has("SWAYSOCK") { return .sway }
        if backend == .i3 || has("I3SOCK") { return .i3 }
        let names = ["XDG_CURRENT_DESKTOP", "XDG_SESSION_DESKTOP", "DESKTOP_SESSION"].compactMap { environment[$0]?.lowercased() }
        if names.contains(where: { $0.contains("openbox") }) { return .openbox }
        return .other
    }
}

/// The line a session's config needs, and where it goes.
public struct SessionLine: Sendable, Equatable {
    /// The config file (under `XDG_CONFIG_HOME`), or nil for a session that needs none.
    public let file: String?
    /// What to write there (or, for another session, the commands that start the unit).
    public let line: String

    public init(file: String?, line: String) {
        self.file = file
        self.line = line
    }
}

/// The recorder's systemd user unit.
public enum RecorderUnit {
    public static let name = "usage-shell-record.service"

    /// What starts the unit with `session`: the variables the recorder reads handed to the user
    /// manager, then the unit started. i3 and sway run an `exec` line through /bin/sh; openbox's
    /// autostart is a shell script (the line runs in the background there).
    public static func line(for session: SessionKind, environment: [String: String]) -> SessionLine {
        let config = configHome(environment)
        let start = "systemctl --user start \(name)"
        switch session {
        case .i3:
            return SessionLine(
                file: config + "/i3/config",
                line: "exec --no-startup-id systemctl --user import-environment DISPLAY I3SOCK XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)")
        case .sway:
            return SessionLine(
                file: config + "/sway/config",
                line: "exec systemctl --user import-environment WAYLAND_DISPLAY SWAYSOCK DISPLAY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)")
        case .openbox:
            return SessionLine(
                file: config + "/openbox/autostart",
                line: "(systemctl --user import-environment DISPLAY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)) &")
        case .other:
            return SessionLine(file: nil, line: "systemctl --user import-environment DISPLAY WAYLAND_DISPLAY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)")
        }
    }

    /// What `record --once` adds when no unit runs: how to make one run with every session.
    public static func onceNotes(_ session: SessionKind, environment: [String: String], clean: (String) -> String) -> [String] {
        let line = line(for: session, environment: environment)
        guard let file = line.file else {
            return [
                "note: no \(name) runs; systemctl --user enable --now \(name) starts it with every session that starts graphical-session.target (GNOME, KDE); "
                    + "one that does not needs, at each login: " + line.line
            ]
        }
        return [
            "note: no \(name) runs; \(session.rawValue) starts no graphical-session.target, so \(clean(file)) needs this line "
                + "(usage-shell record --enable writes it and enables the unit):",
            "  " + line.line,
        ]
    }

    /// A config file's text with `line` added (after a comment saying who added it, and a newline
    /// if the text lacked its last one); nil when the text has the line already.
    public static func adding(_ line: String, to text: String) -> String? {
        guard !text.split(separator: "\n", omittingEmptySubsequences: false).contains(Substring(line)) else { return nil }
        let start = text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
        return start + "# usage-shell record --enable: the desktop recorder's unit started with the session\n" + line + "\n"
    }

    /// `record --enable`: for a session that starts no target, its line written into its config
    /// file; then `systemctl --user enable`. When that fails, the file is put back as it was (or
    /// removed, when it was not there) and the failure said: never half a set-up. Returns the
    /// lines to print.
    ///
    /// - Parameters:
    ///   - read: the file's text, nil when it is not there.
    ///   - write: writes the file (its folder made), or removes it (nil); false when it could not.
    ///   - systemctl: runs `systemctl --user ARGS`: its status and what it said on stderr.
    public static func enable(
        _ session: SessionKind, environment: [String: String], read: (String) -> String?, write: (String, String?) -> Bool,
        systemctl: ([String]) -> (status: Int32, message: String)
    ) throws(UnitSetUpError) -> [String] {
        let needed = line(for: session, environment: environment)
        var said: [String] = []
        var written: (file: String, before: String?)?
        if let file = needed.file {
            let before = read(file)
            if let after = adding(needed.line, to: before ?? "") {
                guard write(file, after) else { throw .cannotWrite(file) }
                written = (file, before)
                said.append("added to \(file): \(needed.line)")
            } else {
                said.append("\(file) starts the unit already")
            }
        }
        let enabled = systemctl(["enable", name])
        guard enabled.status == 0 else {
            if let written, !write(written.file, written.before) { throw .enableFailedAndNotPutBack(enabled.message, file: written.file) }
            throw .enableFailed(enabled.message, putBack: written?.file)
        }
        said.append(
            needed.file == nil
                ? "enabled \(name): it starts with every session that starts graphical-session.target (GNOME, KDE); another needs, at each login: \(needed.line)"
                : "enabled \(name): it starts with the next \(session.rawValue) session; to start it in this one: \(needed.line)")
        return said
    }

    /// `XDG_CONFIG_HOME`, else `~/.config`.
    static func configHome(_ environment: [String: String]) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config }
        return (environment["HOME"] ?? "~") + "/.config"
    }
}

/// Why `record --enable` set nothing up.
public enum UnitSetUpError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The session's config file could not be written (nothing was changed).
    case cannotWrite(String)
    /// `systemctl --user enable` failed (what it said); the config file written first was put back.
    case enableFailed(String, putBack: String?)
    /// It failed, and the config file could not be put back either (it says so: the user must).
    case enableFailedAndNotPutBack(String, file: String)

    public var description: String {
        switch self {
        case .cannotWrite(let file): return "cannot write \(file); nothing was changed"
        case .enableFailed(let message, let file):
            let back = file.map { "; \($0) is as it was" } ?? ""
            return "systemctl --user enable \(RecorderUnit.name) failed (\(message.isEmpty ? "no reason given" : message))\(back): nothing was changed"
        case .enableFailedAndNotPutBack(let message, let file):
            return "systemctl --user enable \(RecorderUnit.name) failed (\(message)), and \(file) could not be put back: remove the line usage-shell record --enable added"
        }
    }
}
