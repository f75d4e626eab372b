// LoadedSession.swift — a loaded dataset as plain values (names resolved), for comparing whole loads in the format, data and rules tests.
import UsageCore
import UsageFormats

/// A loaded session as plain values, for comparing whole datasets.
public struct LoadedSession: Equatable, CustomStringConvertible {
    public var start: Micros
    public var end: Micros
    public var app: String
    public var category: String
    public var id: String?

    public init(_ start: String, _ end: String, _ app: String, _ category: String, id: String? = nil) {
        self.start = instant(start)
        self.end = instant(end)
        self.app = app
        self.category = category
        self.id = id
    }

    public init(start: Micros, end: Micros, app: String, category: String, id: String?) {
        self.start = start
        self.end = end
        self.app = app
        self.category = category
        self.id = id
    }

    public var description: String { "\(start)…\(end) \(app.debugDescription)/\(category.debugDescription) id=\(id.debugDescription)" }
}

extension Dataset {
    /// Every session in dataset order, names resolved.
    public var loaded: [LoadedSession] {
        sessions.indices.map { k in
            let s = sessions[k]
            return LoadedSession(
                start: s.start, end: s.end, app: apps[Int(s.app)], category: categories[Int(s.category)], id: s.id)
        }
    }

    /// The example lines kept for one skip reason.
    public func skippedLines(_ reason: SkipReason) -> [Int?] { skipped.examples[reason, default: []].map(\.line) }
}

