// Palette.swift — which series an app or category belongs to, so it keeps one colour and one pattern in every chart.
import UsageCore

/// Whether a series is an app or a category: the two kinds take their colours in different
/// orders, so that on one screen the top app and the top category never share a colour.
public enum SeriesKind: Sendable, Hashable {
    case app
    case category
}

/// A series of a chart: one of the five ranked apps (or categories), or "other".
public struct Series: Sendable, Hashable {
    /// 0…4 for the ranked series, nil for the rest.
    public let rank: Int?
    public let kind: SeriesKind

    public init(rank: Int?, kind: SeriesKind) {
        self.rank = rank
        self.kind = kind
    }

    public static let other = Series(rank: nil, kind: .app)

    /// Its colour (see `SeriesColor.apps` and `.categories`); grey for "other".
    public var color: SeriesColor {
        guard let rank else { return .other }
        return (kind == .app ? SeriesColor.apps : SeriesColor.categories)[rank]
    }

    /// Its monochrome fill pattern (`█ ▓ ▒ ▌ ▚`, "other" `░`; ASCII `# = + % o`, `.`).
    public func pattern(_ glyphs: Glyphs) -> Character { glyphs.pattern(rank) }

    /// Whether its pattern is the solid block, whose partial cells are the eighth blocks.
    public func isSolid(_ glyphs: Glyphs) -> Bool { !glyphs.isASCII && pattern(glyphs) == "█" }
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

    public func app(_ name: String) -> Series { Self.series(of: name, in: apps, kind: .app) }
    public func category(_ name: String) -> Series { Self.series(of: name, in: categories, kind: .category) }

    private static func series(of name: String, in ranked: [String], kind: SeriesKind) -> Series {
        Series(rank: ranked.firstIndex { $0.sameScalars(as: name) }, kind: kind)
    }
}
