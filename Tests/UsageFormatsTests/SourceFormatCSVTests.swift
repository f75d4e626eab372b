// SourceFormatCSVTests.swift — CSV through the format layer (docs/DATA.md §1–2), a suite of SourceFormatTests.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData

// MARK: - CSV

extension SourceFormatTests {
    struct CSV {
        @Test func quotedFieldsWithCommasQuotesAndNewlinesKeepLaterRowsLines() throws {
            let text = [
                csvHeader,  // 1
                "a,\"Chrome, Beta\",Browsing,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z",  // 2
                "b,\"say \"\"hi\"\"\",,2026-02-23T10:00:00Z,2026-02-23T10:30:00Z",  // 3
                "c,\"two\nlines\",\"Work\nStuff\",2026-02-23T11:00:00Z,2026-02-23T11:30:00Z",  // 4–6
                "d,X,Y,2026-02-23T12:00:00Z,",  // 7
                "\"e\n\",X,Y,nope,2026-02-23T12:00:00Z",  // 8–9
                "f,X,Y,2026-02-23T13:00:00Z,2026-02-23T12:00:00Z",  // 10
            ].joined(separator: "\n") + "\n"
            #expect(detectFormat(text) == .csv)
            let d = try decodeSource(text)
            #expect(
                d.loaded == [
                    LoadedSession("2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z", "Chrome, Beta", "Browsing", id: "a"),
                    LoadedSession("2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z", "say \"hi\"", "Other", id: "b"),
                    LoadedSession("2026-02-23T11:00:00Z", "2026-02-23T11:30:00Z", "two\nlines", "Work\nStuff", id: "c"),
                ])
            #expect(d.skippedLines(.missingTimestamp) == [7])
            #expect(d.skippedLines(.badTimestamp) == [8])
            #expect(d.skippedLines(.endNotAfterStart) == [10])
            #expect(d.skipped.examples[.badTimestamp]?.first?.sessionID == "e\n")
        }

        @Test func crlfLineEndsInsideAndOutsideQuotes() throws {
            let text = [
                csvHeader,  // 1
                "c,\"two\r\nlines\",Work,2026-02-23T11:00:00Z,2026-02-23T11:30:00Z",  // 2–3
                "",  // 4
                "d,X,Y,,2026-02-23T12:00:00Z",  // 5
            ].joined(separator: "\r\n") + "\r\n"
            let d = try decodeSource(text)
            #expect(d.loaded == [LoadedSession("2026-02-23T11:00:00Z", "2026-02-23T11:30:00Z", "two\r\nlines", "Work", id: "c")])
            #expect(d.skippedLines(.missingTimestamp) == [5])
        }

