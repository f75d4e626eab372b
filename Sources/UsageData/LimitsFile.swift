// LimitsFile.swift — the daily limits on disk: `$XDG_CONFIG_HOME/usage-shell/limits.json`, changed under a lock and written atomically (an OwnedFile); a corrupt file is set aside, never lost, an unreadable one left alone.
import Foundation
import UsageCore

/// `{"limits":[{"app":"Safari","seconds":1800},{"category":"Social","seconds":3600}]}`.
public struct LimitsFile: Sendable {
    public var path: String { file.path }
    var file: OwnedFile<[UsageLimit]>

    public init(path: String) {
        file = OwnedFile(
            kind: .limits, path: path, empty: { [] },
            decode: { bytes in
                do throws(Problem) {
                    return .success(try Self.decode(bytes))
                } catch {
                    return .failure(.init(error.problem))
                }
            },
            encode: { Array(Self.encode($0).utf8) })
    }

    /// `$XDG_CONFIG_HOME/usage-shell/limits.json` (an absolute XDG_CONFIG_HOME), else
    /// `~/.config/usage-shell/limits.json`; nil without a home.
    public static func defaultPath(environment: [String: String]) -> String? {
        AtomicFile.xdgPath("limits.json", variable: "XDG_CONFIG_HOME", fallback: ".config", environment: environment)
    }

    /// The system calls of a save (tests make one fail).
    var steps: AtomicFile.Steps {
        get { file.steps }
        set { file.steps = newValue }
    }

    /// The limits read, and the corrupt file set aside on the way (`.corrupt`), if any.
    public struct Loaded: Equatable, Sendable {
        public let limits: [UsageLimit]
        public let setAside: OwnedFileError?
    }

    /// The stored limits, none when there is no file yet. A corrupt file is renamed aside
    /// (`limits.json.corrupt`, `.corrupt-2`, …; under the lock) and limits start empty; when it
    /// cannot be moved it is left in place and this fails. Never writes the file.
    public func load() throws(OwnedFileError) -> Loaded {
        let loaded = try file.load()
        return Loaded(limits: loaded.value, setAside: loaded.setAside)
    }

    /// Reads, changes and writes the limits under an exclusive lock (`limits.json.lock`), so two
    /// shells changing limits at once both keep their change. Returns the limits written (and
    /// a corrupt file set aside before, if any).
    public func update(_ change: ([UsageLimit]) -> [UsageLimit]) throws(OwnedFileError) -> Loaded {
        do {
            let written = try file.update { (limits: [UsageLimit]) throws(Never) in change(limits) }
            return Loaded(limits: written.value, setAside: written.setAside)
        } catch {
            switch error {
            case .file(let failure): throw failure
            case .change(let never): switch never {}
            }
        }
    }

    /// The stored limits for completion: nothing when the file is missing or bad (it is left as
    /// it is; the next limits command reports it).
    public func peek() -> [UsageLimit] {
        file.peek() ?? []
    }

    /// Writes the limits atomically.
    public func save(_ limits: [UsageLimit]) throws(OwnedFileError) {
        try file.save(limits)
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
            let named = ["app", "category", "site"].filter { fields[$0] != nil }
            if named == ["app"], let app = fields["app"] as? String {
                limits.append(UsageLimit(target: .app(app), micros: micros))
            } else if named == ["category"], let category = fields["category"] as? String {
                limits.append(UsageLimit(target: .category(category), micros: micros))
            } else if named == ["site"], let site = (fields["site"] as? String).flatMap(SitePattern.init) {
                limits.append(UsageLimit(target: .site(site.description), micros: micros))
            } else {
                throw Problem(problem: "limit \(k + 1) names neither one \"app\" nor one \"category\" nor one \"site\"")
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
            case .site: key = "site"
            }
            let seconds = limit.micros % 1_000_000 == 0 ? String(limit.micros / 1_000_000) : String(Double(limit.micros) / 1e6)
            return "    {\"\(key)\": \(quoted(limit.target.name)), \"seconds\": \(seconds)}"
        }
        return "{\"limits\": [\n" + rows.joined(separator: ",\n") + (rows.isEmpty ? "" : "\n") + "]}\n"
    }
}
