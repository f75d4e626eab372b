// NarrowTerminalTests.swift — narrow terminals (issue 21): hourly bars keep their gaps at every width they are drawn at, and tables drop whole columns before they cut a word, never cutting a number.
import Testing
import UsageCore
@testable import UsageRender

struct NarrowTerminalTests {
    @Test func bugAt60ColumnsTheHourlyBarsMergedIntoABlock() {
        for slots in [23, 24, 25] {
            let narrowest = 5 + (slots + 1) / 2 * 2 - 1
            #expect(HourlyLayout(slots: slots, width: narrowest - 1) == nil, "\(slots) slots at \(narrowest - 1)")
            for width in narrowest...300 {
                guard let layout = HourlyLayout(slots: slots, width: width) else {
                    Issue.record("no bars for \(slots) slots at \(width)")
                    continue
                }
                #expect(layout.bars.gap >= 1, "\(slots) slots at \(width)")
                let bars = (slots + layout.slotsPerBar - 1) / layout.slotsPerBar
                #expect(5 + bars * (layout.bars.bar + layout.bars.gap) - layout.bars.gap <= width)
                // One bar per hour wherever it fits with a gap.
                #expect((layout.slotsPerBar == 1) == (width >= 5 + slots * 2 - 1), "\(slots) slots at \(width)")
            }
        }
        // At 60 columns, 24 hourly bars of one cell with a cell between them.
        let layout = HourlyLayout(slots: 24, width: 60)
        #expect(layout?.slotsPerBar == 1 && layout?.bars.bar == 1 && layout?.bars.gap == 1)
        let rows = TextReport.hourly(ChartFixture.report, width: 60, theme: .plain)
        let barRows = rows.filter { $0.contains("│") }
        // Every even column after the axis is a bar, every odd one a gap: no two bars touch.
        for row in barRows {
            let cells = Array(row.dropFirst(5))
            for k in stride(from: 1, to: cells.count, by: 2) {
                #expect(cells[k] == " " || cells[k] == "▔", "a bar in a gap: \(row)")
            }
        }
    }

    @Test func twoHourBarsSayTheyAreAndAddTheirHours() {
        let rows = TextReport.hourly(ChartFixture.report, width: 45, theme: .plain)
        #expect(rows[0].hasPrefix("Apps per 2 hours"))
        #expect(rows.contains("     00    04    08    12    16    20"))
        let layout = HourlyLayout(slots: 24, width: 45)!
        #expect(layout.slotsPerBar == 2)
        #expect(layout.binned([[1, 2], [3, 4], [5, 6]]) == [[4, 6], [5, 6]])
    }

