// PreviousStretchTests.swift — `week`, `days N` and `month` compare with the days before them through the history's range totals (a store answers those from the totals it keeps): the stretch before reads no window of sessions, and the comparison is still the days' own.
import Testing
@testable import UsageFormats
import UsageCore
@testable import UsageShell

/// A history that counts the windows read and the range totals asked for.
private final class Counted: SessionHistory, @unchecked Sendable {
    let base: Dataset
    var windows: [(from: Micros, to: Micros)] = []
    var rangeTotalsAsked = 0
    init(_ base: Dataset) { self.base = base }
    var source: String { base.source }
    var apps: [String] { base.apps }
    var categories: [String] { base.categories }
    var sessionCount: Int { base.sessionCount }
    var span: (start: Micros, end: Micros)? { base.span }
    var latestStart: Micros? { base.latestStart }
    var skipped: SkipSummary { base.skipped }
    var repairedStrings: Int { base.repairedStrings }
    var parts: [SourcePart] { base.parts }
    func window(from: Micros, to: Micros, ids: Bool) -> SessionWindow {
        windows.append((from, to))
        return base.window(from: from, to: to, ids: ids)
    }
    func uncachedWindow(from: Micros, to: Micros) -> SessionWindow { base.uncachedWindow(from: from, to: to) }
    func latestCategory(ofApp app: Int32) -> Int32? { base.latestCategory(ofApp: app) }
    func rangeTotals(_ bounds: DayBounds, detail: Bool) -> RangeTotals {
        rangeTotalsAsked += 1
        return base.rangeTotals(bounds, detail: detail)
    }
    func applyingRules(_ categoryOf: (String) -> String?) -> any SessionHistory { self }
    func takeReadFailure() -> String? { nil }
}

struct PreviousStretchTests {
    /// Two hours a day in the week before the selected one, three in the week itself: `week`
    /// says ▲ 50%.
    static let twoWeeks: Dataset = {
        var rows: [String] = []
        for day in 10...23 {
            let date = String(format: "2026-02-%02d", day)
            let hours = day >= 17 ? 3 : 2
            rows.append(
                #"{"app_name":"Editor","category":"Productivity","start_timestamp":"\#(date)T09:00:00Z","end_timestamp":"\#(date)T\#(String(format: "%02d", 9 + hours)):00:00Z"}"#)
        }
        return sampleDataset("[" + rows.joined(separator: ",") + "]")
    }()

    @Test(arguments: [("week", 7), ("days 7", 7), ("days 10", 10), ("month", 28)])
    func theStretchBeforeIsItsRangeTotalsAndReadsNoWindow(command: String, days: Int) throws {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("weeks.json"), repository: StubRepository(.success(Self.twoWeeks)))
        let counted = Counted(Self.twoWeeks)
        vm.replaceHistory(counted)
        let shell = Shell(model: vm)
        guard case .output(let lines) = shell.execute(command) else { Issue.record("\(command) failed"); return }
        #expect(counted.rangeTotalsAsked == 1, "\(command): the days before, asked once")
        let selected = LocalDate(iso: "2026-02-23")!
        let first = Zone.utc.startOfDay(selected.adding(days: -(days - 1)))
        #expect(counted.windows.allSatisfy { $0.from >= first }, "\(command) read a window before its days: \(counted.windows)")
        #expect(!lines.isEmpty)
    }

    @Test func theWeeksSentenceComparesWithTheWeekBefore() throws {
        let vm = UsageViewModel(zone: .utc, now: { fixedNow })
        vm.load(.file("weeks.json"), repository: StubRepository(.success(Self.twoWeeks)))
        let shell = Shell(model: vm)
        // The 7 days ending on Monday the 23rd: three hours a day against two.
        guard case .output(let lines) = shell.execute("days 7") else { Issue.record("days 7 failed"); return }
        let text = lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains("▲\u{A0}50% vs the previous week"), "\(lines)")
        // The calendar week of Sunday the 22nd (Monday 16 to Sunday 22: 2h, then 3h a day)
        // against the one before (Monday 9 to Sunday 15, six days of 2h with data): ▲ 43%.
        succeed(shell.execute("day 2026-02-22"))
        guard case .output(let week) = shell.execute("week") else { Issue.record("week failed"); return }
        let said = week.joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(said.hasPrefix("Week · Mon 16 – Sun 22 Feb 2026"), "\(week)")
        #expect(said.contains("▲\u{A0}43% vs the previous week"), "\(week)")
    }
}
