// Notifier.swift — a crossed limit said: a desktop notification (org.freedesktop.Notifications.Notify over the session bus, through the D-Bus layer, its reply taken later: the recorder never waits on the notification server) and the user's own command (`--on-limit`, given the limit in environment variables, never in its text; a child reaped without waiting, stopped after 10 s).
#if canImport(Glibc)
    import Glibc
#endif
import UsageCore

/// Says crossed limits.
public final class Notifier {
    private let command: String?
    /// The session bus's address, when there is one (DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus).
    private let sessionBus: String?
    private var bus: DBusConnection?
    private var children: [(child: ChildProcess, started: Micros)] = []
    private let warn: (String) -> Void
    private var warned: Set<String> = []

    /// `command` runs through /bin/sh at each crossing; `environment` tells where the session bus is.
    public init(command: String?, environment: [String: String], warn: @escaping (String) -> Void) {
        self.command = command
        self.warn = warn
        sessionBus = Self.sessionBus(environment)
    }

    /// The session bus's address from the environment, as sd-bus would find it; nil without one.
    static func sessionBus(_ environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, access(runtime + "/bus", F_OK) == 0 else { return nil }
        return "unix:path=" + runtime + "/bus"
    }

    /// What every backend and the lock's watch say when `sessionBus` finds none.
    static let noSessionBus = "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is not there)"

    /// The summary and body of a crossing.
    public static func text(_ limit: UsageLimit, used: Micros) -> (summary: String, body: String) {
        return ("Daily limit reached", "\(limit.target.name) (\(kind(limit))): \(amount(used)) today, limit \(amount(limit.micros))")
    }

    /// What a limit is on: `app`, `category` or `site`.
    static func kind(_ limit: UsageLimit) -> String {
        switch limit.target {
        case .app: return "app"
        case .category: return "category"
        case .site: return "site"
        }
    }

    /// A time as the shell writes it; under a minute, in seconds.
    static func amount(_ micros: Micros) -> String {
        micros < 60_000_000 ? "\(micros / 1_000_000)s" : DurationText.duration(micros)
    }

    /// Says that `limit` was crossed (`used` so far today).
    public func crossed(_ limit: UsageLimit, used: Micros, now: Micros) {
        reap(now: now)
        let (summary, body) = Self.text(limit, used: used)
        if let sessionBus {
            // The body is markup to servers that say `body-markup`: & < > as entities.
            let escaped = body.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
            notify(summary: summary, body: escaped, bus: sessionBus)
        }
        if let command {
            let extra = [
                "USAGE_SHELL_LIMIT_KIND": Self.kind(limit), "USAGE_SHELL_LIMIT_NAME": limit.target.name,
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

    /// Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout) as
    /// notify-send sends it (urgency normal, the server's own timeout), on a connection opened at
    /// the first crossing and kept; its reply is taken in `reap`.
    private func notify(summary: String, body: String, bus address: String) {
        do throws(RecorderError) {
            let bus: DBusConnection
            if let open = self.bus {
                bus = open
            } else {
                bus = try DBusConnection.open(.address(address))
                self.bus = bus
            }
            try bus.callLater(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                member: "Notify",
                values: [
                    .string("usage-shell"), .uint32(0), .string(""), .string(summary), .string(body), .array(element: "s", []),
                    .dictionary(key: "s", value: "v", [(.string("urgency"), .variant(.byte(1)))]), .int32(-1),
                ]
            ) { [self] reply in
                if case .failure(let error) = reply { warnOnce("no desktop notification (\(error)): limits are said here only") }
            }
        } catch {
            bus = nil
            warnOnce("no desktop notification (\(error)): limits are said here only")
        }
    }

    private func warnOnce(_ line: String) {
        if warned.insert(line).inserted { warn(line) }
    }

    /// Takes the notification server's replies; reaps the children that ended, stops those
    /// running for more than 10 s.
    public func reap(now: Micros) {
        if let bus {
            do throws(RecorderError) {
                try bus.process()
            } catch {
                // Opened again at the next crossing.
                self.bus = nil
                warnOnce("no desktop notification (\(error)): limits are said here only")
            }
        }
        children.removeAll { entry in
            if entry.child.reap() { return true }
            if now - entry.started > 10_000_000 {
                entry.child.terminate()
                return true
            }
            return false
        }
    }

    /// Ends the children still running and sends what is queued, at the recorder's end.
    public func finish() {
        for entry in children { entry.child.terminate() }
        children.removeAll()
        bus?.close()
        bus = nil
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
