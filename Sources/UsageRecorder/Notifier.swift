// Notifier.swift — a crossed limit said: a desktop notification through the freedesktop notification service (notify-send, when a session bus is there) and the user's own command (`--on-limit`, given the limit in environment variables, never in its text); both run as children, reaped without waiting, stopped after 10 s.
#if canImport(Glibc)
    import Glibc
#endif
import UsageCore
import UsageRender

/// Says crossed limits.
public final class Notifier {
    private let command: String?
    private let desktop: Bool
    private var children: [(child: ChildProcess, started: Micros)] = []
    private let warn: (String) -> Void

    /// `command` runs through /bin/sh at each crossing; `environment` tells whether there is a session bus.
    public init(command: String?, environment: [String: String], warn: @escaping (String) -> Void) {
        self.command = command
        self.warn = warn
        let runtime = environment["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
        desktop = !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty || runtime.map { access($0, F_OK) == 0 } == true
    }

    /// The summary and body of a crossing.
    public static func text(_ limit: UsageLimit, used: Micros) -> (summary: String, body: String) {
        let kind = if case .app = limit.target { "app" } else { "category" }
        return ("Daily limit reached", "\(limit.target.name) (\(kind)): \(amount(used)) today, limit \(amount(limit.micros))")
    }

    /// A time as the shell writes it; under a minute, in seconds.
    static func amount(_ micros: Micros) -> String {
        micros < 60_000_000 ? "\(micros / 1_000_000)s" : TextFormat.duration(micros)
    }

    /// Says that `limit` was crossed (`used` so far today).
    public func crossed(_ limit: UsageLimit, used: Micros, now: Micros) {
        reap(now: now)
        let (summary, body) = Self.text(limit, used: used)
        if desktop {
            // The body is markup to servers that say `body-markup`: & < > as entities.
            let escaped = body.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
            if let child = ChildProcess(["notify-send", "-a", "usage-shell", "--", summary, escaped]) {
                children.append((child, now))
            } else {
                warn("no notify-send (Debian: apt-get install libnotify-bin): limits are said here only")
            }
        }
        if let command {
            let kind = if case .app = limit.target { "app" } else { "category" }
            let extra = [
                "USAGE_SHELL_LIMIT_KIND": kind, "USAGE_SHELL_LIMIT_NAME": limit.target.name,
                "USAGE_SHELL_LIMIT_SECONDS": String(limit.micros / 1_000_000), "USAGE_SHELL_USED_SECONDS": String(used / 1_000_000),
                "USAGE_SHELL_LIMIT_TEXT": body,
            ]
            if let child = ChildProcess(["/bin/sh", "-c", command], extra: extra) {
                children.append((child, now))
            } else {
                warn("cannot run the --on-limit command")
            }
        }
    }

    /// Reaps the children that ended; stops those running for more than 10 s.
    public func reap(now: Micros) {
        children.removeAll { entry in
            if entry.child.reap() { return true }
            if now - entry.started > 10_000_000 {
                entry.child.terminate()
                return true
            }
            return false
        }
    }

    /// Waits for the children still running (a short while), at the recorder's end.
    public func finish() {
        for entry in children { entry.child.terminate() }
        children.removeAll()
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
