// UsageViewModel.swift — the state the shell wraps, as the original app's view model: load state, the loaded history, selected day and chart, the reports already made.
import Dispatch
import Synchronization
import UsageCore
import UsageFormats
import UsageData
import UsageStore

/// Which chart the day screen shows (the original's segmented control).
public enum ChartKind: String, CaseIterable, Sendable {
    case category
    case hourly
}

/// Where loading stands. The history itself is kept apart, so a failure never loses it.
public enum LoadState: Equatable, Sendable {
    /// Nothing asked yet.
    case idle
    /// A load of this source is under way.
    case loading(SourceRef)
    /// The last load succeeded.
    case loaded
    /// The last load failed; the previous dataset is still there and `retry` runs the load again.
    case failed(LoadError)
}

/// A load that has been started; finishing it with a stale ticket does nothing.
public struct LoadTicket: Sendable {
    public let source: SourceRef
    public let generation: Int
    public let cancellation: CancellationToken
    /// The sources as they will be kept for refreshes, when the view model made the repository.
    let live: LiveSources?
}

/// The view model: one history of sessions, the load state, the selected day, zone and chart,
/// and the report derived from them (computed once per history, day and zone). It holds the
/// history through `SessionHistory`, so reports read a file's dataset and a store alike.
public final class UsageViewModel {
    public private(set) var state: LoadState = .idle
    /// The last history that loaded successfully (empty before any), category rules applied.
    public private(set) var history: any SessionHistory = Dataset.empty
    /// The same history as it loaded, before category rules (what `rules` measures against).
    public private(set) var rawHistory: any SessionHistory = Dataset.empty
    /// The category rules: the category for an app's uncategorised sessions, or nil.
    public private(set) var rules: ((String) -> String?)?
    /// The source of `history`, or `nil` before any successful load.
    public private(set) var loadedSource: SourceRef?
    /// What `retry` loads: the source of the last failed load.
    public private(set) var retrySource: SourceRef?
    /// What `retry` imports instead: the import Ctrl-C cancelled at the prompt, until it runs
    /// or a load fails after it (`retry` runs the latest failure).
    public internal(set) var retryImport: ImportRequest?
    /// The zone days are cut in. The bundled sample, kept in wall-clock time, is placed anew
    /// when the zone changes.
    public var zone: Zone {
        didSet {
            if zone != oldValue, loadedSource == .sample, !isLoading { placeSampleAgain() }
            // Another zone's today is no midnight passing.
            if zone != oldValue { follow.reset(today: today) }
        }
    }
    /// How long a load waits for a silent stream (a pipe, a FIFO, an HTTP body), in seconds.
    public var timeout: Double = StreamLimits.defaultTimeout
    /// Where the store is (`load store`); nil when there is no home to keep one in.
    public var store: StoreLocation?
    /// The process's open stores, which a load opens the store through (the shell gives its own).
    public var stores = OpenStores()
    /// The device whose sessions the store gives (`device NAME`); nil: every device's, merged.
    public var device: String?
    /// The zone a CSV's times without an offset are read in (`--data-tz`); nil: the selected zone.
    public var dataZone: Zone?
    /// Which CSV column holds which field, where the header's names do not say (`--columns`).
    public var columns = ColumnMapping()
    /// The chart `show` draws first, and `chart` alone draws.
    public var chart: ChartKind = .category
    /// What the hourly chart stacks: the top apps (as the original did) or the top categories.
    public var hourlyBy: HourlyStack = .app
    /// The day a calendar week begins on (`set week-start`, `--week-start`): `week`, a RANGE's
    /// `week`, `sessions week`, the timesheet and the calendar count from it.
    public var weekStart: WeekStart = .monday
    /// The month `calendar` showed last (`calendar next` steps from it), as the selected day is
    /// the one `day` chose.
    var calendarMonth: CalendarMonth?

    private let now: () -> Micros
    /// How the selected day was chosen (`day`, `--day`), and the clock it follows.
    public private(set) var selection: DaySelection = .automatic
    private var follow = DayFollow()
    /// The loaded sources, kept to be read again cheaply (`watch`); nil when a test handed the
    /// load its own repository.
    public private(set) var live: LiveSources?
    private var generation = 0
    private var historyGeneration = 0

