// LimitsFile.swift — the daily limits on disk: `$XDG_CONFIG_HOME/usage-shell/limits.json`, changed under a lock and written atomically; a corrupt file is set aside, never lost, an unreadable one left alone.
import Foundation
import UsageCore

/// Why the limits file could not be used, and what the shell did about it: each is one warning.
public enum LimitsFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// It exists but cannot be read (permissions, a folder in its place, an I/O error): it is
    /// left as it is, and the shell keeps limits in memory for the session.
    case unreadable(path: String, reason: String)
    /// It is not a limits file (`problem`); it was renamed to `keptAs` and limits start empty.
    case corrupt(path: String, problem: String, keptAs: String)
    /// It is not a limits file and could not be renamed (`reason`: a read-only folder): it is
    /// left as it is, and the shell keeps limits in memory for the session.
    case corruptInPlace(path: String, problem: String, reason: String)
    /// It cannot be written (a read-only folder, a full disk): the shell keeps limits in memory
    /// for the session.
    case unwritable(path: String, reason: String)

    /// Whether the stored limits are unknown after this (not read, or not understood and still there).
    public var limitsUnknown: Bool {
        switch self {
        case .unreadable, .corruptInPlace: return true
        case .corrupt, .unwritable: return false
        }
    }

    public var path: String {
        switch self {
        case .unreadable(let path, _), .corrupt(let path, _, _), .corruptInPlace(let path, _, _), .unwritable(let path, _): return path
        }
    }

    public var description: String {
        let inMemory = "limits are kept in memory for this session only"
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read the limits file '\(path)': \(reason); it is left as it is, and \(inMemory)"
        case .corrupt(let path, let problem, let keptAs):
            return "the limits file '\(path)' is not valid (\(problem)); it was kept aside as '\(keptAs)' and limits start empty"
        case .corruptInPlace(let path, let problem, let reason):
            return "the limits file '\(path)' is not valid (\(problem)) and could not be moved aside (\(reason)); it is left as it is, and \(inMemory)"
        case .unwritable(let path, let reason):
            return "cannot write the limits file '\(path)': \(reason); \(inMemory)"
        }
    }
}

