// RealExportTests.swift — exports as other tools write them: Timewarrior's tag sets and running interval (with an injected clock), phone-style CSVs (headers by meaning, durations, local times, the user's mapping), and the CSV guard read back.
import Foundation
import Testing
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData

/// Decodes text with options, as a load does.
fileprivate func read(_ text: String, _ options: ReadOptions = ReadOptions(), source: String = "src") throws(LoadError) -> Dataset {
    try Array(text.utf8).withUnsafeBufferPointer { buffer throws(LoadError) in
        try SourceFormat.load(buffer, source: source, options: options, cancellation: CancellationToken())
    }
}

fileprivate func at(_ rfc3339: String) -> Micros { RFC3339.parse(rfc3339)! }

/// Every session as (start, end, app, category, id, running).
fileprivate func sessions(_ d: Dataset) -> [String] {
    d.sessions.indices.map { k in
        let s = d.sessions[k]
        let running = s.running ? " running" : ""
        return "\(s.start)…\(s.end) \(d.apps[Int(s.app)])/\(d.categories[Int(s.category)]) #\(s.id ?? "-")\(running)"
    }
}

struct TagSetTests {
    @Test(arguments: [
        (["gaming", "fun"], "fun, gaming"),
        (["fun", "gaming"], "fun, gaming"),
        (["Zeta", "alpha", "Beta"], "Beta, Zeta, alpha"),  // by bytes, as Timewarrior orders them
        (["work", "work"], "work"),
        ([" work ", "", "  "], "work"),
        (["my tag", "a,b", "x\"y"], "a,b, my tag, x\"y"),
        (["é", "e\u{301}"], "e\u{301}, é"),  // two spellings, two tags
    ] as [([String], String)])
    func aTagSetIsNamedAsTimewarriorShowsIt(tags: [String], name: String) {
        #expect(TagSet.name(tags) == name)
    }

    @Test func noTagsIsNoName() {
        #expect(TagSet.name([]) == nil)
        #expect(TagSet.name(["", " "]) == nil)
    }

    @Test(arguments: [
        ("fun, gaming", ["fun", "gaming"]),
        ("Safari", ["Safari"]),
        ("a,b, c", ["a,b", "c"]),
    ])
    func aNameSplitsBackIntoItsTags(name: String, tags: [String]) {
        #expect(TagSet.tags(of: name) == tags)
    }

    /// Rules match a tag set's name anywhere, as any name, and also any one tag whole.
    @Test func rulesMayMatchAnyTagOfATagSet() throws {
        let rules = try CategoryRules([
            CategoryRule(pattern: "^gaming$", category: "Games"), CategoryRule(pattern: "^work$", category: "Work"),
        ])
        #expect(rules.category(for: "fun, gaming") == "Games")
        #expect(rules.category(for: "gaming, fun") == "Games")
        #expect(rules.category(for: "client, work") == "Work")
        #expect(rules.category(for: "gaming") == "Games")
        #expect(rules.category(for: "gamings, fun") == nil)
        #expect(rules.category(for: "homework") == nil)
    }
}

struct TimewarriorRealTests {
    static let export = """
        [
        {"id":4,"start":"20260223T090000Z","end":"20260223T100000Z","tags":["gaming","fun"]},
        {"id":3,"start":"20260223T110000Z","end":"20260223T113000Z","tags":["fun","gaming"]},
        {"id":2,"start":"20260223T220000Z","end":"20260224T013000Z","tags":["night"]},
        {"id":1,"start":"20260224T080000Z","tags":["client","work"]}
        ]
        """