    /// Changes whenever the history does (a load, the category rules): caches built from the
    /// history (the session's colours) are keyed by it.
    public var historyVersion: Int { historyGeneration }
    private var current: LoadTicket?
    private var made = MadeReports()
    /// How many day reports have been computed (not read from the cache): the cache's test counts on it.
    private(set) var reportsComputed = 0

    /// What has been computed for one history in one zone, by day: what `day`, `week`, `days`
    /// and `insights` ask for again and again as the selected day moves. A new load, new rules
    /// or another zone start it afresh; each kind is emptied when it grows past a bound.
    private struct MadeReports {
        var history = -1
        var zone: Zone?
        var reports: [LocalDate: DayReport] = [:]
        var summaries: [LocalDate: DaySummary] = [:]
        var insights: [LocalDate: Insights] = [:]

        static let maxReports = 400
        static let maxSummaries = 2000
        static let maxInsights = 64
    }

    /// A view model in `zone`; `now` is the injected clock (docs/DATA.md §3's "today" when there is no data).
    public init(zone: Zone, now: @escaping () -> Micros) {
        self.zone = zone
        self.now = now
    }

    // MARK: Loading

    /// Starts a load: cancels any load still running (a newer load supersedes it) and enters `loading`.
    public func beginLoad(_ source: SourceRef, live: LiveSources? = nil) -> LoadTicket {
        current?.cancellation.cancel()
        generation += 1
        let ticket = LoadTicket(source: source, generation: generation, cancellation: CancellationToken(), live: live)
        current = ticket
        state = .loading(source)
        return ticket
    }

    /// Applies a load's result if its ticket is still the current one; returns whether it was applied.
    /// Success replaces the history; failure keeps it and remembers the source for `retry`.
    @discardableResult
    public func finishLoad(_ ticket: LoadTicket, with result: Result<any SessionHistory, LoadError>) -> Bool {
        guard ticket.generation == generation, current != nil else { return false }
        current = nil
        switch result {
        case .success(let loaded):
            rawHistory = loaded
            history = rules.map { loaded.applyingRules($0) } ?? loaded
            historyGeneration += 1
            loadedSource = ticket.source
            live = ticket.live
            retrySource = nil
            state = .loaded
            if let day = chosenDay, let range = loaded.dayRange(in: zone), !range.contains(day) {
                selection = .automatic
            }
            follow.reset(today: today)
        case .failure(let error):
            retrySource = ticket.source
            retryImport = nil
            state = .failed(error)
        }
        return true
    }

    /// Loads a source through its repository; the presenter runs the work (at once by default,
    /// beside a spinner at a terminal) and may cancel it. `seen` is what the command saw of the
    /// store when it looked before the load (nil: it did not), so that the load does not look again.
    @discardableResult
    public func load(
        _ source: SourceRef, repository: (any HistoryRepository)? = nil,
        presenter: any LoadPresenter = DirectLoadPresenter(), seen: StoreProbe? = nil
    ) -> Result<any SessionHistory, LoadError> {
        let made =
            repository == nil
            ? LiveSources(source, zone: zone, timeout: timeout, options: readOptions, store: store, stores: stores, device: device, seen: seen) : nil
        let ticket = beginLoad(source, live: made)
        let repo: any HistoryRepository = repository ?? made!
        let cancellation = ticket.cancellation
        let result = presenter.present(source, cancellation: cancellation) { progress in
            Result { () throws(LoadError) in try repo.openHistory(cancellation: cancellation, progress: progress) }
        }
        finishLoad(ticket, with: result)
        return result
    }

    /// What the readers of a load are given: the clock (a running interval counts up to it),
    /// the zone of times without an offset, and the CSV column names.
    public var readOptions: ReadOptions {
        ReadOptions(now: now(), localZone: dataZone ?? zone, columns: columns)
    }

    /// Re-reads the bundled sample for a new zone. This is no user load: a failed load's
    /// `retry` and error state survive it.
    private func placeSampleAgain() {
        let (savedState, savedRetry) = (state, retrySource)
        guard case .success = load(.sample) else { return }
        if case .failed = savedState {
            state = savedState
            retrySource = savedRetry
        }
    }

    /// Sets the category rules and applies them to the loaded data at once.
    public func setRules(_ rules: ((String) -> String?)?) {
        self.rules = rules
        guard hasData else { return }
        history = rules.map { rawHistory.applyingRules($0) } ?? rawHistory
        historyGeneration += 1
    }

