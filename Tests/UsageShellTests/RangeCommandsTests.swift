// RangeCommandsTests.swift — summary, month, timesheet and the RANGE that apps, categories and tasks take, through the shell: what each form selects, what is refused and how it is said, and a due day still beside a range in `tasks`.
import Foundation
import Testing
import UsageCore
import UsageRender
@testable import UsageShell

struct RangeCommandsTests {
    @Test(arguments: [
        ("summary", "2026-02-01", "2026-02-28"),
        ("summary week", "2026-02-16", "2026-02-22"),
        ("summary last 7", "2026-02-14", "2026-02-20"),
        ("summary last week", "2026-02-09", "2026-02-15"),
        ("summary last month", "2026-01-01", "2026-01-31"),
        ("summary 2026-01", "2026-01-01", "2026-01-31"),
        ("summary 2026", "2026-01-01", "2026-12-31"),
        ("summary first..last", "2026-02-20", "2026-02-23"),
        ("summary 2026-02-21..2026-02-22", "2026-02-21", "2026-02-22"),
        ("sum ye", "2026-01-01", "2026-12-31"),
        ("apps month", "2026-02-01", "2026-02-28"),
        ("apps top 1 last 3", "2026-02-18", "2026-02-20"),
        ("apps category productivity 2026", "2026-01-01", "2026-12-31"),
    ])
    func aRangeSelectsItsDays(line: String, from: String, to: String) {
        let shell = completionShell()
        succeed(shell.execute("day 2026-02-20"))
        succeed(shell.execute("set format json"))
        let doc = json(shell.execute(line))
        #expect(doc["from"] as? String == from, "\(line)")
        #expect(doc["to"] as? String == to, "\(line)")
    }

    @Test(arguments: [
        ("sites last 7d", "2026-02-14", "2026-02-20"),
        ("sites last 2w", "2026-02-07", "2026-02-20"),
        ("sites last 7", "2026-02-14", "2026-02-20"),
        ("sites last week", "2026-02-09", "2026-02-15"),
        ("sites 2026-01", "2026-01-01", "2026-01-31"),
        ("sites w", "2026-02-16", "2026-02-22"),
        ("sites 2026-02-19", "2026-02-19", "2026-02-19"),
        ("sites prev", "2026-02-19", "2026-02-19"),
        ("summary last 7d", "2026-02-14", "2026-02-20"),
        ("apps last 2w", "2026-02-07", "2026-02-20"),
    ])
    func bugSitesLast7dWasRefused(line: String, from: String, to: String) {
        // `sites` takes a DAY or a RANGE as every range command reads it, `last 7d` included.
        let shell = completionShell()
        succeed(shell.execute("day 2026-02-20"))
        succeed(shell.execute("set format json"))
        let doc = json(shell.execute(line))
        #expect(doc["from"] as? String == from, "\(line)")
        #expect(doc["to"] as? String == to, "\(line)")
    }

    @Test func sitesCompletesTheRangeWordsOtherRangeCommandsDo() {
        let sites = CommandTable.named("sites")
        #expect(sites.completions(after: []).contains(.keywords(["last", "week", "month", "year"])))
        #expect(sites.completions(after: ["last"]) == CommandTable.named("summary").completions(after: ["last"]))
    }

    @Test(arguments: [
        ("week", "2026-02-16", "2026-02-22"),
        ("days 3", "2026-02-18", "2026-02-20"),
        ("month", "2026-02-01", "2026-02-28"),
    ])
    func bugWeekJSONLackedItsRange(line: String, from: String, to: String) {
        // `week --format json` gave its days alone; it says its first and last day as every
        // range's document does (`days` and `month` share its shape).
        let shell = completionShell()
        succeed(shell.execute("day 2026-02-20"))
        succeed(shell.execute("set format json"))
        let doc = json(shell.execute(line))
        #expect(doc["from"] as? String == from, "\(line)")
        #expect(doc["to"] as? String == to, "\(line)")
        #expect((doc["days"] as? [[String: Any]])?.first?["day"] as? String == from, "\(line)")
    }

