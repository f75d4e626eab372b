// BackendChoice.swift — which backend reads this desktop: the one ordered list of backends (a window manager's IPC, GNOME's extension, KWin's script, the wlroots protocol, X11 last), each saying from the environment alone whether it applies and why not, then opening or giving its reason in one line; the first that opens records, `--backend` forces one, `record --once` prints every verdict.
import UsageCore
/// One backend's answer for this desktop: it opened, or why not.
public struct BackendVerdict: Equatable, Sendable {
    public let kind: BackendKind
    /// Why it cannot read this desktop; nil when it opened.
    public let reason: String?

    public init(kind: BackendKind, reason: String?) {
        self.kind = kind
        self.reason = reason
    }
}

/// A backend as the list holds it (awatcher's `filter_first_supported`): its name, whether a
/// desktop is plainly its own, whether it applies there and why not — from the environment
/// alone, a pure function — and how it opens. Each backend makes its entry in its own file.
public struct BackendEntry: Sendable {
    public let kind: BackendKind
    /// What `record --help` says of it after its name, when the name does not say it all.
    public let brief: String?
    /// How plainly `desktop` is this backend's own (nil: not at all): when none opens, the
    /// verdict said is the one of the backend that owns it most plainly (the first of the list, if several).
    let claims: @Sendable (_ desktop: Desktop) -> Claim?
    /// Why it does not apply to `desktop`, from its variables alone: no socket, bus or display
    /// is touched. Named by `--backend` (`forced`), a backend also reads a desktop that is not its own.
    let declines: @Sendable (_ desktop: Desktop, _ forced: Bool) -> RecorderError?
    /// Opens it once `declines` said nothing; what the environment cannot tell (a socket's
    /// answer, the bus, the display) it finds out here, and says as its error.
    let opens: @Sendable (_ desktop: Desktop, _ forced: Bool, _ idle: IdleSettings) throws(RecorderError) -> any RecorderBackend

    init(
        kind: BackendKind, brief: String? = nil, claims: @escaping @Sendable (Desktop) -> Claim?,
        declines: @escaping @Sendable (Desktop, Bool) -> RecorderError?,
        opens: @escaping @Sendable (Desktop, Bool, IdleSettings) throws(RecorderError) -> any RecorderBackend
    ) {
        self.kind = kind
        self.brief = brief
        self.claims = claims
        self.declines = declines
        self.opens = opens
    }

    /// How plainly a desktop's variables name a backend's desktop, the weakest first.
    enum Claim: Int, Comparable {
        /// Nothing names another: the last resort (X11).
        case lastResort
        /// The session's type is the backend's (Wayland).
        case sessionType
        /// The backend's own socket is named (SWAYSOCK, I3SOCK).
        case socket
        /// XDG_CURRENT_DESKTOP names it (GNOME, KDE).
        case desktopName

        static func < (a: Claim, b: Claim) -> Bool { a.rawValue < b.rawValue }
    }

    /// What every backend's idle is given.
    struct IdleSettings {
        let threshold: Micros
        let monotonic: Micros
    }

    /// Opens it for `desktop`, or says why it cannot.
    func attempt(_ desktop: Desktop, forced: Bool, idleThreshold: Micros, monotonic: Micros) throws(RecorderError) -> any RecorderBackend {
        if let refusal = declines(desktop, forced) { throw refusal }
        return try opens(desktop, forced, IdleSettings(threshold: idleThreshold, monotonic: monotonic))
    }
}

/// Picks and opens the backend.
public enum BackendChoice {
    /// The backends in the order they are tried: a window manager's own IPC first (it names the
    /// focused window exactly), then the desktops that need their own way (GNOME's extension,
    /// KWin's script), then any wlroots compositor's protocol, and X11 last — under a Wayland
    /// desktop, XWayland would show only its X clients. The one list: `--backend`'s values, the
    /// help and `record --once` read it. A new backend is its file's entry and a line here.
    public static let order: [BackendEntry] = [
        WindowManagerBackend.sway,
        WindowManagerBackend.i3,
        GnomeBackend.entry,
        KDEBackend.entry,
        WlrootsBackend.entry,
        X11Backend.entry,
    ]

    /// The backends' names, in the order tried.
    public static var names: [String] { order.map(\.kind.rawValue) }

    /// The backend `--backend` names, or nil.
    public static func entry(named name: String) -> BackendEntry? { order.first { $0.kind.rawValue == name } }