    /// Whether a load is under way.
    public var isLoading: Bool { current != nil }

    /// Cancels the load under way, if any (for Ctrl-C once the interactive shell handles it).
    public func cancelLoad() {
        current?.cancellation.cancel()
    }

    /// Puts a refreshed history of the same source in place (`watch`): the category rules
    /// applied as at the load, the day as chosen (a refresh is no new load).
    public func replaceHistory(_ refreshed: any SessionHistory) {
        rawHistory = refreshed
        history = rules.map { refreshed.applyingRules($0) } ?? refreshed
        historyGeneration += 1
    }

    /// Whether the loaded data is live or stored (ActivityWatch, a URL, the store, tracked
    /// time): with no day chosen, its day follows the clock past midnight.
    public var isLive: Bool { loadedSource?.isLive ?? false }

    // MARK: Selection

    /// Whether any load has succeeded.
    public var hasData: Bool { loadedSource != nil }

    /// The selected day: the one chosen with `day` (today's date when it was given as
    /// `today`), else docs/DATA.md §3's default (on live data, followed past midnight).
    public var selectedDay: LocalDate {
        switch selection {
        case .automatic: return follow.automaticDay(dataDefault: history.defaultDay(in: zone, now: now()))
        case .today: return today
        case .fixed(let day): return day
        }
    }

    /// The day chosen with `day` or `--day` (today's, when given as `today`), nil while the default applies.
    public var chosenDay: LocalDate? {
        switch selection {
        case .automatic: return nil
        case .today: return today
        case .fixed(let day): return day
        }
    }

    /// Reads the clock: at midnight, `today` moves on, and so does a live source's day shown
    /// as today (`DayFollow`). Returns whether the selected day moved. Called before each
    /// command and prompt, and at each `watch` tick.
    @discardableResult
    public func followClock() -> Bool {
        let shown = selectedDay
        return follow.observe(today: today, selection: selection, live: isLive, shown: shown)
    }

    /// Today in the selected zone, by the injected clock.
    public var today: LocalDate { zone.localDate(of: now()) }

    /// Selects the day a query means; `nil` (and no change) when that day is outside
    /// `LocalDate.supported`.
    @discardableResult
    public func select(_ query: DayQuery) -> LocalDate? {
        let day = query.resolve(today: today, selected: selectedDay, dataRange: history.dayRange(in: zone))
        guard LocalDate.supported.contains(day) else { return nil }
        selection = query == .relativeToToday(0) ? .today : .fixed(day)
        follow.reset(today: today)
        return day
    }

    /// Drops the reports computed so far (their history failed a read while they were made).
    public func forgetReports() {
        made = MadeReports()
    }

    /// The cache, emptied first when the history or the zone it was made for has changed.
    private func validReports() {
        if made.history != historyGeneration || made.zone != zone {
            made = MadeReports(history: historyGeneration, zone: zone)
        }
    }

    /// The report of the selected day, computed once per (history, day, zone).
    public var report: DayReport { report(for: selectedDay) }

    /// The report of any day, through the same cache.
    public func report(for day: LocalDate) -> DayReport {
        reports(for: [day])[0]
    }

    /// The reports of several days (in the order given), those not made yet read as one window.
    public func reports(for days: [LocalDate]) -> [DayReport] {
        validReports()
        let missing = days.filter { made.reports[$0] == nil }
        if !missing.isEmpty {
            reportsComputed += missing.count
            if made.reports.count + missing.count > MadeReports.maxReports { made.reports = [:] }
            if missing.count == 1 {
                made.reports[missing[0]] = DayReport(history: history, date: missing[0], zone: zone)
            } else {
                // Read as one window, the days shared out between two threads.
                let covering = history.window(
                    from: zone.startOfDay(missing.min()!), to: zone.startOfDay(missing.max()!.adding(days: 1)))
                let (history, zone) = (self.history, self.zone)
                let reports = MadeInParallel.onTwoThreads(missing.count) { k in
                    DayReport(history: history, date: missing[k], zone: zone, within: covering)
                }
                for (day, report) in zip(missing, reports) { made.reports[day] = report }
            }
        }
        return days.map { made.reports[$0]! }
    }

