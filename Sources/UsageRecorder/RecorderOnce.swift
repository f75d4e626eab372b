// RecorderOnce.swift — `record --once`: what the recorder sees now, in lines for a person checking their set-up (the backend, the app in front, the idle time and where it comes from, where the lock comes from, the environment variables it read, every backend's verdict); pure but for the backend's answers.
import UsageCore

/// The lines `record --once` prints.
public enum RecorderOnce {
    /// The variables the backend choice reads.
    public static let variables = ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "XDG_CURRENT_DESKTOP", "XDG_SESSION_TYPE"]

    /// What `backend` sees now (`categoryOf` names the app's category), with `lock`'s lines
    /// (LockWatch.lines); names sanitised by `clean`.
    public static func lines(
        _ backend: any RecorderBackend, verdicts: [BackendVerdict], environment: [String: String], device: String,
        categoryOf: (String) -> String?, lock: [String] = [], clean: (String) -> String
    ) throws(RecorderError) -> [String] {
        let app = try backend.focused()
        let idle = backend.idleMilliseconds()
        let seen = variables.compactMap { key in environment[key].flatMap { $0.isEmpty ? nil : key + "=" + clean($0) } }
        return [
            "backend: \(backend.kind.rawValue)",
            "app: " + (app.map { clean($0) + " (category " + clean(Normalise.category(categoryOf($0))) + ")" } ?? "none (nothing focused)"),
            "idle: " + (idle.map { String(format2: Double($0) / 1000) + " s" } ?? "unknown") + " (from \(backend.idleSourceName))",
        ] + lock.map(clean) + [
            "device: " + clean(device),
            "environment: " + (seen.isEmpty ? "none of " + variables.joined(separator: ", ") : seen.joined(separator: " ")),
        ] + backend.startWarnings.map { "note: " + $0 } + ["backends, in the order tried:"] + verdictLines(verdicts, chosen: backend.kind, clean: clean)
    }

    /// Each backend's verdict on a line of its own: `gnome: records`, `x11: opens too (gnome comes first)`, or why it cannot.
    public static func verdictLines(_ verdicts: [BackendVerdict], chosen: BackendKind?, clean: (String) -> String) -> [String] {
        verdicts.map { verdict in
            let said: String
            if let reason = verdict.reason {
                said = clean(reason)
            } else if verdict.kind == chosen {
                said = "records"
            } else {
                said = "opens too (\(chosen.map { $0.rawValue + " is chosen" } ?? "not chosen"))"
            }
            return "  \(verdict.kind.rawValue): " + said
        }
    }
}

extension String {
    /// A number with one decimal (no Foundation formatter: the recorder keeps ICU out).
    init(format2 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }
}
