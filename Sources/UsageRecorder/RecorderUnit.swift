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
    /// The files of the user's own the session reads its config from, in the order it looks for
    /// them (the first that is there is the one it reads); `file` first for openbox.
    public let searched: [String]
    /// Whether a config of the user's own may be made when there is none: openbox runs the
    /// user's autostart beside the system's; i3 and sway read a user's config *instead of* the
    /// system's, so one made with only this line would leave a session without its key bindings.
    public let mayMake: Bool
    /// The system's config the session reads when the user has none (said when there is none).
    public let system: String?

    public init(file: String?, line: String, searched: [String] = [], mayMake: Bool = false, system: String? = nil) {
        self.file = file
        self.line = line
        self.searched = searched
        self.mayMake = mayMake
        self.system = system
    }
}

/// A config file as `record --enable` finds it.
public enum ConfigText: Sendable, Equatable {
    case absent
    case text(String)
    /// There, but no text it may rewrite (not UTF-8, not a file, not readable): why.
    case unreadable(String)
}

/// The recorder's systemd user unit.
public enum RecorderUnit {
    public static let name = "usage-shell-record.service"

    /// What starts the unit with `session`: the variables the recorder reads handed to the user
    /// manager, then the unit started. i3 and sway run an `exec` line through /bin/sh; openbox's
    /// autostart is a shell script (the line runs in the background there).
    public static func line(for session: SessionKind, environment: [String: String]) -> SessionLine {
        let config = configHome(environment)
        let home = environment["HOME"] ?? "~"
        let start = "systemctl --user start \(name)"
        switch session {
        case .i3:
            // i3 reads the first of these, then /etc/xdg/i3/config, then /etc/i3/config.
            return SessionLine(
                file: config + "/i3/config",
                line: "exec --no-startup-id systemctl --user import-environment DISPLAY XAUTHORITY I3SOCK XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)",
                searched: [config + "/i3/config", home + "/.i3/config"], system: "/etc/i3/config")
        case .sway:
            // sway reads the first of these, then /etc/sway/config.
            return SessionLine(
                file: config + "/sway/config",
                line: "exec systemctl --user import-environment WAYLAND_DISPLAY SWAYSOCK DISPLAY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)",
                searched: [home + "/.sway/config", config + "/sway/config", home + "/.i3/config", config + "/i3/config"], system: "/etc/sway/config")
        case .openbox:
            return SessionLine(
                file: config + "/openbox/autostart",
                line: "(systemctl --user import-environment DISPLAY XAUTHORITY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)) &",
                searched: [config + "/openbox/autostart"], mayMake: true)
        case .other:
            return SessionLine(
                file: nil, line: "systemctl --user import-environment DISPLAY XAUTHORITY WAYLAND_DISPLAY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)")
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

    /// `record --enable`: for a session that starts no target, its line written into the config
    /// file the session reads (the first of `searched` that is there; a new one only where the
    /// session also reads the system's); then `systemctl --user enable`. When that fails, the
    /// file is put back as it was (or removed, when it was made) and the failure said: never
    /// half a set-up. A config it cannot read as text, or a session whose only config is the
    /// system's, changes nothing and is told the line to add. Returns the lines to print.
    ///
    /// - Parameters:
    ///   - read: the file as it is (its link followed by the caller).
    ///   - write: writes the file (its folder made), or removes it (nil); false when it could not.
    ///   - systemctl: runs `systemctl --user ARGS`: its status and what it said on stderr.
    public static func enable(
        _ session: SessionKind, environment: [String: String], read: (String) -> ConfigText, write: (String, String?) -> Bool,
        systemctl: ([String]) -> (status: Int32, message: String)
    ) throws(UnitSetUpError) -> [String] {
        let needed = line(for: session, environment: environment)
        var said: [String] = []
        var written: (file: String, before: String?)?
        if let defaultFile = needed.file {
            var found: (file: String, text: String)?
            for file in needed.searched {
                switch read(file) {
                case .absent: continue
                case .unreadable(let reason): throw .unreadable(file, reason: reason, line: needed.line)
                case .text(let text): found = (file, text)
                }
                break
            }
            if found == nil, !needed.mayMake {
                throw .noConfigOfYourOwn(session.rawValue, file: defaultFile, system: needed.system ?? "", line: needed.line)
            }
            let file = found?.file ?? defaultFile
            if let after = adding(needed.line, to: found?.text ?? "") {
                guard write(file, after) else { throw .cannotWrite(file) }
                written = (file, found?.text)
                said.append("added to \(file): \(needed.line)")
            } else {
                said.append("\(file) starts the unit already")
            }
        }
        let enabled = systemctl(["enable", name])
        guard enabled.status == 0 else {
            if let written, !write(written.file, written.before) { throw .enableFailedAndNotPutBack(enabled.message, file: written.file) }
            throw .enableFailed(enabled.message, putBack: written.map { ($0.file, made: $0.before == nil) })
        }
        said.append(
            needed.file == nil
                ? "enabled \(name): it starts with every session that starts graphical-session.target (GNOME, KDE); another needs, at each login: \(needed.line)"
                : "enabled \(name): it starts with the next \(session.rawValue) session; to start it in this one, run: "
                    + needed.line.replacingOccurrences(of: "exec --no-startup-id ", with: "").replacingOccurrences(of: "exec ", with: ""))
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
    /// The config file is there but no text it may rewrite (nothing was changed): why, and the line.
    case unreadable(String, reason: String, line: String)
    /// i3 or sway reads only the system's config: one of the user's own with this line alone
    /// would take its place (nothing was changed).
    case noConfigOfYourOwn(String, file: String, system: String, line: String)
    /// `systemctl --user enable` failed (what it said); the config file written first was put
    /// back (or removed again, when it was made).
    case enableFailed(String, putBack: (file: String, made: Bool)?)
    /// It failed, and the config file could not be put back either (it says so: the user must).
    case enableFailedAndNotPutBack(String, file: String)

    public static func == (a: UnitSetUpError, b: UnitSetUpError) -> Bool { a.description == b.description }

    public var description: String {
        switch self {
        case .cannotWrite(let file): return "cannot write \(file); nothing was changed"
        case .unreadable(let file, let reason, let line):
            return "cannot rewrite \(file) (\(reason)); nothing was changed: add this line to it yourself: \(line)"
        case .noConfigOfYourOwn(let session, let file, let system, let line):
            return "\(session) reads no config of yours but \(system): a \(file) with one line would take its place; "
                + "copy it there first (cp \(system) \(file)) and run usage-shell record --enable again, or add this line to the config it reads: \(line); "
                + "nothing was changed"
        case .enableFailed(let message, let back):
            let file = back.map { $0.made ? "; \($0.file), which it made, is gone again" : "; \($0.file) is as it was" } ?? ""
            return "systemctl --user enable \(RecorderUnit.name) failed (\(message.isEmpty ? "no reason given" : message))\(file): nothing was changed"
        case .enableFailedAndNotPutBack(let message, let file):
            return "systemctl --user enable \(RecorderUnit.name) failed (\(message)), and \(file) could not be put back: remove the line usage-shell record --enable added"
        }
    }
}
