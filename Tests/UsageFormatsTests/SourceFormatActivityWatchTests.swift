// SourceFormatActivityWatchTests.swift — ActivityWatch exports through the format layer (docs/DATA.md §1–2), a suite of SourceFormatTests.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData

// MARK: - ActivityWatch

extension SourceFormatTests {
    struct ActivityWatch {
        /// A laptop with window, AFK and web buckets; a desktop with only a window bucket; a third
        /// host with only an AFK bucket.
        static let export = """
            {
              "buckets": {
                "aw-watcher-window_laptop": {
                  "id": "aw-watcher-window_laptop", "type": "currentwindow", "client": "aw-watcher-window", "hostname": "laptop",
                  "created": "2026-02-01T00:00:00.000000+00:00",
                  "events": [
                    {"id": 1, "timestamp": "2026-02-23T09:00:00+00:00", "duration": 3600.0, "data": {"app": "Firefox", "title": "x"}},
                    {"id": 2, "timestamp": "2026-02-23T10:00:00.250000+00:00", "duration": 515.968, "data": {"app": "Terminal"}},
                    {"id": 3, "timestamp": "2026-02-23T11:00:00Z", "duration": 0.0000001, "data": {"app": "Zero"}},
                    {"id": 4, "timestamp": "yesterday", "duration": 5, "data": {"app": "Bad"}},
                    {"id": 5, "timestamp": "2026-02-23T11:00:00Z", "duration": -5, "data": {"app": "Negative"}},
                    {"id": 6, "timestamp": "2026-02-23T10:30:00Z", "duration": 2, "data": {"app": "Two"}},
                    {"id": 7, "timestamp": "2026-02-23T09:25:00Z", "duration": 60, "data": {"app": "WhileAway"}},
                    {"id": 8, "timestamp": "2026-02-23T10:40:00Z", "duration": 12, "data": {"title": "no app"}}
                  ]
                },
                "aw-watcher-afk_laptop": {
                  "id": "aw-watcher-afk_laptop", "type": "afkstatus", "hostname": "laptop",
                  "events": [
                    {"id": 10, "timestamp": "2026-02-23T09:00:00Z", "duration": 1200, "data": {"status": "not-afk"}},
                    {"id": 11, "timestamp": "2026-02-23T09:20:00Z", "duration": 1200, "data": {"status": "afk"}},
                    {"id": 12, "timestamp": "2026-02-23T09:40:00Z", "duration": 3600, "data": {"status": "not-afk"}},
                    {"id": 13, "timestamp": "2026-02-23T10:30:00Z", "duration": 7200, "data": {"status": "not-afk"}}
                  ]
                },
                "aw-watcher-window_desktop": {
                  "type": "currentwindow", "hostname": "desktop",
                  "events": [{"id": 20, "timestamp": "2026-02-23T09:00:00Z", "duration": 1800, "data": {"app": "Code"}}]
                },
                "aw-watcher-afk_elsewhere": {
                  "type": "afkstatus", "hostname": "elsewhere",
                  "events": [{"timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"status": "not-afk"}}]
                },
                "aw-watcher-web-firefox": {
                  "type": "web.tab.current", "hostname": "laptop",
                  "events": [{"id": 30, "timestamp": "2026-02-23T09:00:00Z", "duration": 100, "data": {"url": "https://x", "title": "y"}}]
                }
              }
            }
            """

        @Test func windowEventsBecomeSessionsInsideNotAFKTime() throws {
            #expect(detectFormat(Self.export) == .activityWatch)
            let d = try decodeSource(Self.export, source: "aw.json")
            let terminalStart = instant("2026-02-23T10:00:00.250000Z")
            #expect(
                d.loaded == [
                    LoadedSession("2026-02-23T09:00:00Z", "2026-02-23T09:20:00Z", "Firefox", "Other", id: "1"),
                    LoadedSession("2026-02-23T09:00:00Z", "2026-02-23T09:30:00Z", "Code", "Other", id: "20"),
                    LoadedSession("2026-02-23T09:40:00Z", "2026-02-23T10:00:00Z", "Firefox", "Other", id: "1"),
                    LoadedSession(start: terminalStart, end: terminalStart + 515_968_000, app: "Terminal", category: "Other", id: "2"),
                    LoadedSession("2026-02-23T10:30:00Z", "2026-02-23T10:30:02Z", "Two", "Other", id: "6"),
                    LoadedSession("2026-02-23T10:40:00Z", "2026-02-23T10:40:12Z", "(unknown)", "Other", id: "8"),
                ])
            #expect(d.skipped.count(.badTimestamp) == 1)
            #expect(d.skipped.examples[.badTimestamp]?.first == SkippedRow(reason: .badTimestamp, sessionID: "4", line: nil))
            #expect(d.skipped.count(.endNotAfterStart) == 1)
            #expect(d.skipped.examples[.endNotAfterStart]?.first?.sessionID == "5")
            #expect(d.skipped.total == 2, "zero-length events are dropped silently")
            #expect(!d.apps.contains("Zero") && !d.apps.contains("WhileAway"))
        }

