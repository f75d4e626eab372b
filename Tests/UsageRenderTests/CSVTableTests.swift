// CSVTableTests.swift — `--format csv` made from JSON documents (CSVTable: rows, columns, collisions, nested values), the CSV cell policy, and the load's words: the skip warning and the notes on running sessions and local times.
import Testing
@testable import UsageCore
@testable import UsageFormats
@testable import UsageRender

struct CSVTableTests {
    static func csv(_ document: JSONText, _ shape: CSVShape = .firstList, _ policy: CSVCellPolicy = CSVCellPolicy()) -> [String] {
        CSVTable(document, shape: shape).records(policy)
    }

    @Test func theFirstListIsTheRowsAndTheDocumentsFieldsAreOnEachRow() {
        let doc = JSONText.object([
            ("day", .string("2026-02-23")), ("total_seconds", .seconds(5_400_500_000)),
            ("apps", .array([
                .object([("name", .string("Safari")), ("seconds", .seconds(3_600_000_000)), ("share", .double(0.25))]),
                .object([("name", .string("Mail, Calendar")), ("seconds", .seconds(1_800_500_000)), ("share", .double(1))]),
            ])),
            ("categories", .array([.object([("name", .string("Web"))])])),  // another table: left out
            ("skipped", .object([("total", .int(2)), ("reasons", .object([("bad_timestamp", .int(2))]))])),
        ])
        #expect(
            Self.csv(doc) == [
                "day,total_seconds,skipped.total,skipped.reasons.bad_timestamp,name,seconds,share",
                "2026-02-23,5400.5,2,2,Safari,3600,0.25",
                "2026-02-23,5400.5,2,2,\"Mail, Calendar\",1800.5,1",
            ])
    }

    @Test func rowsWithDifferentKeysShareOneHeader() {
        let doc = JSONText.object([
            ("hours", .array([
                .object([("hour", .int(0)), ("apps", .object([("Maps", .int(60))]))]),
                .object([("hour", .int(1)), ("apps", .object([]))]),
                .object([("hour", .int(2)), ("apps", .object([("Mail", .int(5)), ("Maps", .int(7))]))]),
            ]))
        ])
        #expect(Self.csv(doc) == ["hour,apps.Maps,apps.Mail", "0,60,", "1,,", "2,7,5"])
    }

    @Test func aRowFieldNamedLikeADocumentFieldIsNamedByItsList() {
        let doc = JSONText.object([
            ("app", .string("Chrome")), ("seconds", .int(600)),
            ("sessions", .array([.object([("id", .null), ("seconds", .int(600)), ("running", .bool(true))])])),
        ])
        #expect(Self.csv(doc) == ["app,seconds,id,sessions.seconds,running", "Chrome,600,,600,true"])
    }

    @Test func aRecordIsOneRowWithItsListsNumbered() {
        let doc = JSONText.object([
            ("trend", .string("stable")),
            ("advice", .array([.object([("kind", .string("limit")), ("app", .string("X"))]), .object([("kind", .string("breaks"))])])),
            ("top_app", .null),
        ])
        #expect(Self.csv(doc, .record) == ["trend,advice.1.kind,advice.1.app,advice.2.kind,top_app", "stable,limit,X,breaks,"])
        // The same document read as a table has advice for its rows.
        #expect(Self.csv(doc) == ["trend,top_app,kind,app", "stable,,limit,X", "stable,,breaks,"])
    }

    @Test func anEmptyListIsAHeaderOfTheDocumentsFields() {
        #expect(Self.csv(.object([("day", .string("2026-02-24")), ("apps", .array([]))])) == ["day"])
        #expect(Self.csv(.object([("day", .string("2026-02-24"))])) == ["day", "2026-02-24"])
    }

    @Test func textCellsAreGuardedAndEscapedAsThePolicySays() {
        let doc = JSONText.object([
            ("apps", .array([.object([("name", .string("=HYPERLINK(\"http://x\")")), ("seconds", .int(-1))])])),
            ("note", .string("\u{1B}[31mred\ttab")),
        ])
        // Numbers are never guarded (`-1` is a number, not a formula).
        #expect(Self.csv(doc) == ["note,name,seconds", "\u{1B}[31mred\ttab,\"'=HYPERLINK(\"\"http://x\"\")\",-1"])
        #expect(
            Self.csv(doc, .firstList, CSVCellPolicy(guardFormulas: true, escapeControls: true))
                == ["note,name,seconds", #"\e[31mred\ttab,"'=HYPERLINK(""http://x"")",-1"#])
        #expect(
            Self.csv(doc, .firstList, CSVCellPolicy(guardFormulas: false, escapeControls: true))
                == ["note,name,seconds", #"\e[31mred\ttab,"=HYPERLINK(""http://x"")",-1"#])
    }
}

struct LoadWordsTests {
    static func dataset(_ json: String) throws -> Dataset { try SessionsJSON.decode(json) }
    static let row = #"{"app_name":"A","start_timestamp":"2026-02-23T09:00:00Z","end_timestamp":"2026-02-23T10:00:00Z"}"#

    @Test func aLoadThatSkipsNothingSaysNothing() throws {
        #expect(TextReport.skipWarning(try Self.dataset("[\(Self.row)]")) == nil)
    }

    @Test func theWarningCountsRowsAndReasonsMostFirst() throws {
        let rows = Array(repeating: Self.row, count: 4_988) + Array(repeating: #"{"start_timestamp":"x","end_timestamp":"y"}"#, count: 9)
            + Array(repeating: #"{"start_timestamp":"2026-02-23T10:00:00Z","end_timestamp":"2026-02-23T09:00:00Z"}"#, count: 3)
        let d = try Self.dataset("[" + rows.joined(separator: ",") + "]")
        #expect(TextReport.skipWarning(d) == "12 of 5,000 rows skipped (9 bad timestamp, 3 end not after start) — 'check' lists them")
        let one = try Self.dataset("[1]")
        #expect(TextReport.skipWarning(one) == "1 of 1 row skipped (1 not an object) — 'check' lists them")
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (1_234_567, "1,234,567"), (-1000, "-1,000")])
    func countsAreGroupedByThousands(n: Int, text: String) {
        #expect(TextReport.grouped(n) == text)
    }

    @Test func theLoadSummarySaysWhatRunsAndWhichZoneLocalTimesWereReadIn() throws {
        var rows = SessionRows()
        rows.add(start: 0, end: 3_600_000_000, app: "fun, gaming", category: nil, id: "1", running: true)
        rows.noteLocalTimes(zone: "Europe/Paris")
        let d = rows.dataset(source: "t.json")
        #expect(
            TextReport.loaded(d, zone: .utc, width: 200) == [
                "loaded 1 session from t.json, 1970-01-01",
                "times without a UTC offset (1 row) read as Europe/Paris time; --data-tz ZONE or 'set data-tz ZONE' reads them in another",
                "still running: fun, gaming since Thu 1970-01-01 00:00, counted up to now (load again to bring it up to date)",
            ])
        #expect(
            ReportJSON.load(d, zone: .utc).serialized
                == #"{"source":"t.json","sessions":1,"skipped":{"total":0,"reasons":{"missing_timestamp":0,"bad_timestamp":0,"end_not_after_start":0,"bad_field_type":0,"not_an_object":0}},"#
                + #""first_day":"1970-01-01","last_day":"1970-01-01","running":[{"app":"fun, gaming","session_id":"1","start":"1970-01-01T00:00:00Z","seconds":3600}],"#
                + #""local_times":[{"source":"t.json","rows":1,"time_zone":"Europe/Paris"}]}"#)
        let q = DataQuality(history: d, zone: .utc)
        let check = TextReport.check(q, width: 200)
        #expect(check.contains("running: fun, gaming #1 since Thu 1970-01-01 00:00, 1h counted up to the load"))
        #expect(check.contains("local times: 1 row had times without a UTC offset, read as Europe/Paris time"))
    }

    @Test func aRunningSessionIsSaidInTheAppView() throws {
        var rows = SessionRows()
        rows.add(start: 0, end: 600_000_000, app: "x", category: nil, id: nil, running: true)
        let d = rows.dataset(source: "t")
        let a = AppDayReport(history: d, app: 0, date: LocalDate(iso: "1970-01-01")!, zone: .utc)
        #expect(TextReport.app(a, width: 80)[4] == "  00:00–00:10 running   10m")
        #expect(ReportJSON.app(a).serialized.contains(#""sessions":[{"id":null,"start":"1970-01-01T00:00:00Z","end":"1970-01-01T00:10:00Z","seconds":600,"running":true}]"#))
    }
}
