// Palette.swift — which series an app or category is on a chart, and its colour for the whole session: the colours are handed out once from the loaded data (SeriesColors), so a name keeps its colour on every chart and names that share a chart never share one.
import UsageCore

/// Whether a series is an app or a category: the two kinds draw from palettes of their own, so
/// an app and a category never share a colour.
public enum SeriesKind: Sendable, Hashable {
    case app
    case category
}

/// A series of a chart: one of the ranked apps (or categories) of what the chart shows, or "other".
public struct Series: Sendable, Hashable {
    /// 0…4 for the ranked series, nil for the rest: the monochrome pattern.
    public let rank: Int?
    public let kind: SeriesKind
    /// The colour slot of the name in its kind's palette (`SeriesColors`); nil: "other".
    public let slot: Int?

    public init(rank: Int?, kind: SeriesKind, slot: Int?) {
        self.rank = rank
        self.kind = kind
        self.slot = slot
    }

    /// A series coloured by its rank (the first app the first app colour), as a chart drawn on
    /// its own colours it.
    public init(rank: Int?, kind: SeriesKind) {
        self.init(rank: rank, kind: kind, slot: rank.map { $0 % SeriesColors.slots })
    }

    public static let other = Series(rank: nil, kind: .app)

    /// Its colour at the theme's depth; nil without colour.
    public func color(_ theme: Theme) -> SeriesColor? {
        guard let depth = theme.depth else { return nil }
        return SeriesColor.palette(kind, depth: depth, slot: slot)
    }

    /// Its monochrome fill pattern (`█ ▓ ▒ ▌ ▚`, "other" `░`; ASCII `# = + % o`, `.`).
    public func pattern(_ glyphs: Glyphs) -> Character { glyphs.pattern(rank) }

    /// Whether its pattern is the solid block, whose partial cells are the eighth blocks.
    public func isSolid(_ glyphs: Glyphs) -> Bool { !glyphs.isASCII && pattern(glyphs) == "█" }
}

/// The series of one rendering, as the original app coloured its top five apps: the five most
/// used apps and five most used categories of what is shown (six when there are exactly six)
/// each get a series, in the colour the session gave the name (`SeriesColors`); every other
/// name is "other". Names compare by Unicode
/// scalars (`é` and `e` + U+0301 are two apps).
public struct Palette: Sendable {
    /// How many series have their own colour and pattern.
    public static let rankedCount = SeriesLeaders.count

    public let apps: [String]
    public let categories: [String]
    /// The session's colours.
    public let colors: SeriesColors

    /// The ranked names of a chart with the session's colours; without them, colours by rank
    /// (a rendering on its own, as in tests: the first app gets the first app colour).
    public init(apps: [String], categories: [String], colors: SeriesColors? = nil) {
        self.apps = SeriesLeaders.shown(apps)
        self.categories = SeriesLeaders.shown(categories)
        self.colors = colors ?? SeriesColors(apps: self.apps, categories: self.categories)
    }

    /// The day's top apps and categories.
    public init(_ r: DayReport, colors: SeriesColors? = nil) {
        self.init(apps: r.apps.map(\.name), categories: r.categories.map(\.name), colors: colors)
    }

    public func app(_ name: String) -> Series {
        let rank = Self.rank(of: name, in: apps)
        return Series(rank: rank, kind: .app, slot: rank.map { colors.app(name) ?? $0 })
    }

    public func category(_ name: String) -> Series {
        let rank = Self.rank(of: name, in: categories)
        return Series(rank: rank, kind: .category, slot: rank.map { colors.category(name) ?? $0 })
    }

    /// A single app drawn alone (`app NAME`'s hours): the solid pattern in its own colour,
    /// whether or not it is one of the day's top five; in "other"'s when the session gave it none.
    public func alone(app name: String) -> Series {
        Series(rank: 0, kind: .app, slot: colors.app(name))
    }

    private static func rank(of name: String, in ranked: [String]) -> Int? {
        ranked.firstIndex { $0.sameScalars(as: name) }
    }
}

/// The colour slot of every app and category that leads a chart, handed out once per session
/// (per load, zone and category rules) from the whole data, like the colouring of a map:
/// categories and apps each from a palette of their own of `slots` colours, each name taking
/// the slot that clashes least with the names already coloured (`assign`). Two names clash
/// when they can be series on one chart: one day's top five apps, one day's top five
/// categories, the top five categories of a week or of 10 days (`SeriesLeaders`); categories
/// also spread over the slots when there are few enough. A clash is left only where the data's
/// groups cannot be coloured apart with eight colours a kind.
public struct SeriesColors: Sendable {
    /// Colours per kind: six for the series of one chart, two more for data that needs them.
    public static let slots = 8
    private let apps: [ExactName: Int]
    private let categories: [ExactName: Int]

