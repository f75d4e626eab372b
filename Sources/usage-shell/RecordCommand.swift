// RecordCommand.swift — `usage-shell record`: the desktop recorder as a command of its own (options read, the lock, backend, store, rules and limits wired, then UsageRecorder's loop); `--once` prints what it sees now. Thin by design.
import ArgumentParser
import Foundation
import UsageCore
import UsageData
import UsageRecorder
import UsageRender
import UsageStore

#if canImport(Glibc)
    import Glibc
#endif

/// `--backend`: the names of `BackendChoice.order`, in its order (the help, completion and the
/// refusal of another name list them).
extension BackendKind: ExpressibleByArgument {
    public init?(argument: String) {
        guard let entry = BackendChoice.entry(named: argument) else { return nil }
        self = entry.kind
    }
    public static var allValueStrings: [String] { BackendChoice.names }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the desktop into the store: one session per app focused without a break while you are not idle.",
        discussion: """
            Runs until SIGINT or SIGTERM. The open session is written every 5 s (a crash loses at most that), \
            one recorder runs per store and device, window titles are never recorded, and nothing counts \
            while the screen is locked (logind's LockedHint, or a screen saver's ActiveChanged). Backends, in the order tried: \
            \(backendList); the first that opens records (--once says each one's \
            verdict). Exit status: 0 after a stop, 1 when it \
            cannot record (said in one line).
            """)

    /// The backends, in the order tried, each with what it reads when its name does not say.
    static var backendList: String {
        BackendChoice.order.map { $0.kind.rawValue + ($0.brief.map { " (\($0))" } ?? "") }.joined(separator: ", ")
    }

    @Option(help: ArgumentHelp("No keyboard or pointer input for this long is idle, not counted: 45s, 3m, 1h (1 s to 1 h).", valueName: "time"))
    var idle: String = "3m"

    @Option(help: "Force a backend: \(BackendChoice.names.dropLast().joined(separator: ", ")) or \(BackendChoice.names.last!) (default: the first that opens).")
    var backend: BackendKind?

    @Flag(help: "Print what the recorder sees now (backend, app, idle time, where the screen lock comes from; and, when no usage-shell-record.service runs, how to start one with the session) and exit.")
    var once = false

    @Flag(help: "Set up the systemd user unit to record every session: on GNOME the usage-shell shell extension enabled, under i3, sway or openbox the one line their config needs, then systemctl --user enable (when that fails, the rest is undone); then exit.")
    var enable = false

    @Flag(help: "Undo --enable's lasting part: systemctl --user disable the unit, and remove the browsers' native-messaging host manifests; then exit.")
    var disable = false

    @Option(
        name: .customLong("on-limit"),
        help: ArgumentHelp(
            "A command run (by /bin/sh) when a daily limit is crossed, with USAGE_SHELL_LIMIT_NAME, _KIND, _SECONDS, USAGE_SHELL_USED_SECONDS and USAGE_SHELL_LIMIT_TEXT set.",
            valueName: "command"))
    var onLimit: String?

    @OptionGroup var shared: SharedOptions

    var idleMicros: Micros? {
        guard let micros = DurationText.parse(idle) ?? TimeAmount.seconds(idle).map({ Micros($0 * 1_000_000) }),
            micros >= 1_000_000, micros <= 3_600_000_000
        else { return nil }
        return micros
    }

    func validate() throws {
        if idleMicros == nil { throw ValidationError("--idle: use a time from 1s to 1h, as 45s, 3m or 1h") }
        if [once, enable, disable].filter({ $0 }).count > 1 { throw ValidationError("--once, --enable and --disable: one at a time") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let threshold = idleMicros!
        let device = shared.device ?? Devices.local
        let zone = shared.tz.flatMap { Zone(identifier: $0) } ?? Zone.fromEnvironment(environment, systemIdentifier: Terminal.systemZoneIdentifier())
        let rules = (try? CategoryRulesFile.defaultPath(environment: environment).map(CategoryRulesFile.init(path:))?.load()) ?? nil
        let categoryOf: (String) -> String? = { app in rules?.category(for: app) }
        let monotonic = RecorderClock.monotonic()
        let forced = backend
        if enable {
            // On GNOME the shell extension (unless another backend is forced), then the session's
            // line and the unit: all, or none.
            let sessionType = environment["XDG_SESSION_TYPE"]
            var gnome = forced == nil || forced == .gnome ? GnomeExtensionSetUp.look().plan(sessionType: sessionType) : .nothing
            if case .install(let version, let problem) = gnome {
                gnome = Self.installGnomeExtension(version: version, environment: environment).map {
                    GnomeExtensionEditions.plan(installed: $0, sessionType: sessionType)
                } ?? GnomeExtensionSetUp.cannot(problem).plan(sessionType: sessionType)
            }
            var said: [String] = []
            var extensionEnabled = false
            switch gnome {
            case .nothing, .install: break
            case .say(let line): said.append(line)
            case .refuse(let line): throw Self.failure(line)
            case .enable:
                if let problem = GnomeExtensionSetUp.enable() {
                    GnomeExtensionSetUp.disable()
                    switch GnomeExtensionSetUp.cannot(problem).plan(sessionType: sessionType) {
                    case .say(let note): said.append(note)
                    default: throw Self.failure(problem + "; nothing was changed")
                    }
                } else {
                    said.append(GnomeExtensionSetUp.enabledLine)
                    extensionEnabled = true
                }
            }
            let session = SessionKind.of(environment, backend: forced)
            do throws(UnitSetUpError) {
                let files = ConfigFiles()
                said = try RecorderUnit.enable(
                    session, environment: environment, read: ConfigFiles.read, write: files.write, systemctl: Self.systemctl) + said
                // The browsers' native-messaging host, for the extension's sites.
                said += HostManifestFiles.install(environment: environment, executable: WebHostCommand.executable)
                StandardStream.output.write(said.map(TerminalText.sanitize).joined(separator: "\n") + "\n")
            } catch {
                if extensionEnabled { GnomeExtensionSetUp.disable() }
                throw Self.failure(error.description + (extensionEnabled ? " (the GNOME Shell extension was disabled again)" : ""))
            }
            return
        }
        if disable {
            let unit = Self.systemctl(["disable", RecorderUnit.name])
            var said = [unit.status == 0 ? "disabled \(RecorderUnit.name)" : "\(RecorderUnit.name) not disabled (\(unit.message))"]
            said += HostManifestFiles.remove(environment: environment)
            StandardStream.output.write(said.map(TerminalText.sanitize).joined(separator: "\n") + "\n")
            return
        }
        if once {
            let survey = BackendChoice.survey(environment, forced: forced, idleThreshold: threshold, monotonic: monotonic)
            guard let opened = survey.chosen else {
                // None opens: every verdict (unless one was forced: its line says it), then the one line the run itself would fail with.
                if forced == nil {
                    let lines = ["backends, in the order tried:"] + RecorderOnce.verdictLines(survey.verdicts, chosen: nil, clean: TerminalText.sanitize)
                    StandardStream.output.write(lines.joined(separator: "\n") + "\n")
                }
                _ = try fail { () throws(RecorderError) in try BackendChoice.open(environment, forced: forced, idleThreshold: threshold, monotonic: monotonic) }
                return
            }
            let lock = LockWatch(environment: environment, now: RecorderClock.wall())
            var lines = try fail { () throws(RecorderError) in
                try RecorderOnce.lines(
                    opened, verdicts: survey.verdicts, environment: environment, device: device, categoryOf: categoryOf, lock: lock.lines,
                    clean: TerminalText.sanitize)
            }
            lock.stop()
            // No unit records this desktop: how to make one start with the session.
            if Self.systemctl(["is-active", "--quiet", RecorderUnit.name]).status != 0 {
                lines += RecorderUnit.onceNotes(SessionKind.of(environment, backend: opened.kind), environment: environment, clean: TerminalText.sanitize)
            }
            StandardStream.output.write(lines.joined(separator: "\n") + "\n")
            opened.stop()
            return
        }
        // A recorder runs for hours: what parsing the command line touched is given back at once,
        // so the peak is the largest step of its start, not their sum.
        ResidentMemory.settle()
        guard let location = OpenStores.shared.location(named: shared.db, environment: environment) else {
            throw Self.failure("no store: HOME is unset (give --db PATH)")
        }
        let lock = try fail { () throws(RecorderError) in
            try RecorderLock(store: location.identity, shownStore: location.description, device: device, environment: environment)
        }
        defer { lock.release() }
        let backend = try fail { () throws(RecorderError) in try BackendChoice.open(environment, forced: forced, idleThreshold: threshold, monotonic: monotonic).backend }
        let screenLock = LockWatch(environment: environment, now: RecorderClock.wall())
        ResidentMemory.settle()
        let store: any StoreWriter
        do {
            store = try OpenStores.shared.writer(location)
        } catch {
            throw Self.failure(error.description)
        }
        ResidentMemory.settle()
        let say = { (line: String) in StandardStream.output.write(TerminalText.sanitize(line) + "\n") }
        let warn = { (line: String) in StandardStream.error.write("usage-shell record: " + TerminalText.sanitize(line) + "\n") }
        let limits = LimitsFile.defaultPath(environment: environment).map { path in
            LimitWatch(file: LimitsFile(path: path), zone: zone, notifier: Notifier(command: onLimit, environment: environment, warn: warn), say: say)
        }
        let settings = RecorderSettings(device: device, zone: zone, idle: threshold)
        let recorder = Recorder(
            store: store, backend: backend, lock: screenLock, settings: settings, categoryOf: categoryOf, limits: limits, say: say, warn: warn)
        say("recording \(backend.kind.rawValue) (idle from \(backend.idleSourceName) after \(threshold / 1_000_000) s; \(screenLock.source)) into \(location.description) as device '\(device)'; written every 5 s; Ctrl-C stops")
        try fail { () throws(RecorderError) in try recorder.run() }
        say("stopped: \(recorder.written) session\(recorder.written == 1 ? "" : "s") written")
        OpenStores.shared.closeAll()
    }

    /// Runs `systemctl --user ARGS`: its status, and the first line it wrote on stderr.
    static func systemctl(_ arguments: [String]) -> (status: Int32, message: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["systemctl", "--user"] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (127, "systemctl cannot be run")
        }
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, said.split(separator: "\n").first.map(String.init) ?? "")
    }

    /// Runs `body`; its error is said in one line and ends the run with status 1.
    private func fail<T>(_ body: () throws(RecorderError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw Self.failure(error.description)
        }
    }

    private static func failure(_ line: String) -> ExitCode {
        StandardStream.error.write("usage-shell record: " + TerminalText.sanitize(line) + "\n")
        return ExitCode(1)
    }
}