        @Test func anEmptyCellIsNull() throws {
            let d = try decodeSource(csvHeader + "\n,,,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\n, ,  ,2026-02-23T10:00:00Z,2026-02-23T10:30:00Z\n")
            #expect(
                d.loaded == [
                    LoadedSession("2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z", "(unknown)", "Other", id: nil),
                    LoadedSession("2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z", "(unknown)", "Other", id: nil),
                ])
        }

        @Test(arguments: ["start_timestamp", "end_timestamp"])
        func aMissingTimeColumnIsNamed(column: String) {
            let header = SourceFormat.sessionFields.filter { $0 != column }.joined(separator: ",")
            let error = ingestError(header + "\na,b,c,2026-02-23T09:00:00Z\n")
            switch error {
            case .syntax(let line, _, let message)?:
                #expect(line == 1)
                #expect(message.contains(column), "\(message)")
            case .malformed(let format, let problem)?:
                #expect(format == SourceFormat.csv.rawValue)
                #expect(problem.contains(column), "\(problem)")
            default:
                Issue.record("\(String(describing: error))")
            }
        }

        /// The missing-column error is thrown as `.syntax`, whose text begins "not valid JSON at
        /// line 1, column 1" — wrong for a CSV file.
        @Test func bugCSVMissingColumnErrorSaysNotValidJSON() throws {
            let error = try #require(ingestError("session_id,app_name,start_timestamp\na,b,2026-02-23T09:00:00Z\n"))
            #expect(!error.description.contains("JSON"), "\(error.description)")
            #expect(error.description.contains("end_timestamp"))
        }

        @Test func columnsInAnyOrderAndExtraColumnsIgnored() throws {
            let text = """
                notes,END_TIMESTAMP, Start_Timestamp ,app_name,extra,session_id
                "x,y",2026-02-23T09:30:00Z,2026-02-23T09:00:00Z,Safari,1,S-9,more,cells
                n,2026-02-23T10:30:00Z,2026-02-23T10:00:00Z
                """
            let d = try decodeSource(text)
            #expect(
                d.loaded == [
                    LoadedSession("2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z", "Safari", "Other", id: "S-9"),
                    LoadedSession("2026-02-23T10:00:00Z", "2026-02-23T10:30:00Z", "(unknown)", "Other", id: nil),
                ])
        }

        @Test func blankLinesAreIgnoredAndCounted() throws {
            let text = csvHeader + "\n\n   \na,X,Y,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\n\nb,X,Y,2026-02-23T09:00:00Z,x\n\n\n"
            let d = try decodeSource(text)
            #expect(d.sessions.count == 1)
            #expect(d.skipped.total == 1)
            #expect(d.skippedLines(.badTimestamp) == [6])
        }

        @Test func aBOMBeforeTheHeader() throws {
            let d = try decodeSource("\u{FEFF}" + csvHeader + "\r\na,X,Y,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\r\n")
            #expect(d.loaded.map(\.id) == ["a"])
        }

        @Test(arguments: [csvHeader, csvHeader + "\n", csvHeader + "\r\n", "\u{FEFF}" + csvHeader + "\n\n"])
        func aHeaderOnlyIsNoSessions(text: String) throws {
            let d = try decodeSource(text)
            #expect(d.sessions.count == 0)
            #expect(d.skipped.total == 0)
        }

        @Test func invalidUTF8BecomesReplacementAndIsCounted() throws {
            var bytes = Array((csvHeader + "\na,Chr").utf8)
            bytes += [0xFF]
            bytes += Array("me,Web,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\nb,Ok,Web,2026-02-23T10:00:00Z,2026-02-23T10:30:00Z\n".utf8)
            let d = try decodeSource(bytes)
            #expect(d.loaded.map(\.app) == ["Chr\u{FFFD}me", "Ok"])
            #expect(d.repairedStrings == 1)
        }

        /// Once the input holds any invalid UTF-8, every field with a U+FFFD was counted as repaired,
        /// genuine U+FFFD characters of valid rows included.
        @Test func bugCSVCountsGenuineReplacementCharactersAsRepaired() throws {
            var bytes = Array((csvHeader + "\na,Genuine \u{FFFD},Web,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\nb,Bad ").utf8)
            bytes += [0xFF]
            bytes += Array(",Web,2026-02-23T10:00:00Z,2026-02-23T10:30:00Z\n".utf8)
            let d = try decodeSource(bytes)
            #expect(d.sessions.count == 2)
            #expect(d.repairedStrings == 1)
        }

        /// Detection finds the header after leading blank lines, so decoding must too.
        @Test func bugCSVHeaderAfterLeadingBlankLineIsNotFound() throws {
            let text = "\n" + csvHeader + "\na,X,Y,2026-02-23T09:00:00Z,x\n"
            #expect(detectFormat(text) == .csv)
            let d = try decodeSource(text)
            #expect(d.skippedLines(.badTimestamp) == [3])
        }

        /// The decoder reads header names case-insensitively, so detection must too.
        @Test func bugCSVUppercaseHeaderIsNotDetected() throws {
            let text = "SESSION_ID,APP_NAME,CATEGORY,START_TIMESTAMP,END_TIMESTAMP\na,X,Y,2026-02-23T09:00:00Z,2026-02-23T09:30:00Z\n"
            #expect(detectFormat(text) == .csv)
            let d = try decodeSource(text)
            #expect(d.sessions.count == 1)
        }
    }
}
