// Figure.swift — a view as a picture to save (`save FILE.svg|.html`): its title, totals and sentence, and its charts and tables as plain values, made from the same models as the terminal's text and the JSON; drawn by SVGChart and HTMLReport.
import UsageCore

/// What a view shows, as a picture: the words around the charts and the charts themselves, in
/// the order the terminal shows them. Names are kept as the data has them; the drawing makes
/// them safe (`Markup`).
public struct Figure: Sendable {
    /// `Monday, February 23, 2026`, `October 2026`, `Apps · Mon 2026-02-23`.
    public var title: String
    /// A line under the title: the range's days, the zone, the device.
    public var subtitle: String?
    /// The totals line(s) (`7h 32m total · 6h 22m screen time`); the first is the headline.
    public var totals: [String]
    /// The summary sentence (`47h 44m in 7 days · 6h 49m a day on average · …`).
    public var sentence: String?
    /// The charts and tables, in order.
    public var blocks: [FigureBlock]
    public init(title: String, subtitle: String? = nil, totals: [String] = [], sentence: String? = nil, blocks: [FigureBlock] = []) {
        self.title = title
        self.subtitle = subtitle
        self.totals = totals
        self.sentence = sentence
        self.blocks = blocks
    }

    /// The blocks that are charts (what an SVG file holds).
    public var charts: [FigureBlock] { blocks.filter(\.isChart) }
}

/// One part of a figure.
public enum FigureBlock: Sendable {
    /// Shares of a whole as a ring (the day's categories).
    case donut(DonutChart)
    /// Vertical bars stacked per series on a time axis (hours of a day, days of a week).
    case columns(ColumnChart)
    /// Ranked horizontal bars (apps), or each against its own limit (`limits`).
    case bars(BarChart)
    /// Intervals on a day's clock (`today`'s sessions, an app's sessions).
    case timeline(TimelineChart)
    /// A month a week a row, each day shaded by its time (`calendar`).
    case calendar(CalendarChart)
    /// A table (the timesheet, an app's sessions, tasks due).
    case table(FigureTable)
    /// Labelled facts (`insights`).
    case facts(title: String, [(label: String, value: String)])
    /// Paragraphs (advice; `no usage recorded`).
    case text(title: String?, [String])

    /// Whether it is drawn (a chart) rather than written (a table or words).
    public var isChart: Bool {
        switch self {
        case .donut, .columns, .bars, .timeline, .calendar: return true
        case .table, .facts, .text: return false
        }
    }
}

/// A named colour of a chart and its legend entry: an app or category in the colour the session
/// gave it (the terminal's truecolor palette), or "other" in grey.
public struct FigureSeries: Sendable, Equatable {
    public let name: String
    /// 0xRRGGBB.
    public let rgb: Int
    /// The legend's value (`1h 23m`), the chart's time of the series.
    public let value: String

    public init(name: String, rgb: Int, value: String) {
        self.name = name
        self.rgb = rgb
        self.value = value
    }

    /// Not a colour: the text's ink (dark on light, light on dark), for the one series of a chart
    /// that is the whole (a range's time per day, "all apps"): never "other"'s grey, nor the
    /// colour of a name.
    public static let textInk = -1

    /// The RGB of a series of the terminal's palette, as truecolor draws it.
    public static func rgb(_ series: Series) -> Int {
        guard let slot = series.slot else { return SeriesColor.otherRGB }
        return (series.kind == .app ? SeriesColor.appsRGB : SeriesColor.categoriesRGB)[slot % SeriesColor.appsRGB.count]
    }
}

/// The ring of shares: slices clockwise from 12 o'clock, the largest first.
public struct DonutChart: Sendable {
    public struct Slice: Sendable {
        public let series: FigureSeries
        public let micros: Micros
        /// The share the JSON gives (0…1); the arc's angle is this share of the turn.
        public let share: Double
        /// `39%`.
        public let shareText: String
    }

    public let title: String
    public let slices: [Slice]
    /// The whole the shares are of.
    public let total: Micros
    /// What the hole says (`7h 32m`).
    public let centre: String
}

/// Stacked vertical bars on a time axis of round steps (the terminal's steps).
public struct ColumnChart: Sendable {
    public struct Column: Sendable {
        /// Under the bar (`09`, `Mon`); empty for none.
        public let label: String
        /// A second line under the bar (`23`, `23 Feb`).
        public let sublabel: String
        /// Per series, in `series` order (bottom first).
        public let values: [Micros]
        /// The selected day.
        public let marked: Bool
        /// What the bar is, in words, for its tooltip and a screen reader (`Mon 23 Feb: 7h 32m`).
        public let description: String
    }