/// `{"limits":[{"app":"Safari","seconds":1800},{"category":"Social","seconds":3600}]}`.
public struct LimitsFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// `$XDG_CONFIG_HOME/usage-shell/limits.json` (an absolute XDG_CONFIG_HOME), else
    /// `~/.config/usage-shell/limits.json`; nil without a home.
    public static func defaultPath(environment: [String: String]) -> String? {
        AtomicFile.xdgPath("limits.json", variable: "XDG_CONFIG_HOME", fallback: ".config", environment: environment)
    }

    /// The system calls of a save (tests make one fail).
    var steps: AtomicFile.Steps = .system

    /// The limits read, and the corrupt file set aside on the way (`.corrupt`), if any.
    public struct Loaded: Equatable, Sendable {
        public let limits: [UsageLimit]
        public let setAside: LimitsFileError?
    }

    /// The stored limits, none when there is no file yet. A corrupt file is renamed aside
    /// (`limits.json.corrupt`, `.corrupt-2`, …; under the lock) and limits start empty; when it
    /// cannot be moved it is left in place and this fails. Never writes the file.
    public func load() throws(LimitsFileError) -> Loaded {
        let problem: String
        switch try read() {
        case .limits(let limits): return Loaded(limits: limits, setAside: nil)
        case .corrupt(let found): problem = found
        }
        let lock: Int32
        do {
            lock = try AtomicFile.lock(path)
        } catch {
            throw .corruptInPlace(path: path, problem: problem, reason: error.reason)
        }
        defer { AtomicFile.unlock(lock) }
        // Another run may have set it aside (and saved a new one) meanwhile: read it again.
        return try loadLocked()
    }

    /// Reads the file, setting a corrupt one aside: call it holding the lock (or when the file
    /// is not corrupt, which needs none).
    private func loadLocked() throws(LimitsFileError) -> Loaded {
        switch try read() {
        case .limits(let limits): return Loaded(limits: limits, setAside: nil)
        case .corrupt(let problem):
            switch AtomicFile.setAside(path, steps: steps) {
            case .moved(let keptAs): return Loaded(limits: [], setAside: .corrupt(path: path, problem: problem, keptAs: keptAs))
            case .gone: return Loaded(limits: [], setAside: nil)
            case .failed(let reason): throw .corruptInPlace(path: path, problem: problem, reason: reason)
            }
        }
    }

    /// What the file holds.
    private enum Contents {
        case limits([UsageLimit])
        case corrupt(problem: String)
    }

    private func read() throws(LimitsFileError) -> Contents {
        let bytes: [UInt8]
        do throws(FileFailure) {
            // No file is no limits; a file in place of the folder is a failure (`limits check`
            // must not pass silently).
            guard let contents = try AtomicFile.contentsIfPresent(of: path) else { return .limits([]) }
            bytes = contents
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        if let problem = AtomicFile.textProblem(bytes) { return .corrupt(problem: problem) }
        do {
            return .limits(try Self.decode(bytes))
        } catch {
            return .corrupt(problem: error.problem)
        }
    }

    /// Reads, changes and writes the limits under an exclusive lock (`limits.json.lock`), so two
    /// shells changing limits at once both keep their change. Returns the limits written (and
    /// a corrupt file set aside before, if any).
    public func update(_ change: ([UsageLimit]) throws(LimitsFileError) -> [UsageLimit]) throws(LimitsFileError) -> Loaded {
        let lock: Int32
        do {
            lock = try AtomicFile.lock(path)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
        defer { AtomicFile.unlock(lock) }
        let loaded = try loadLocked()
        let changed = try change(loaded.limits)
        try save(changed)
        return Loaded(limits: changed, setAside: loaded.setAside)
    }

    /// The stored limits for completion: nothing when the file is missing or bad (it is left as
    /// it is; the next limits command reports it).
    public func peek() -> [UsageLimit] {
        guard let bytes = try? AtomicFile.contentsIfPresent(of: path) else { return [] }
        return (try? Self.decode(bytes)) ?? []
    }

    /// Writes the limits atomically.
    public func save(_ limits: [UsageLimit]) throws(LimitsFileError) {
        do {
            try AtomicFile.write(Array(Self.encode(limits).utf8), to: path, steps: steps)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
    }

    struct Problem: Error { let problem: String }

    static func decode(_ bytes: [UInt8]) throws(Problem) -> [UsageLimit] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) else { throw Problem(problem: "not JSON") }
        guard let rows = (object as? [String: Any])?["limits"] as? [Any] else {
            throw Problem(problem: "no \"limits\" array")
        }
        var limits: [UsageLimit] = []
        for (k, row) in rows.enumerated() {
            guard let fields = row as? [String: Any], let seconds = fields["seconds"] as? NSNumber,
                seconds.doubleValue > 0, seconds.doubleValue < 1e9
            else { throw Problem(problem: "limit \(k + 1) has no positive \"seconds\"") }
            let micros = Micros((seconds.doubleValue * 1_000_000).rounded())
            if let app = fields["app"] as? String, fields["category"] == nil {
                limits.append(UsageLimit(target: .app(app), micros: micros))
            } else if let category = fields["category"] as? String, fields["app"] == nil {
                limits.append(UsageLimit(target: .category(category), micros: micros))
            } else {
                throw Problem(problem: "limit \(k + 1) names neither one \"app\" nor one \"category\"")
            }
        }
        return limits
    }

    static func encode(_ limits: [UsageLimit]) -> String {
        func quoted(_ s: String) -> String {
            let data = try! JSONSerialization.data(withJSONObject: [s], options: [.withoutEscapingSlashes])
            return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        }
        let rows = limits.map { limit -> String in
            let key: String
            switch limit.target {
            case .app: key = "app"
            case .category: key = "category"
            }
            let seconds = limit.micros % 1_000_000 == 0 ? String(limit.micros / 1_000_000) : String(Double(limit.micros) / 1e6)
            return "    {\"\(key)\": \(quoted(limit.target.name)), \"seconds\": \(seconds)}"
        }
        return "{\"limits\": [\n" + rows.joined(separator: ",\n") + (rows.isEmpty ? "" : "\n") + "]}\n"
    }
}
