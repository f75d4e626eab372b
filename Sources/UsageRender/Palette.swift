// Palette.swift — which series an app or category belongs to, so it keeps one colour and one pattern in every chart.
import UsageCore

/// A series of a chart: one of the five ranked apps (or categories), or "other".
public struct Series: Sendable, Hashable {
    /// 0…4 for the ranked series, nil for the rest.
    public let rank: Int?

    public static let other = Series(rank: nil)

    /// Its colour: blue, yellow, green, magenta, cyan in rank order; grey for "other".
    public var color: SeriesColor { rank.map { SeriesColor.ranked[$0] } ?? .other }

    /// Its monochrome fill pattern (`█ ▓ ▒ ▚ ▞`, "other" `░`; ASCII `# = + % o`, `.`).
    public func pattern(_ glyphs: Glyphs) -> Character { glyphs.pattern(rank) }
}

/// The ranked series of one rendering, as the original app coloured its top five apps: the
/// day's five most used apps and five most used categories each get a series; every other
/// name is "other". Names compare by Unicode scalars (`é` and `e` + U+0301 are two apps).
public struct Palette: Sendable {
    /// How many series have their own colour and pattern.
    public static let rankedCount = 5

    public let apps: [String]
    public let categories: [String]

    public init(apps: [String], categories: [String]) {
        self.apps = Array(apps.prefix(Self.rankedCount))
        self.categories = Array(categories.prefix(Self.rankedCount))
    }

    /// The day's top apps and categories.
    public init(_ r: DayReport) {
        self.init(apps: r.apps.map(\.name), categories: r.categories.map(\.name))
    }

    public func app(_ name: String) -> Series { Self.series(of: name, in: apps) }
    public func category(_ name: String) -> Series { Self.series(of: name, in: categories) }

    private static func series(of name: String, in ranked: [String]) -> Series {
        Series(rank: ranked.firstIndex { $0.unicodeScalars.elementsEqual(name.unicodeScalars) })
    }
}
