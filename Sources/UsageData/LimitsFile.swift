// LimitsFile.swift — the daily limits on disk: `$XDG_CONFIG_HOME/usage-shell/limits.json`, written atomically; a corrupt file is set aside, never lost.
import Foundation
import UsageCore

/// Why the limits file could not be used.
public enum LimitsFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// It exists but cannot be read (permissions, a folder in its place).
    case unreadable(path: String, reason: String)
    /// It is not a limits file; it was renamed to `keptAs` (nil when even that failed).
    case corrupt(path: String, problem: String, keptAs: String?)
    /// It cannot be written.
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read the limits file '\(path)': \(reason)"
        case .corrupt(let path, let problem, let keptAs):
            let aside = keptAs.map { "it was kept aside as '\($0)' and limits start empty" } ?? "it was left in place and not used"
            return "the limits file '\(path)' is not valid (\(problem)); \(aside)"
        case .unwritable(let path, let reason):
            return "cannot write the limits file '\(path)': \(reason)"
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

    /// The stored limits, none when there is no file yet. A corrupt file is renamed aside
    /// (`limits.json.corrupt`, `.corrupt-2`, …) and reported.
    public func load() throws(LimitsFileError) -> [UsageLimit] {
        let bytes: [UInt8]
        do throws(FileFailure) {
            guard let contents = try AtomicFile.contentsIfPresent(of: path) else {
                // No file is no limits, unless the file could not be there (a file in place of
                // the folder): then `limits check` must not pass silently.
                if AtomicFile.folderIsBlocked(path) { throw FileFailure(reason: String(cString: strerror(ENOTDIR))) }
                return []
            }
            bytes = contents
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        do {
            return try Self.decode(bytes)
        } catch {
            throw .corrupt(path: path, problem: error.problem, keptAs: setAside())
        }
    }

    /// Reads, changes and writes the limits under an exclusive lock (`limits.json.lock`), so two
    /// shells changing limits at once both keep their change. Returns the limits written.
    public func update(_ change: ([UsageLimit]) throws(LimitsFileError) -> [UsageLimit]) throws(LimitsFileError) -> [UsageLimit] {
        do {
            try AtomicFile.ensureDirectory(of: path)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
        }
        defer { flock(lock, LOCK_UN) }
        let changed = try change(try load())
        try save(changed)
        return changed
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
            try AtomicFile.write(Array(Self.encode(limits).utf8), to: path)
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

    /// Renames the corrupt file to the first free `.corrupt` name; nil when that fails.
    private func setAside() -> String? {
        for k in 1...100 {
            let candidate = path + (k == 1 ? ".corrupt" : ".corrupt-\(k)")
            if access(candidate, F_OK) == 0 { continue }
            return rename(path, candidate) == 0 ? candidate : nil
        }
        return nil
    }
}