extension RecordCommand {
    /// A package's edition of the GNOME Shell extension for GNOME Shell `version` copied into the
    /// user's extensions folder: the line that says so, or nil when there is no edition to copy
    /// (no package: scripts/install's copy is the user's already), the user has a copy there
    /// already (installed since the login), or the copy failed (nothing is left half-made).
    static func installGnomeExtension(version: String?, environment: [String: String]) -> String? {
        let files = FileManager.default
        let target = GnomeExtensionEditions.userFolder(environment: environment)
        guard !files.fileExists(atPath: target) else { return nil }
        let executable = try? files.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let folders = GnomeExtensionEditions.folders(executable: executable, environment: environment)
        let edition = GnomeExtensionEditions.edition(forShellVersion: version)
        guard let source = GnomeExtensionEditions.sources(folders, edition: edition).first(where: { files.fileExists(atPath: $0 + "/metadata.json") })
        else { return nil }
        do {
            try files.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try files.copyItem(atPath: source, toPath: target)
        } catch {
            try? files.removeItem(atPath: target)
            return nil
        }
        return GnomeExtensionEditions.installedLine(version: version, source: source, target: target)
    }
}

/// The session config files `record --enable` writes: read as text (a link followed to its
/// file), written whole (their folders made, the file's mode kept, a link left a link), and
/// removed again with the folders that were made for them.
final class ConfigFiles {
    private var madeFolders: [String] = []