        @Test func compactExportDecodesTheSame() throws {
            let compact = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: Data(Self.export.utf8)))
            #expect(detectFormat(Array(compact)) == .activityWatch)
            let d = try decodeSource(Array(compact))
            #expect(d.loaded == (try decodeSource(Self.export)).loaded)
        }

        @Test(arguments: [
            ("2026-02-23T09:00:00+00:00", 515.968, Micros(515_968_000)),
            ("2026-02-23T09:00:00.250000+00:00", 0.0000005, Micros(1)),
            ("2026-02-23T09:00:00Z", 0.0000004, Micros(0)),
            ("2026-02-23T09:00:00.123456789+02:00", 1.5, Micros(1_500_000)),
            ("2026-02-23T09:00:00Z", 0.1, Micros(100_000)),
            ("2026-02-23T09:00:00Z", 3600.000001, Micros(3_600_000_001)),
        ] as [(String, Double, Micros)])
        func durationsRoundToTheMicrosecond(timestamp: String, duration: Double, length: Micros) throws {
            let json = #"{"timestamp":""# + timestamp + #"","duration":"# + "\(duration)" + #","data":{"app":"A"}}"#
            let d = try decodeSource(Self.oneEvent(json))
            #expect(d.skipped.total == 0)
            guard length > 0 else { return #expect(d.sessions.isEmpty, "an empty event is dropped") }
            #expect(d.loaded.first?.start == RFC3339.parse(timestamp))
            #expect(d.loaded.first.map { $0.end - $0.start } == length)
        }

        /// An export of one window bucket holding one event.
        static func oneEvent(_ json: String) -> String {
            #"{"buckets": {"w": {"type": "currentwindow", "hostname": "h", "events": ["# + json + "]}}}"
        }

        @Test(arguments: [
            (#"{"duration": 5}"#, SkipReason.missingTimestamp),
            (#"{"timestamp": "2026-02-23T09:00:00Z"}"#, .missingTimestamp),
            (#"{"timestamp": null, "duration": 5}"#, .missingTimestamp),
            (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": null}"#, .missingTimestamp),
            (#"{"timestamp": "2026-02-23T09:00:00", "duration": 5}"#, .badTimestamp),
            (#"{"timestamp": "2026-02-30T09:00:00Z", "duration": 5}"#, .badTimestamp),
            (#"{"timestamp": 1771837200, "duration": 5}"#, .badTimestamp),
            (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": "5"}"#, .badFieldType),
            (#"{"timestamp": "2026-02-23T09:00:00Z", "duration": -0.5}"#, .endNotAfterStart),
        ] as [(String, SkipReason)])
        func badEventsNameTheirReason(json: String, reason: SkipReason) throws {
            let d = try decodeSource(Self.oneEvent(json))
            #expect(d.sessions.isEmpty)
            #expect(d.skipped.total == 1)
            #expect(d.skipped.count(reason) == 1)
        }

        /// On Linux, JSONSerialization's NSNumber for `0`, `1`, `0.0` and `1.0` answers `is Bool`
        /// true, so such durations were refused as `bad_field_type`: zero-length heartbeats (very
        /// common in ActivityWatch) were counted as skipped instead of dropped, one-second events lost.
        @Test func bugAWDurationZeroOrOneIsReadAsABoolean() throws {
            let text = """
                {"buckets": {"w": {"type": "currentwindow", "hostname": "h", "events": [
                  {"id": 1, "timestamp": "2026-02-23T09:00:00Z", "duration": 0, "data": {"app": "Zero"}},
                  {"id": 2, "timestamp": "2026-02-23T09:00:00Z", "duration": 0.0, "data": {"app": "Zero"}},
                  {"id": 3, "timestamp": "2026-02-23T10:00:00Z", "duration": 1, "data": {"app": "One"}},
                  {"id": 4, "timestamp": "2026-02-23T11:00:00Z", "duration": 1.0, "data": {"app": "One"}}
                ]}}}
                """
            let d = try decodeSource(text)
            #expect(d.skipped.total == 0, "zero-length events are dropped silently")
            #expect(d.loaded.map(\.id) == ["3", "4"])
            #expect(d.loaded.map { $0.end - $0.start } == [1_000_000, 1_000_000])
        }

        @Test(arguments: ["true", "false"])
        func aBooleanDurationIsABadFieldType(literal: String) throws {
            let json = #"{"timestamp":"2026-02-23T09:00:00Z","duration":"# + literal + "}"
            let d = try decodeSource(Self.oneEvent(json))
            #expect(d.skipped.count(.badFieldType) == 1, "a duration of \(literal) was accepted")
        }

        @Test func aHostWithOnlyAFKTimeKeepsNothing() throws {
            let text = """
                {"buckets": {
                  "w": {"type": "currentwindow", "hostname": "h", "events": [{"timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "A"}}]},
                  "a": {"type": "afkstatus", "hostname": "h", "events": [{"timestamp": "2026-02-23T08:00:00Z", "duration": 7200, "data": {"status": "afk"}}]}
                }}
                """
            let d = try decodeSource(text)
            #expect(d.sessions.isEmpty)
            #expect(d.skipped.total == 0)
        }

        @Test func overlappingNotAFKPeriodsAreUnited() {
            let periods = ActivityWatchRead.union([5..<10, 0..<3, 2..<4, 10..<12, 20..<25, 21..<22])
            #expect(periods == [0..<4, 5..<12, 20..<25])
            #expect(ActivityWatchRead.intersections(of: 3..<21, with: periods) == [3..<4, 5..<12, 20..<21])
            #expect(ActivityWatchRead.intersections(of: 12..<20, with: periods) == [])
            #expect(ActivityWatchRead.intersections(of: -5..<100, with: periods) == periods)
        }

        @Test(arguments: [#"{"buckets": []}"#, #"{"buckets": {"x": 1}}"#, #"{"buckets": null}"#])
        func aMalformedExportNamesTheFormat(text: String) {
            guard case .malformed(let format, _)? = ingestError(text) else {
                Issue.record("\(String(describing: ingestError(text)))")
                return
            }
            #expect(format == SourceFormat.activityWatch.rawValue)
        }

        @Test func invalidJSONInAnExportIsASyntaxError() {
            let text = "{\"buckets\": {\n  \"w\": {\"type\": \"currentwindow\",,}\n}}"
            guard case .syntax(let line, _, _)? = ingestError(text) else {
                Issue.record("\(String(describing: ingestError(text)))")
                return
            }
            #expect(line == 2)
        }

        /// The same docs/DATA.md §1 repair as for Timewarrior: an app name with invalid UTF-8 keeps its event.
        @Test func bugAWInvalidUTF8FailsTheWholeLoad() throws {
            var bytes = Array(#"{"buckets": {"w": {"type": "currentwindow", "hostname": "h", "events": [{"timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "A"#.utf8)
            bytes += [0xC3]
            bytes += Array(#""}}]}}}"#.utf8)
            let d = try decodeSource(bytes)
            #expect(d.loaded.map(\.app) == ["A\u{FFFD}"])
            #expect(d.repairedStrings == 1)
        }

        /// One event that is not an object must not silently drop the whole bucket.
        @Test func bugAWNonObjectEventDropsTheWholeBucket() throws {
            let text = """
                {"buckets": {"w": {"type": "currentwindow", "hostname": "h", "events": [
                  {"id": 1, "timestamp": "2026-02-23T09:00:00Z", "duration": 60, "data": {"app": "A"}},
                  "junk"
                ]}}}
                """
            let d = try decodeSource(text)
            #expect(d.sessions.count == 1)
            #expect(d.skipped.count(.notAnObject) == 1)
        }
    }
}