    /// The summaries of the `count` days ending on `last`, oldest first (`week`, `days`): from
    /// the day reports already made, else made (lean) and kept.
    public func summaries(endingOn last: LocalDate, count: Int) -> [DaySummary] {
        validReports()
        let days = (0..<count).reversed().map { last.adding(days: -$0) }
        for day in days where made.summaries[day] == nil {
            if let report = made.reports[day] { made.summaries[day] = DaySummary(report) }
        }
        let missing = days.filter { made.summaries[$0] == nil }
        if !missing.isEmpty {
            if made.summaries.count + missing.count > MadeReports.maxSummaries { made.summaries = [:] }
            // Read as one window (a store's server reads it in halves at once); many days
            // (`days 31`) summed in two halves on two threads.
            let halves = missing.count >= 8 ? [Array(missing[..<(missing.count / 2)]), Array(missing[(missing.count / 2)...])] : [missing]
            let (categories, zone) = (history.categories, self.zone)
            let covering = history.window(from: zone.startOfDay(missing.min()!), to: zone.startOfDay(missing.max()!.adding(days: 1)))
            let summaries = MadeInParallel.onTwoThreads(halves.count) { h in
                DaySummary.summaries(of: halves[h], categories: categories, within: covering, zone: zone)
            }
            for summary in summaries.joined() { made.summaries[summary.day] = summary }
        }
        return days.map { made.summaries[$0]! }
    }

    /// The app time of each of the `count` days ending on `last`, oldest first: what `week`,
    /// `days N` and `month` compare with (the days before them). From the summaries kept, else
    /// the history's range totals (a store's from the totals it keeps, reading no session).
    public func dailyTotals(endingOn last: LocalDate, count: Int) -> [Micros] {
        validReports()
        let days = (0..<count).reversed().map { last.adding(days: -$0) }
        let kept = days.compactMap { made.summaries[$0]?.totalMicros }
        if kept.count == count { return kept }
        return history.rangeTotals(DayBounds(days[0]...last, zone: zone), detail: false).days
    }

    /// The facts of the week ending on `last` (kept, as `day` keeps the selected day's): from
    /// the last day's report and each day's totals — a report's when it is made already, else
    /// made in one lean pass (no hours), the days shared out between two threads. Their
    /// summaries are kept for `week` and `days N`.
    public func insights(endingOn last: LocalDate) -> Insights {
        validReports()
        if let insights = made.insights[last] { return insights }
        let days = (0..<7).reversed().map { last.adding(days: -$0) }
        let week = Insights.week(endingOn: last, history: history, zone: zone)
        let lastReport = report(for: last)
        var totals = days.map { made.reports[$0].map(DayTotals.init) }
        let missing = days.indices.filter { totals[$0] == nil }
        if !missing.isEmpty {
            let (history, zone) = (self.history, self.zone)
            let lean = MadeInParallel.onTwoThreads(missing.count) { k in
                DayTotals.of(days[missing[k]], history: history, within: week, zone: zone)
            }
            for (k, day) in zip(missing, lean) { totals[k] = day }
        }
        let insights = Insights(history: history, week: week, days: totals.map { $0! }, lastReport: lastReport)
        if made.summaries.count + days.count > MadeReports.maxSummaries { made.summaries = [:] }
        for day in insights.days where made.summaries[day.day] == nil { made.summaries[day.day] = day }
        if made.insights.count >= MadeReports.maxInsights { made.insights = [:] }
        made.insights[last] = insights
        return insights
    }
}

/// Values (day reports, a day's totals, summaries) made on two threads, each into its own slot.
private final class MadeInParallel<Value: Sendable>: Sendable {
    private let slots: Mutex<[Value?]>

    private init(count: Int) { slots = Mutex([Value?](repeating: nil, count: count)) }

    /// `make(k)` for each k below `count`, shared out between two threads, in order of k.
    static func onTwoThreads(_ count: Int, _ make: @Sendable (Int) -> Value) -> [Value] {
        let made = MadeInParallel(count: count)
        DispatchQueue.concurrentPerform(iterations: min(2, count)) { worker in
            for k in stride(from: worker, to: count, by: 2) {
                let value = make(k)
                made.slots.withLock { $0[k] = value }
            }
        }
        return made.slots.withLock { $0.map { $0! } }
    }
}
