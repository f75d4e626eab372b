// MergedHistory.swift — several histories shown as one (`load store activitywatch`): names unified once, each window the merge of the parts' windows, so a store in a merge is still read by window.

/// Histories merged: what `Dataset.merging` does for datasets held whole, for histories that
/// read by window (a store) beside others. Sessions that tie keep the parts' order.
public final class MergedHistory: SessionHistory {
    public let source: String
    public let apps: [String]
    public let categories: [String]
    public let sessionCount: Int
    public let span: (start: Micros, end: Micros)?
    public let latestStart: Micros?
    public let skipped: SkipSummary
    public let repairedStrings: Int
    public let parts: [SourcePart]
    private let members: [any SessionHistory]
    /// Per member: its app ids → the merged ids (and the same for categories).
    private let appMaps: [[Int32]]
    private let categoryMaps: [[Int32]]

    public init(_ members: [any SessionHistory], source: String) {
        precondition(!members.isEmpty, "at least one history")
        var apps = NameTable(normalise: Normalise.appName)
        var categories = NameTable(normalise: Normalise.category)
        var skipped = SkipSummary()
        var parts: [SourcePart] = []
        appMaps = members.map { $0.apps.map { apps.intern($0) } }
        categoryMaps = members.map { $0.categories.map { categories.intern($0) } }
        for member in members {
            skipped.merge(member.skipped, source: members.count > 1 ? member.source : nil)
            parts += member.parts.map { part in
                var tagged = part
                tagged.skipped = SkipSummary()
                tagged.skipped.merge(part.skipped, source: part.source)
                return tagged
            }
        }
        let spans = members.compactMap(\.span)
        self.source = source
        self.members = members
        self.apps = apps.names
        self.categories = categories.names
        self.sessionCount = members.reduce(0) { $0 + $1.sessionCount }
        self.span = spans.isEmpty ? nil : (spans.map(\.start).min()!, spans.map(\.end).max()!)
        self.latestStart = members.compactMap(\.latestStart).max()
        self.skipped = skipped
        self.repairedStrings = members.reduce(0) { $0 + $1.repairedStrings }
        self.parts = parts
    }

    public func window(from: Micros, to: Micros, ids: Bool) -> SessionWindow {
        merged(from: from, to: to) { $0.window(from: from, to: to, ids: ids) }
    }

    /// The members' uncached windows merged: a store member keeps none of it.
    public func uncachedWindow(from: Micros, to: Micros) -> SessionWindow {
        merged(from: from, to: to) { $0.uncachedWindow(from: from, to: to) }
    }

    /// The windows `read` gives of each member, in merged ids and start order.
    private func merged(from: Micros, to: Micros, _ read: (any SessionHistory) -> SessionWindow) -> SessionWindow {
        var columns = SessionColumns()
        for (k, member) in members.enumerated() {
            let window = read(member)
            for s in window {
                columns.append(
                    start: s.sessionStart, end: s.sessionEnd, app: appMaps[k][Int(s.app)], category: categoryMaps[k][Int(s.category)],
                    id: window.id(of: s))
            }
        }
        let sorted = columns.sortedByStart()
        return SessionWindow(columns: sorted, candidates: 0..<sorted.count, from: from, to: to)
    }

    public func latestCategory(ofApp app: Int32) -> Int32? {
        // The member whose latest session of the app is the latest overall is unknown without
        // starts; the last member that has the app answers (members are in the order loaded).
        for (k, member) in members.enumerated().reversed() {
            guard let local = appMaps[k].firstIndex(of: app), let category = member.latestCategory(ofApp: Int32(local)) else { continue }
            return categoryMaps[k][Int(category)]
        }
        return nil
    }

    /// Each member's totals added by name: a store in a merge still answers from its own.
    public func rangeTotals(_ bounds: DayBounds, detail: Bool) -> RangeTotals {
        RangeTotals.adding(members.map { $0.rangeTotals(bounds, detail: detail) })
    }

    public func applyingRules(_ categoryOf: (String) -> String?) -> any SessionHistory {
        MergedHistory(members.map { $0.applyingRules(categoryOf) }, source: source)
    }

    public func takeReadFailure() -> String? {
        members.lazy.compactMap { $0.takeReadFailure() }.first
    }

    /// Each member's reads as one, nested.
    public func readingAsOne<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        func nest(_ k: Int) throws(E) -> T {
            guard k < members.count else { return try body() }
            return try members[k].readingAsOne { () throws(E) -> T in try nest(k + 1) }
        }
        return try nest(0)
    }
}
