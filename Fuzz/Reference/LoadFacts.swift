// Fuzz/Reference/LoadFacts.swift — what a load gave, in comparable form (sessions with names and ids as Unicode scalars, skipped rows, repaired strings, name tables, or the error), for the fuzz targets and the differential tests that compare two readers.
#if canImport(UsageCore)
    import UsageCore
#endif
#if canImport(UsageFormats)
    import UsageFormats
#endif

/// A dataset or an error, as text that compares equal exactly when the two loads agree.
public struct LoadFacts: Equatable, CustomStringConvertible {
    public var sessions: [String] = []
    public var apps: [String] = []
    /// The app names as Unicode scalars: equal strings may differ in them (canonical equivalence).
    public var appScalars: [[UInt32]] = []
    public var categories: [String] = []
    public var skipped: [String] = []
    public var repaired = 0
    /// How the sessions are known, and times read in a zone.
    public var notes: [String] = []
    public var error: IngestError?

    public init(_ result: Result<Dataset, IngestError>) {
        switch result {
        case .failure(let e): error = e
        case .success(let d):
            sessions = d.sessions.indices.map { k in
                let s = d.sessions[k]
                let o = d.sessions.offsets(at: k)
                return "\(s.start) \(s.end) \(d.apps[Int(s.app)].unicodeScalars.map(\.value)) \(d.categories[Int(s.category)]) \(s.id.map { Array($0.unicodeScalars.map(\.value)) } as Any)"
                    + " \(o.start as Any)/\(o.end as Any)\(s.running ? " running" : "")"
            }
            notes = ["\(d.identity)"] + d.parts.map { "\($0.localTimes as Any)" }
            apps = d.apps
            appScalars = d.apps.map { $0.unicodeScalars.map(\.value) }
            categories = d.categories
            skipped = SkipReason.allCases.map { reason in
                "\(reason.rawValue) \(d.skipped.count(reason)) "
                    + (d.skipped.examples[reason] ?? []).map { "\($0.sessionID.map { Array($0.unicodeScalars.map(\.value)) } as Any)@\($0.line.map(String.init) ?? "-")" }
                    .joined(separator: ",")
            }
            repaired = d.repairedStrings
        }
    }

    /// The same facts but for the repaired count.
    public func ignoringRepaired() -> LoadFacts {
        var copy = self
        copy.repaired = 0
        return copy
    }

    public var description: String {
        if let error { return "error: \(error)" }
        return "\(sessions.count) sessions \(sessions.prefix(3)) skipped \(skipped.filter { !$0.hasSuffix(" 0 ") }) repaired \(repaired)"
    }
}