    @Test func anOpenIntervalCountsUpToTheClockAndIsRunning() throws {
        let now = at("2026-02-24T09:24:33Z")
        let d = try read(Self.export, ReadOptions(now: now))
        #expect(
            sessions(d) == [
                "\(at("2026-02-23T09:00:00Z"))…\(at("2026-02-23T10:00:00Z")) fun, gaming/Other #4",
                "\(at("2026-02-23T11:00:00Z"))…\(at("2026-02-23T11:30:00Z")) fun, gaming/Other #3",
                "\(at("2026-02-23T22:00:00Z"))…\(at("2026-02-24T01:30:00Z")) night/Other #2",
                "\(at("2026-02-24T08:00:00Z"))…\(now) client, work/Other #1 running",
            ])
        #expect(d.skipped.total == 0)
        #expect(d.apps.filter { $0 == "fun, gaming" }.count == 1)  // one activity, whatever the typed order
        // The same running session, seen through a day's window and as check sees it.
        let day = Zone.utc.window(for: LocalDate(iso: "2026-02-24")!)
        let window = d.window(day)
        #expect(window.map { window.isRunning($0) } == [false, true])
        let q = DataQuality(history: d, zone: .utc)
        #expect(q.running == [RunningSession(app: "client, work", id: "1", start: at("2026-02-24T08:00:00Z"), end: now, startUTCOffsetSeconds: 0)])
        let app = AppDayReport(history: d, app: Int32(d.apps.firstIndex(of: "client, work")!), date: day.date, zone: .utc)
        #expect(app.sessions.map(\.running) == [true])
        #expect(app.micros == now - at("2026-02-24T08:00:00Z"))
    }

    @Test func aRunningIntervalKeepsItsFlagThroughAMerge() throws {
        let d = try read(Self.export, ReadOptions(now: at("2026-02-24T09:00:00Z")))
        let other = try read(#"[{"id":9,"start":"20260224T083000Z","end":"20260224T084000Z","tags":["x"]}]"#)
        let merged = Dataset.merging([other, d], source: "both")
        #expect(merged.sessions.indices.filter { merged.sessions.isRunning(at: $0) }.map { merged.sessions.id(at: $0) } == ["1"])
        let categorised = merged.categorising { $0 == "client, work" ? "Work" : nil }
        #expect(DataQuality(history: categorised, zone: .utc).running.map(\.app) == ["client, work"])
    }

    @Test func anIntervalThatStartsAfterTheClockHasNoTimeYet() throws {
        let d = try read(Self.export, ReadOptions(now: at("2026-02-24T08:00:00Z")))
        #expect(d.skipped.count(.endNotAfterStart) == 1)
        #expect(d.skipped.examples[.endNotAfterStart]?.first?.sessionID == "1")
    }

    @Test func withoutAClockAnOpenIntervalIsSkipped() throws {
        let d = try read(Self.export)
        #expect(d.skipped.count(.missingTimestamp) == 1)
        #expect(DataQuality(history: d, zone: .utc).running.isEmpty)
    }
}

struct PhoneCSVTests {
    static let paris = Zone(identifier: "Europe/Paris")!

    /// The issue's acceptance: `Application,Start Time,Duration` with local times, read in a
    /// zone, gives the same sessions as the canonical JSON of the same sessions.
    @Test func localTimesWithADurationLoadAsTheCanonicalJSON() throws {
        let csv = """
            Application,Start Time,Duration
            Safari,2026-02-23 09:00:00,3900
            Mail,2026-02-23 23:30,01:00:00
            Maps,2026-02-23 12:00:00,1h 5m
            """
        let json = """
            [{"app_name":"Safari","start_timestamp":"2026-02-23T08:00:00Z","end_timestamp":"2026-02-23T09:05:00Z"},
            {"app_name":"Mail","start_timestamp":"2026-02-23T22:30:00Z","end_timestamp":"2026-02-23T23:30:00Z"},
            {"app_name":"Maps","start_timestamp":"2026-02-23T11:00:00Z","end_timestamp":"2026-02-23T12:05:00Z"}]
            """
        let fromCSV = try read(csv, ReadOptions(localZone: Self.paris))
        let fromJSON = try read(json)
        #expect(sessions(fromCSV) == sessions(fromJSON))
        #expect(fromCSV.parts.first?.localTimes == LocalTimes(rows: 3, zone: "Europe/Paris"))
        #expect(fromJSON.parts.first?.localTimes == nil)
        for date in ["2026-02-23", "2026-02-24"] {
            let day = LocalDate(iso: date)!
            #expect(DayReport(history: fromCSV, date: day, zone: Self.paris) == DayReport(history: fromJSON, date: day, zone: Self.paris))
        }
    }