    /// The backend that records, with the verdict of each backend tried before it.
    public struct Opened {
        public let backend: any RecorderBackend
        public let verdicts: [BackendVerdict]
    }

    /// The first backend of `order` that opens for `environment`, or `forced`; the error says
    /// in one line why none can run.
    public static func open(
        _ environment: [String: String], forced: BackendKind?, idleThreshold: Micros, monotonic: Micros
    ) throws(RecorderError) -> Opened {
        let desktop = Desktop(environment)
        if let forced, let entry = entry(named: forced.rawValue) {
            return Opened(backend: try entry.attempt(desktop, forced: true, idleThreshold: idleThreshold, monotonic: monotonic), verdicts: [])
        }
        if desktop.nothing { throw .noDisplay }
        var verdicts: [BackendVerdict] = []
        for entry in order {
            do throws(RecorderError) {
                let backend = try entry.attempt(desktop, forced: false, idleThreshold: idleThreshold, monotonic: monotonic)
                verdicts.append(BackendVerdict(kind: entry.kind, reason: nil))
                return Opened(backend: backend, verdicts: verdicts)
            } catch {
                verdicts.append(BackendVerdict(kind: entry.kind, reason: reason(error)))
            }
        }
        throw .noBackend(verdicts, likely: desktop.likely)
    }

    /// Every backend's verdict (for `record --once`), and the one that records: the first of
    /// `order` that opens, or `forced`; the others are stopped as soon as they opened.
    public static func survey(
        _ environment: [String: String], forced: BackendKind?, idleThreshold: Micros, monotonic: Micros
    ) -> (verdicts: [BackendVerdict], chosen: (any RecorderBackend)?) {
        let desktop = Desktop(environment)
        var chosen: (any RecorderBackend)?
        let verdicts = order.map { entry in
            do throws(RecorderError) {
                let backend = try entry.attempt(desktop, forced: entry.kind == forced, idleThreshold: idleThreshold, monotonic: monotonic)
                if chosen == nil, forced == nil || entry.kind == forced { chosen = backend } else { backend.stop() }
                return BackendVerdict(kind: entry.kind, reason: nil)
            } catch {
                return BackendVerdict(kind: entry.kind, reason: reason(error))
            }
        }
        return (verdicts, chosen)
    }

    /// A refusal as a verdict says it: the reason alone, without the `--backend NAME:` a forced one starts with.
    static func reason(_ error: RecorderError) -> String {
        if case .notThatBackend(_, let reason) = error { return reason }
        return error.description
    }
}

/// The desktop the environment tells of.
struct Desktop: Sendable {
    let environment: [String: String]

    init(_ environment: [String: String]) { self.environment = environment }

    func value(_ key: String) -> String? { environment[key].flatMap { $0.isEmpty ? nil : $0 } }

    /// No display, no Wayland socket and no window manager's socket: not in a desktop session.
    var nothing: Bool { ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK"].allSatisfy { value($0) == nil } }

    var currentDesktop: String { value("XDG_CURRENT_DESKTOP") ?? "" }
    var named: String { currentDesktop.isEmpty ? "XDG_CURRENT_DESKTOP is unset" : "XDG_CURRENT_DESKTOP=" + currentDesktop }
    var isGNOME: Bool { currentDesktop.split(separator: ":").contains { $0.lowercased() == "gnome" } }
    var isKDE: Bool { currentDesktop.split(separator: ":").contains { $0.lowercased() == "kde" } }
    var isWayland: Bool { value("WAYLAND_DISPLAY") != nil || (value("XDG_SESSION_TYPE") ?? "").lowercased() == "wayland" }

    /// Why an X11 backend declines this session: under Wayland, XWayland shows only X clients.
    var waylandReason: String? {
        isWayland ? "this is a Wayland session: X11 would see only XWayland's windows (--backend x11 reads it anyway)" : nil
    }

    /// The backend this desktop most likely wants: its verdict is the one said when none opens.
    var likely: BackendKind {
        var best: (claim: BackendEntry.Claim, kind: BackendKind)?
        for entry in BackendChoice.order {
            guard let claim = entry.claims(self) else { continue }
            if best.map({ claim > $0.claim }) ?? true { best = (claim, entry.kind) }
        }
        return best?.kind ?? BackendChoice.order[BackendChoice.order.count - 1].kind
    }
}
