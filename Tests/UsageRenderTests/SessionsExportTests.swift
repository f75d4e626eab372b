// SessionsExportTests.swift — what `export` writes: the format a path names, UTC timestamps, the sessions in JSON/NDJSON/CSV byte for byte, and the day's app list as CSV and JSON.
import Foundation
import Testing
@testable import UsageFormats
import UsageCore
@testable import UsageRender

private func exportText(_ d: Dataset, _ format: ExportFormat) -> String {
    String(decoding: SessionsExport.sessions(d, format: format), as: UTF8.self)
}

private func exportRow(_ id: String, _ app: String, _ category: String, _ start: String, _ end: String) -> String {
    "{\"session_id\": \(id), \"app_name\": \(app), \"category\": \(category), \"start_timestamp\": \"\(start)\", \"end_timestamp\": \"\(end)\"}"
}

/// Every suite of this file, so that `--filter SessionsExportTests` runs them all.
enum SessionsExportTests {}

extension SessionsExportTests {
    struct FormatFromPath {
        @Test(arguments: [
            ("usage.json", ExportFormat?.some(.json)),
            ("USAGE.JSON", .json),
            ("a.Json", .json),
            ("a.ndjson", .ndjson),
            ("a.NDJSON", .ndjson),
            ("a.jsonl", .ndjson),
            ("a.JSONL", .ndjson),
            ("a.csv", .csv),
            ("a.CSV", .csv),
            ("/abs/path/x.csv", .csv),
            ("relative/dir/x.jsonl", .ndjson),
            ("archive.tar.json", .json),
            ("dir.with.dots/file.csv", .csv),
            ("dir.with.dots/file", nil),
            ("dir.json/file", nil),
            ("noextension", nil),
            (".hidden", nil),
            (".json", nil),
            ("dir/.csv", nil),
            ("a.", nil),
            ("a.txt", nil),
            ("a.json.bak", nil),
            ("a.jsonx", nil),
            ("", nil),
        ] as [(String, ExportFormat?)])
        func formatFromPath(path: String, format: ExportFormat?) {
            #expect(ExportFormat(path: path) == format)
        }
    }
}

extension SessionsExportTests {
    struct Timestamps {
        @Test(arguments: [
            (Micros(0), "1970-01-01T00:00:00Z"),
            (1_771_837_200_000_000, "2026-02-23T09:00:00Z"),
            (1_771_837_200_250_000, "2026-02-23T09:00:00.250000Z"),
            (1_771_837_200_000_001, "2026-02-23T09:00:00.000001Z"),
            (1_771_837_200_999_999, "2026-02-23T09:00:00.999999Z"),
            (-1, "1969-12-31T23:59:59.999999Z"),
            (-1_000_000, "1969-12-31T23:59:59Z"),
            (-86_400_500_000, "1969-12-30T23:59:59.500000Z"),
            (951_782_400_000_000, "2000-02-29T00:00:00Z"),
            (253_402_300_799_999_999, "9999-12-31T23:59:59.999999Z"),
        ] as [(Micros, String)])
        func timestamps(t: Micros, text: String) {
            #expect(SessionsExport.timestamp(t) == text)
            #expect(RFC3339.parse(text) == t, "what is written reads back as the same instant")
        }
    }
}

extension SessionsExportTests {
    struct Sessions {
        static func dataset() throws -> Dataset {
            try SessionsJSON.decode(
                "["
                    + [
                        exportRow("42", "\"Chrome, Beta\"", "\"Web\"", "2026-02-23T10:00:00.25+01:00", "2026-02-23T09:30:00Z"),
                        exportRow("null", "null", "\"others\"", "2026-02-23T08:00:00Z", "2026-02-23T08:00:01Z"),
                    ].joined(separator: ",") + "]")
        }

        @Test func json() throws {
            #expect(
                exportText(try Self.dataset(), .json) == """
                    [
                    {"session_id":null,"app_name":"(unknown)","category":"Other","start_timestamp":"2026-02-23T08:00:00Z","end_timestamp":"2026-02-23T08:00:01Z"},
                    {"session_id":"42","app_name":"Chrome, Beta","category":"Web","start_timestamp":"2026-02-23T09:00:00.250000Z","end_timestamp":"2026-02-23T09:30:00Z"}
                    ]

                    """)
        }