    @Test func withoutAZoneLocalTimesAreBadTimestamps() throws {
        let d = try read("App,Start,End\nSafari,2026-02-23 09:00,2026-02-23T10:00:00Z\n")
        #expect(d.skipped.count(.badTimestamp) == 1)
    }

    @Test func rowsOfEveryKindAreCheckedInOrder() throws {
        let csv = [
            "App,Start,End,Duration",  // 1
            "a,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z,",  // 2: an end
            "b,2026-02-23T10:00:00Z,,10m",  // 3: no end, a duration
            "c,2026-02-23T11:00:00Z,2026-02-23T11:10:00Z,1h",  // 4: both: the end wins
            "d,2026-02-23T12:00:00Z,,",  // 5: neither: missing
            ",,2026-02-23T12:00:00Z,5m",  // 6: no start: missing
            "f,2026-02-23T12:00:00Z,,soon",  // 7: a duration that is none: bad
            "g,2026-02-23T13:00:00Z,,0",  // 8: zero: ends where it starts
            "h,yesterday,2026-02-23T12:00:00Z,",  // 9: bad
        ].joined(separator: "\n")
        let d = try read(csv, ReadOptions(localZone: .utc))
        #expect(
            sessions(d) == [
                "\(at("2026-02-23T09:00:00Z"))…\(at("2026-02-23T09:30:00Z")) a/Other #-",
                "\(at("2026-02-23T10:00:00Z"))…\(at("2026-02-23T10:10:00Z")) b/Other #-",
                "\(at("2026-02-23T11:00:00Z"))…\(at("2026-02-23T11:10:00Z")) c/Other #-",
            ])
        #expect(d.skippedLines(.missingTimestamp) == [5, 6])
        #expect(d.skippedLines(.badTimestamp) == [7, 9])
        #expect(d.skippedLines(.endNotAfterStart) == [8])
        #expect(d.parts.first?.localTimes == nil)  // every time had an offset
    }

    @Test func aMappingReadsHeadersThatDoNotSay() throws {
        let csv = "Program,From,To,Kind\nSafari,2026-02-23 09:00,2026-02-23 10:00,Web\n"
        guard case .invalid(_, .malformed(let format, let problem)) = Result(catching: { () throws(LoadError) in try read(csv) }).failure else {
            Issue.record("loaded without a mapping")
            return
        }
        #expect(format == "CSV")
        #expect(problem.hasPrefix("could not place the columns 'Program', 'From', 'To', 'Kind'; "))
        let mapping = try ColumnMapping(parsing: "app=Program,start=From,end=To,category=Kind")
        let d = try read(csv, ReadOptions(localZone: .utc, columns: mapping))
        #expect(sessions(d) == ["\(at("2026-02-23T09:00:00Z"))…\(at("2026-02-23T10:00:00Z")) Safari/Web #-"])
    }

    /// What our writer guards (`'=…`) reads back as it was; a `'` nobody added stays.
    @Test func theFormulaGuardIsTakenOffExactly() throws {
        let csv = """
            session_id,app_name,category,start_timestamp,end_timestamp
            '-1,"'=HYPERLINK(""http://x"")",'+Work,2026-02-23T09:00:00Z,2026-02-23T10:00:00Z
            2,'quoted',''=x,2026-02-23T10:00:00Z,2026-02-23T11:00:00Z
            """
        let d = try read(csv)
        #expect(
            sessions(d) == [
                "\(at("2026-02-23T09:00:00Z"))…\(at("2026-02-23T10:00:00Z")) =HYPERLINK(\"http://x\")/+Work #-1",
                "\(at("2026-02-23T10:00:00Z"))…\(at("2026-02-23T11:00:00Z")) 'quoted'/'=x #2",
            ])
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