    /// Every row of `apps` at every width from 20 to 130: the duration and the share (when
    /// shown) whole at the end; the detail, when shown, whole parts (`Social`, or `Social · 2
    /// sessions`); the only cut text is a name, and only one longer than 20 cells or once
    /// every other column is gone.
    @Test func bugTheAppListCutWordsInTheMiddleAt60Columns() {
        let r = ChartFixture.report
        let durations = TextFormat.durations(r.apps.map(\.micros))
        for width in 20...130 {
            let rows = Array(TextReport.apps(r, apps: r.apps, width: width, theme: .plain).dropFirst().prefix(r.apps.count))
            for (k, (row, app)) in zip(rows, r.apps).enumerated() {
                let share = TextFormat.share(app.share)
                var end = Substring(row)
                if end.hasSuffix(" " + share) { end = end.dropLast(share.count) }
                while end.last == " " { end.removeLast() }
                #expect(end.hasSuffix(" " + durations[k]), "\(width): \(row)")
                let sessions = "\(app.sessions) session\(app.sessions == 1 ? "" : "s")"
                if row.contains(" · ") { #expect(row.contains(app.category + " · " + sessions), "\(width): \(row)") }
                let name = TerminalText.sanitize(app.name)
                if TerminalText.cells(name) <= 20, row.contains("…") {
                    // Cut only when no bar, detail or share is left.
                    #expect(!row.contains(app.category) && !row.contains("%"), "\(width): \(row)")
                }
            }
        }
        // At 80 columns: whole categories, not `Developer Tools · 2 ses…`.
        let eighty = TextReport.apps(r, apps: r.apps, width: 80, theme: .plain)
        #expect(eighty.contains { $0.contains(" Developer Tools  ") })
        #expect(!eighty.contains { $0.contains("ses…") || $0.contains("sessio…") })
    }

    @Test func theCategoryLegendDropsItsSharesBeforeCuttingAName() {
        let r = ChartFixture.report
        for width in 20...80 {
            let lines = TextReport.categories(r, width: width, theme: .plain)
            let legend = lines.filter { $0.hasPrefix("  ") && !$0.contains("▔") }.dropFirst()
            for line in legend where line.contains("…") {
                #expect(!line.contains("%"), "\(width): \(line)")
            }
        }
    }

    /// The week's sentence at 40 columns read `busiest Fri 20 Feb (9h` / `15m)`: a wrapped
    /// duration is a cut number.
    @Test func bugAWrappedSentenceCutTheBusiestDaysDurationIntoTwoLines() {
        for width in 20...120 {
            let lines = TextReport.wrap(["  51h 55m in 7 days · 7h 25m a day on average · busiest Fri 20 Feb (9h 15m) · 1h 5m of 1h"], width: width)
            for (a, b) in zip(lines, lines.dropFirst()) {
                #expect(!(a.hasSuffix("h") && b.firstMatch(of: #/^ *\d+m/#) != nil), "\(width): \(a) / \(b)")
            }
            #expect(lines.joined(separator: " ").contains("(9h 15m)"), "\(width): \(lines)")
        }
    }

    /// `help day` at 40 columns ended in `[DATE|today|yesterday|prev|next|fir…`: a usage's
    /// choices break after a `|`, a path after a `/`, and nothing is cut.
    @Test func bugTheUsageOfDayWasCutInTheMiddleOfAWord() {
        let usage = "  day [DATE|today|yesterday|prev|next|first|last|+N|-N|monday…sunday]"
        for width in 30...80 {
            let lines = TextReport.wrap([usage], width: width)
            #expect(lines.allSatisfy { TerminalText.cells($0) <= width && !$0.hasSuffix("…") }, "\(width): \(lines)")
            #expect(lines.joined().replacing(" ", with: "") == usage.replacing(" ", with: ""), "\(width): \(lines)")
        }
        let path = TextReport.wrap(["  '/home/someone/.config/usage-shell/categories.json', e.g."], width: 40)
        #expect(path == ["  '/home/someone/.config/usage-shell/", "    categories.json', e.g."], "\(path)")
        // A word without a place to break is still cut to the width.
        #expect(TextReport.wrap(["  " + String(repeating: "x", count: 50)], width: 40) == ["  " + String(repeating: "x", count: 37) + "…"])
    }

    /// `insights` at 40 columns read `most used category Entertainment · 18h` / `45m`: when
    /// a fact does not fit beside its label, each label stands over its value.
    @Test func bugInsightsAt40ColumnsCutDurationsAndLostTheirColumns() {
        let d = ChartFixture.dataset
        let last = ChartFixture.report.day
        let i = Insights(history: d, endingOn: last, zone: .utc)
        let wide = TextReport.insights(i, zone: .utc, width: 120)
        #expect(wide.contains { $0.hasPrefix("  most used app      ") })
        for width in 20...70 {
            let lines = TextReport.insights(i, zone: .utc, width: width)
            #expect(lines.allSatisfy { TerminalText.cells($0) <= width }, "\(width)")
            if let label = lines.firstIndex(of: "  most used app") {
                #expect(lines[label + 1].hasPrefix("    "), "\(width): \(lines)")
            }
            for (a, b) in zip(lines, lines.dropFirst()) {
                #expect(!(a.hasSuffix("h") && b.firstMatch(of: #/^ *\d+m/#) != nil), "\(width): \(a) / \(b)")
            }
        }
        #expect(TextReport.insights(i, zone: .utc, width: 40).contains("  most used app"))
    }

    /// `store` at 60 columns read `sessions 290 from 29 apps, … (255` / `days)` with its label
    /// column lost, and `forgot 280 of 570 …` ran past 40 columns: the values wrap under their
    /// own column (a path after a `/`), a count stays with its noun, and narrower each label
    /// stands over its values.
    @Test func bugTheStoreReportLostItsColumnsAndSplitACountFromItsDays() {
        let day = LocalDate(iso: "2026-02-22")!
        let t = Micros(1_795_000_000) * 1_000_000
        let summary = StoreSummary(
            path: "/home/someone/.local/share/usage-shell/usage.sqlite", bytes: 94_200, readOnly: false, sessions: 290, apps: 29,
            days: day...day.adding(days: 254),
            sources: [
                .init(identity: "/home/someone/exports/original-app-mock-data.json", shown: "/home/someone/exports/original-app-mock-data.json", device: "laptop", sessions: 52, imports: 1, firstImport: t, lastImport: t),
                .init(identity: "aw://localhost:5600", shown: "activitywatch", device: "laptop", sessions: 238, imports: 3, firstImport: t, lastImport: t),
            ],
            retentionDays: nil)
        let words = TextReport.store(summary, zone: .utc, width: 1000).joined(separator: " ").split(separator: " ")
        for width in 20...120 {
            let lines = TextReport.store(summary, zone: .utc, width: width)
            #expect(lines.allSatisfy { TerminalText.cells($0) <= width }, "\(width): \(lines)")
            // Nothing is cut: the words of the widest form, wrapped (a path broken after a `/`).
            #expect(lines.joined().replacing(" ", with: "") == words.joined(), "\(width): \(lines)")
            for (a, b) in zip(lines, lines.dropFirst()) {
                #expect(a.firstMatch(of: #/(^| )\(?\d+$/#) == nil || b.firstMatch(of: #/^ *[a-z]/#) == nil, "\(width): \(a) / \(b)")
            }
        }
        let sixty = TextReport.store(summary, zone: .utc, width: 60)
        #expect(Array(sixty.prefix(6)) == [
            "Store", "path       /home/someone/.local/share/usage-shell/",
            "           usage.sqlite", "size       94.2 kB",
            "sessions   290 from 29 apps, 2026-02-22 … 2026-11-03",
            "           (255 days)",
        ], "\(sixty)")
        #expect(sixty.filter { $0.hasPrefix("sources    ") }.count == 1)
        #expect(sixty.dropFirst().allSatisfy { $0.hasPrefix("           ") || $0.firstMatch(of: #/^[a-z]+ +\S/#) != nil }, "\(sixty)")
        let forty = TextReport.store(summary, zone: .utc, width: 40)
        #expect(forty.prefix(3) == ["Store", "path", "  /home/someone/.local/share/"], "\(forty)")
        #expect(forty.contains("sessions") && forty.contains("retention"))
    }

    /// `check` of two sources at 40 columns read `missing_timestamp 5, bad_timestamp` / `14,
    /// end_not_after_start` / `4, …`: a count closing a list item stays with its reason.
    @Test func bugCheckPartedASkipReasonFromItsCount() {
        let line = "    272 sessions, 33 skipped: missing_timestamp 5, bad_timestamp 14, end_not_after_start 4, bad_field_type 5, not_an_object 5"
        for width in 30...120 {
            let lines = TextReport.wrap([line], width: width)
            #expect(!lines.contains { $0.firstMatch(of: #/^ *\d+,?( |$)/#) != nil && !$0.contains("sessions") }, "\(width): \(lines)")
            #expect(lines.joined(separator: " ").replacing(#/ +/#, with: " ") == line.replacing(#/ +/#, with: " "), "\(width)")
        }
        #expect(TextReport.wrap([line], width: 40) == [
            "    272 sessions, 33 skipped:", "      missing_timestamp 5,", "      bad_timestamp 14,",
            "      end_not_after_start 4,", "      bad_field_type 5, not_an_object 5",
        ])
    }
}