    /// The file a path names, its links followed (the path itself when it is not there).
    static func target(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    /// A file as it is: absent, its UTF-8 text, or why it is no text to rewrite.
    static func read(_ path: String) -> ConfigText {
        let manager = FileManager.default
        let file = target(path)
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: file, isDirectory: &isFolder) else {
            // A link to nothing is there, but names no file.
            return (try? manager.destinationOfSymbolicLink(atPath: path)) == nil ? .absent : .unreadable("a link to nothing")
        }
        if isFolder.boolValue { return .unreadable("a folder") }
        guard let data = manager.contents(atPath: file) else { return .unreadable("not readable") }
        guard let text = String(data: data, encoding: .utf8) else { return .unreadable("not UTF-8 text") }
        return .text(text)
    }

    /// Writes a file whole (to the file a link names), or removes it (nil) and the folders made for it.
    func write(_ path: String, _ text: String?) -> Bool {
        let manager = FileManager.default
        guard let text else {
            guard (try? manager.removeItem(atPath: path)) != nil else { return false }
            for folder in madeFolders.reversed() { try? manager.removeItem(atPath: folder) }
            madeFolders = []
            return true
        }
        let file = Self.target(path)
        let url = URL(fileURLWithPath: file)
        // A file rewritten keeps its mode (an autostart script may be executable).
        let mode = (try? manager.attributesOfItem(atPath: file))?[.posixPermissions]
        var missing: [String] = []
        var folder = url.deletingLastPathComponent()
        while !manager.fileExists(atPath: folder.path), folder.path != "/" {
            missing.insert(folder.path, at: 0)
            folder = folder.deletingLastPathComponent()
        }
        do {
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            madeFolders += missing
            try Data(text.utf8).write(to: url, options: .atomic)
            if let mode { try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: file) }
            return true
        } catch {
            return false
        }
    }
}