    public let title: String
    /// Stacking order, bottom first, and the legend.
    public let series: [FigureSeries]
    public let columns: [Column]
    /// The axis: `steps` labelled steps of `stepMicros` each (the top is the first step at or above the tallest bar).
    public let stepMicros: Micros
    public let steps: Int
    /// A dashed line across the bars (the daily average) and its label.
    public let average: (micros: Micros, label: String)?

    public var maximum: Micros { Micros(steps) * stepMicros }

    /// `15m`, `1h`, `1h30`, as the terminal's axis.
    public func stepLabel(_ k: Int) -> String {
        BarAxis(steps: steps, stepMicros: stepMicros).label(step: k)
    }
}

/// Ranked horizontal bars: each bar's length its time against the longest (or its own limit).
public struct BarChart: Sendable {
    public struct Row: Sendable {
        /// `1.`; nil for rows without a rank.
        public let rank: Int?
        public let series: FigureSeries
        /// `Entertainment · 2 sessions`.
        public let detail: String
        public let micros: Micros
        /// `1h 23m`, as the terminal's list (its rows add up).
        public let value: String
        /// `18%`; empty for none.
        public let share: String
        /// The limit the bar is drawn against (`limits`); nil: against the longest row.
        public let limit: Micros?
        /// A note after the value (`crossed at 10:42`, `25m left`); strong when `alert`.
        public let note: String
        public let alert: Bool
        /// A browser's top sites, a line under its row in the SVG (`docs.python.org 30m ·
        /// example.org 20m · 2 more`); empty for none. The HTML report lists them in its own
        /// `Top sites` block instead, where a phone's narrow column of names is not their place.
        public let sites: String

        public init(
            rank: Int?, series: FigureSeries, detail: String = "", micros: Micros, value: String, share: String = "", limit: Micros? = nil,
            note: String = "", alert: Bool = false, sites: String = ""
        ) {
            self.rank = rank
            self.series = series
            self.detail = detail
            self.micros = micros
            self.value = value
            self.share = share
            self.limit = limit
            self.note = note
            self.alert = alert
            self.sites = sites
        }
    }

    public let title: String
    public let rows: [Row]
    /// Lines under the rows (`11 more apps 2h 28m`, `7h 32m total`).
    public let footer: [String]

    /// What a bar's full length stands for: the longest row's time.
    public var scale: Micros { max(1, rows.map(\.micros).max() ?? 1) }
}

/// Intervals on the clock of one day.
public struct TimelineChart: Sendable {
    public struct Span: Sendable {
        public let series: FigureSeries
        /// Clipped to the day.
        public let start: Micros
        public let end: Micros
        /// `09:15–10:30 Acme website (1h 15m)`.
        public let description: String
    }

    public let title: String
    /// The day's window (23, 24 or 25 hours).
    public let dayStart: Micros
    public let dayEnd: Micros
    /// The hours of the axis' ticks, at their instants (`00`, `03` … `21`).
    public let ticks: [(at: Micros, label: String)]
    public let spans: [Span]
    /// The legend: one entry per name drawn.
    public let legend: [FigureSeries]
}

/// A month's days a week a row (Monday first), each shaded by its time.
public struct CalendarChart: Sendable {
    public struct Day: Sendable {
        public let date: LocalDate
        public let micros: Micros
        /// 0 (none) to 4: the terminal's shade steps.
        public let level: Int
        public let due: Int
        public let selected: Bool
    }

    public let title: String
    public let weeks: [[Day?]]
    /// The shade steps' names (`<1h`, `1–3h`, `3–6h`, `6h+`).
    public let levels: [String]
    public let summary: String
}

/// A table: a header row, then rows of cells; `numeric` columns align right.
public struct FigureTable: Sendable {
    /// A row of its own, a group's (a category), a member of the group above (a task), the total.
    public enum RowStyle: Sendable { case plain, group, member, total }

    public let title: String
    public let header: [String]
    public let rows: [[String]]
    public let styles: [RowStyle]
    public let numeric: Set<Int>

    public init(title: String, header: [String], rows: [[String]], styles: [RowStyle]? = nil, numeric: Set<Int> = []) {
        self.title = title
        self.header = header
        self.rows = rows
        self.styles = styles ?? rows.map { _ in .plain }
        self.numeric = numeric
    }
}

extension BarAxis {
    /// An axis of known steps (a figure's, drawn again).
    init(steps: Int, stepMicros: Micros) {
        self.steps = steps
        self.stepMicros = stepMicros
        self.rowsPerStep = 1
    }
}
