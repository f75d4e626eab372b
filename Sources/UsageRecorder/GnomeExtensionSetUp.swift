// GnomeExtensionSetUp.swift — `record --enable` on GNOME: the project's shell extension enabled as `gnome-extensions enable` does (GNOME Shell's EnableExtension over the session bus) along with the unit, a package's edition of it copied for the user when GNOME Shell does not know it, or the one line that says why it cannot be, before anything is changed.
#if canImport(Glibc)
    import Glibc
#endif

/// What `record --enable` finds of the usage-shell GNOME Shell extension.
public enum GnomeExtensionSetUp: Equatable, Sendable {
    /// GNOME Shell is not on the session bus (another desktop, or no bus): nothing to do.
    case notGnome
    /// Enabled already.
    case enabled
    /// Installed and known to the shell, not enabled: `enable()` enables it.
    case disabled
    /// Not known to the shell (not installed, or installed since the login): the shell's version
    /// (which edition a package's copy must be), and the line that says so when no copy can be made.
    case notInstalled(shellVersion: String?, problem: String)
    /// It cannot be enabled from here (not installed, or installed since the login; failed to
    /// start; made for other GNOME Shell versions): the line that says so and what to do.
    case cannot(String)

    /// What `record --enable` does about the extension.
    public enum Plan: Equatable, Sendable {
        /// Nothing (not GNOME).
        case nothing
        /// Enable it, then set up the unit (and disable it again if the unit fails).
        case enable
        /// Set up the unit, and print this line after its own.
        case say(String)
        /// Change nothing: this line is the failure.
        case refuse(String)
        /// Copy a package's edition for this GNOME Shell version into the user's extensions
        /// folder (`GnomeExtensionEditions`); when there is none to copy, or the user has a copy
        /// already, the plan of `.cannot(problem)`.
        case install(shellVersion: String?, problem: String)
    }

    /// The plan for a session of `sessionType` (`XDG_SESSION_TYPE`). An extension that cannot
    /// be enabled refuses the set-up under Wayland, where nothing else reads the focus; under
    /// X11 the recorder reads GNOME's windows as any X11 desktop's meanwhile, so the unit is
    /// set up and the problem is a note.
    public func plan(sessionType: String?) -> Plan {
        switch self {
        case .notGnome: return .nothing
        case .enabled: return .say(Self.enabledAlreadyLine)
        case .disabled: return .enable
        case .notInstalled(let version, let problem): return .install(shellVersion: version, problem: problem)
        case .cannot(let problem):
            return sessionType == "x11"
                ? .say("note: \(problem); until then the recorder reads this X11 session as any other")
                : .refuse(problem + "; nothing was changed")
        }
    }

    /// The extension as the GNOME Shell on this session bus tells it. User extensions turned
    /// off (GNOME's own switch) enable none: said, not switched on behind the user's back.
    public static func look() -> GnomeExtensionSetUp {
        guard let bus = try? DBusConnection.open(.session) else { return .notGnome }
        defer { bus.close() }
        guard (try? GnomeBackend.hasOwner(bus, "org.gnome.Shell")) == true else { return .notGnome }
        if (try? bus.getProperty(destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions", name: "UserExtensionsEnabled"))?
            .boolValue == false
        {
            return .cannot(Self.userExtensionsOff)
        }
        switch GnomeBackend.extensionState(bus) {
        case 1?: return .enabled
        case 2?, 6?: return .disabled
        case nil:
            let version = try? bus.getProperty(destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell", name: "ShellVersion")
            return .notInstalled(
                shellVersion: version?.stringValue, problem: GnomeBackend.extensionProblem(bus, then: "usage-shell record --enable again"))
        default: return .cannot(GnomeBackend.extensionProblem(bus, then: "usage-shell record --enable again"))
        }
    }

    /// GNOME's switch for every extension of the user's is off.
    static let userExtensionsOff =
        "GNOME has user extensions turned off, so the usage-shell extension cannot run: turn them on (the Extensions app, "
        + "or gsettings set org.gnome.shell disable-user-extensions false) and run usage-shell record --enable again"

    /// Enables the extension (GNOME Shell loads it at once and remembers it for the next
    /// login, as `gnome-extensions enable` does) and waits up to 3 s for GNOME Shell to say it
    /// runs: what went wrong, or nil. GNOME answers EnableExtension before the extension starts,
    /// and an extension that fails to start is only seen in its state.
    public static func enable() -> String? {
        let failed = "GNOME Shell did not enable the usage-shell extension"
        guard let bus = try? DBusConnection.open(.session) else { return failed + ": the session bus cannot be reached" }
        defer { bus.close() }
        if let why = ask("EnableExtension", on: bus) { return failed + " (run gnome-extensions enable \(GnomeBackend.uuid)): " + why }
        let end = RecorderClock.monotonic() + 3_000_000
        var state = GnomeBackend.extensionState(bus)
        while state != 1, state != 3, RecorderClock.monotonic() < end {
            usleep(50_000)
            state = GnomeBackend.extensionState(bus)
        }
        switch state {
        case 1?: return nil
        case 3?: return "the usage-shell extension failed to start in GNOME Shell: gnome-extensions info \(GnomeBackend.uuid) says why"
        default: return failed + " within 3 s (its state: \(state.map(String.init) ?? "unknown")): see gnome-extensions info \(GnomeBackend.uuid)"
        }
    }

    /// Disables it again (`record --enable` whose unit could not be enabled puts it back).
    public static func disable() {
        guard let bus = try? DBusConnection.open(.session) else { return }
        defer { bus.close() }
        _ = ask("DisableExtension", on: bus)
    }

    /// Calls `member` of GNOME Shell's extensions with the extension's UUID: nil when it said
    /// true, else why not.
    private static func ask(_ member: String, on bus: DBusConnection) -> String? {
        do throws(RecorderError) {
            let answer = try bus.call(
                destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions", member: member,
                values: [.string(GnomeBackend.uuid)])
            return answer.first?.boolValue == true ? nil : "it answered no"
        } catch {
            return error.description
        }
    }

    /// The line `record --enable` prints for what it did.
    public static var enabledLine: String { "enabled the usage-shell GNOME Shell extension (\(GnomeBackend.uuid)): GNOME Shell tells the recorder which app has the focus" }
    public static var enabledAlreadyLine: String { "the usage-shell GNOME Shell extension (\(GnomeBackend.uuid)) is enabled already" }
}