    /// The colours of a whole history's leaders.
    public init(_ leaders: SeriesLeaders, appNames: [String], categoryNames: [String]) {
        apps = Self.assign(order: leaders.apps, groups: leaders.appGroups.map { ($0, Self.clash) }, spread: false, names: appNames)
        categories = Self.assign(
            order: leaders.categories, groups: leaders.categoryGroups.map { ($0, Self.clash) } + leaders.stretchGroups.map { ($0, Self.stretchClash) },
            spread: true, names: categoryNames)
    }

    /// Colours by rank for names shown on their own (the first app the first app colour…).
    public init(apps: [String], categories: [String]) {
        self.apps = Dictionary(apps.enumerated().map { (ExactName($1), $0 % Self.slots) }) { first, _ in first }
        self.categories = Dictionary(categories.enumerated().map { (ExactName($1), $0 % Self.slots) }) { first, _ in first }
    }

    /// The app's slot; nil when it leads no chart of the session.
    public func app(_ name: String) -> Int? { apps[ExactName(name)] }
    /// The category's slot; nil when it leads no chart of the session.
    public func category(_ name: String) -> Int? { categories[ExactName(name)] }

    /// A clash on one day's charts weighs this much against a spread pair of categories; one on
    /// a week's or 10 days' chart less, so that where not every clash can be avoided the days'
    /// screens are kept apart first.
    static let clash = 1000
    static let stretchClash = 30
    /// Categories spread over the slots only among the first this many (their pairs are squared).
    static let spreadLimit = 64

    /// Colours the names like a map (DSatur): the name whose day-chart mates already hold the
    /// most different slots goes next (then the one whose chart mates of any kind do; then the
    /// most used), taking the slot of least weight — the groups it shares with names of that
    /// slot, by their weight, and one for every other spread name there — the lowest of equal
    /// weight. Then names left clashing try the other slots, while that lowers the clashes.
    /// Names in no group and not spread get no slot.
    static func assign(order: [Int32], groups: [([Int32], Int)], spread: Bool, names: [String]) -> [ExactName: Int] {
        var together: [Int32: [Int32: Int]] = [:]
        for (group, weight) in groups {
            for a in group {
                for b in group where a != b { together[a, default: [:]][b, default: 0] += weight }
            }
        }
        let spreadSet = spread ? Set(order.prefix(spreadLimit)) : []
        let ids = order.filter { together[$0] != nil || spreadSet.contains($0) }
        let rank = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        var slot: [Int32: Int] = [:]
        func weight(_ id: Int32, _ s: Int) -> Int {
            var w = 0
            for (other, together) in together[id] ?? [:] where slot[other] == s { w += together }
            if spreadSet.contains(id) { for other in spreadSet where other != id && slot[other] == s { w += 1 } }
            return w
        }
        func bestSlot(_ id: Int32) -> Int {
            (0..<slots).min { (weight(id, $0), $0) < (weight(id, $1), $1) }!
        }
        /// The different slots among its mates, counting mates of at least `least` weight.
        func saturation(_ id: Int32, least: Int) -> Int {
            Set((together[id] ?? [:]).compactMap { $0.value >= least ? slot[$0.key] : nil }).count
        }
        var left = Set(ids)
        while !left.isEmpty {
            let next = left.max { a, b in
                (saturation(a, least: clash), saturation(a, least: 1), -rank[a]!) < (saturation(b, least: clash), saturation(b, least: 1), -rank[b]!)
            }!
            slot[next] = bestSlot(next)
            left.remove(next)
        }
        // Repair: a name still clashing moves to a slot of less weight, while any does.
        for _ in 0..<8 {
            var moved = false
            for id in ids where weight(id, slot[id]!) >= stretchClash {
                let best = bestSlot(id)
                if weight(id, best) < weight(id, slot[id]!) {
                    slot[id] = best
                    moved = true
                }
            }
            if !moved { break }
        }
        return Dictionary(slot.map { (ExactName(names[Int($0.key)]), $0.value) }) { first, _ in first }
    }
}