        @Test func ndjson() throws {
            #expect(
                exportText(try Self.dataset(), .ndjson) == """
                    {"session_id":null,"app_name":"(unknown)","category":"Other","start_timestamp":"2026-02-23T08:00:00Z","end_timestamp":"2026-02-23T08:00:01Z"}
                    {"session_id":"42","app_name":"Chrome, Beta","category":"Web","start_timestamp":"2026-02-23T09:00:00.250000Z","end_timestamp":"2026-02-23T09:30:00Z"}

                    """)
        }

        @Test func csv() throws {
            #expect(
                exportText(try Self.dataset(), .csv)
                    == "session_id,app_name,category,start_timestamp,end_timestamp\r\n"
                    + ",(unknown),Other,2026-02-23T08:00:00Z,2026-02-23T08:00:01Z\r\n"
                    + "42,\"Chrome, Beta\",Web,2026-02-23T09:00:00.250000Z,2026-02-23T09:30:00Z\r\n")
        }

        @Test func anEmptyDataset() {
            #expect(exportText(.empty, .json) == "[\n]\n")
            #expect(exportText(.empty, .ndjson) == "")
            #expect(exportText(.empty, .csv) == "session_id,app_name,category,start_timestamp,end_timestamp\r\n")
        }

        @Test func namesAreEscapedAsJSONRequiresAndTerminalSafe() throws {
            let d = try SessionsJSON.decode("[" + exportRow("\"a\\\"b\"", "\"x\\u001b[31m\\t\\u202e\\\\\"", "\"é🎉\"", "2026-02-23T08:00:00Z", "2026-02-23T09:00:00Z") + "]")
            let text = exportText(d, .ndjson)
            #expect(text.contains(#""session_id":"a\"b""#))
            #expect(text.contains(#""app_name":"x\u001b[31m\t\u202e\\""#))
            #expect(text.contains(#""category":"é🎉""#))
            #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
        }

        /// CSV.swift decides whether to quote with `String.contains`, which compares Characters: a
        /// comma or quote followed by a combining mark (or ZWJ) is another Character, so the field
        /// was written bare and the row split into extra columns. Quote by Unicode scalars instead.
        @Test func bugCSVExportCommaBeforeCombiningMarkIsNotQuoted() throws {
            let d = try SessionsJSON.decode("[" + exportRow("\"1\"", "\"a,\u{301}b\"", "\"q\\\"\u{301}x\"", "2026-02-23T08:00:00Z", "2026-02-23T09:00:00Z") + "]")
            let text = exportText(d, .csv)
            #expect(text.hasSuffix("1,\"a,\u{301}b\",\"q\"\"\u{301}x\",2026-02-23T08:00:00Z,2026-02-23T09:00:00Z\r\n"), "\(text.debugDescription)")
        }
    }
}

extension SessionsExportTests {
    struct Report {
        static func report() throws -> DayReport {
            let d = try SessionsJSON.decode(
                "["
                    + [
                        exportRow("1", "\"Firefox\"", "\"Browsing\"", "2026-02-23T09:00:00Z", "2026-02-23T10:00:00Z"),
                        exportRow("2", "\"Chrome, \\\"Beta\\\"\"", "\"Web\"", "2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z"),
                        exportRow("3", "\"Firefox\"", "\"Browsing\"", "2026-02-23T11:00:00Z", "2026-02-23T11:30:00Z"),
                        exportRow("4", "\"Notes\"", "null", "2026-02-23T12:00:00Z", "2026-02-23T12:00:00.5Z"),
                    ].joined(separator: ",") + "]")
            return DayReport(history: d, date: LocalDate(iso: "2026-02-23")!, zone: .utc)
        }

        @Test func csvHeaderAndRows() throws {
            let text = String(decoding: SessionsExport.report(try Self.report(), format: .csv), as: UTF8.self)
            let lines = text.components(separatedBy: "\r\n")
            #expect(lines.first == "rank,app,category,sessions,seconds,share")
            #expect(lines.dropFirst().first == "1,Firefox,Browsing,2,5400,0.7499")
            #expect(lines.dropFirst(2).first == "2,\"Chrome, \"\"Beta\"\"\",Web,1,1800,0.25")
            #expect(lines.dropFirst(3).first == "3,Notes,Other,1,0.5,0.0001")
            #expect(lines.count == 5 && lines.last == "", "CRLF after every row")
        }

        @Test func csvOfAnEmptyDay() throws {
            let d = try SessionsJSON.decode("[]")
            let r = DayReport(history: d, date: LocalDate(iso: "2026-02-23")!, zone: .utc)
            #expect(String(decoding: SessionsExport.report(r, format: .csv), as: UTF8.self) == "rank,app,category,sessions,seconds,share\r\n")
        }

        @Test(arguments: [ExportFormat.json, .ndjson])
        func jsonIsTheAppsDocument(format: ExportFormat) throws {
            let r = try Self.report()
            let bytes = SessionsExport.report(r, format: format)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text == ReportJSON.apps(r, apps: r.apps).serialized + "\n")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
            #expect(object["day"] as? String == "2026-02-23")
            #expect((object["apps"] as? [Any])?.count == 3)
        }
    }
}