    @Test func theSummarysDocumentHasItsFields() {
        let shell = completionShell()
        succeed(shell.execute("set format json"))
        let doc = json(shell.execute("summary 2026-02-20..2026-02-23"))
        #expect(doc["total_seconds"] as? Int == 3 * 3600 + 1800)
        #expect(doc["days_with_data"] as? Int == 4)
        #expect(doc["daily_average_seconds"] as? Double == 3150)
        let apps = doc["apps"] as? [[String: Any]] ?? []
        #expect(apps.map { $0["name"] as? String } == ["Café ☕", "Google Chrome", "Google Docs", "Say \"hi\""])
        #expect(apps.first?["sessions"] as? Int == 1)
        #expect(apps.first?["category"] as? String == "Food & Drink")
        #expect((doc["categories"] as? [[String: Any]])?.first?["name"] as? String == "Productivity")
        #expect((doc["busiest_day"] as? [String: Any])?["day"] as? String == "2026-02-20")
        #expect((doc["previous"] as? [String: Any])?["from"] as? String == "2026-02-16")
        #expect(doc["change"] is NSNull)
    }

    @Test(arguments: [
        ("summary fortnight", "summary: 'fortnight' is not a range (week, month, year, last week, last month, last year, last N, 2026-10, 2026, FROM..TO) (usage: summary [last N|week|month|year|RANGE])"),
        ("summary 2026-03..2026-02", "summary: the range ends (2026-02-28) before it begins (2026-03-01) (usage: summary [last N|week|month|year|RANGE])"),
        ("summary last", "summary: last how many days? (last 30, last week, last month, last year) (usage: summary [last N|week|month|year|RANGE])"),
        ("summary last 0", "summary: '0' is not a number of days from 1 to 36525, week, month or year (usage: summary [last N|week|month|year|RANGE])"),
        ("summary 2026-01-01..", "summary: '2026-01-01..' needs a first and a last day (FROM..TO) (usage: summary [last N|week|month|year|RANGE])"),
        ("summary week month", "summary: too many arguments (usage: summary [last N|week|month|year|RANGE])"),
        ("month june", "month: 'june' is not prev or next (usage: month [prev|next])"),
    ])
    func badRangesAreSaidInOneLine(line: String, message: String) {
        let shell = completionShell()
        #expect(failure(shell.execute(line)) == message)
    }

    @Test func monthStepsTheSelectedDayByAMonthKeepingItsDayWhereItCan() {
        let shell = completionShell()
        succeed(shell.execute("day 2026-03-31"))
        succeed(shell.execute("set format json"))
        #expect(json(shell.execute("month prev"))["month"] as? String == "2026-02")
        #expect(shell.model.selectedDay == LocalDate(iso: "2026-02-28"))
        let doc = json(shell.execute("month"))
        #expect((doc["days"] as? [Any])?.count == 28)
        succeed(shell.execute("month next"))
        #expect(shell.model.selectedDay == LocalDate(iso: "2026-03-28"))
    }

    @Test func tasksKeepTheirDueDaysBesideRanges() throws {
        // The grammar reads `friday` as a due day although a range could come first; `week`
        // (due within a week until issue 44), `month` and `last 30` are ranges.
        let command = CommandTable.named("tasks")
        for (line, due, range) in [
            (["friday"], true, false), (["2026-10-05"], true, false), (["month"], false, true), (["2026-10"], false, true),
            (["last", "30"], false, true), (["week"], false, true), (["2026-10-01..2026-10-31"], false, true),
        ] {
            let args = try command.arguments(line)
            #expect((args[CommandTable.dueSlot] != nil) == due, "\(line)")
            #expect((args[CommandTable.rangeSlot] ?? args[CommandTable.lastSlot] != nil) == range, "\(line)")
        }
        #expect(throws: ShellError.self) { try command.arguments(["someday"]) }
    }

    @Test func theRangeCommandsAreInHelpAndComplete() {
        let shell = completionShell()
        let help = outputLines(shell.execute("help")).joined(separator: "\n")
        for name in ["summary", "month", "timesheet"] { #expect(help.contains(name), "\(name)") }
        #expect(CommandTable.named("summary").completions(after: []).contains(.keywords(["last", "week", "month", "year"])))
        #expect(CommandTable.named("apps").completions(after: ["last"]) == [.keywords(["7", "30", "week", "month", "year"])])
    }
}
