// ReaderDifferential.swift — what the reader differential tests share: the chunkings every input is read with, and the comparison of a reader with its reference (Reference/) on fixtures, bad inputs and seeded dirty documents.
import Foundation
import ReferenceReaders
import Testing
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData
import TestSupport

/// The chunkings the readers read every input with (the references read it whole).
let readerChunkings: [Chunking] = [
    .standard, Chunking(segmentBytes: 1, readBytes: 1, workers: 1), Chunking(segmentBytes: 5, readBytes: 3, workers: 2),
    Chunking(segmentBytes: 64, readBytes: 7, workers: 2), Chunking(segmentBytes: 1000, readBytes: 333, workers: 3),
]


enum ReaderDifferential {
    static func ndjsonNew(_ bytes: [UInt8], _ chunking: Chunking) -> LoadFacts {
        LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in try SessionsJSON.decodeNDJSON(b, source: "t", chunking: chunking) }
        })
    }

    static func ndjsonOld(_ bytes: [UInt8]) -> LoadFacts {
        LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try LegacyNDJSON.decode(b, source: "t", cancellation: CancellationToken())
            }
        })
    }

    static func awNew(_ bytes: [UInt8], _ chunking: Chunking) -> LoadFacts {
        LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try ActivityWatchRead.read(b, document: .export, chunking: chunking).dataset(source: "t")
            }
        })
    }

    static func awOld(_ bytes: [UInt8]) -> LoadFacts {
        LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try LegacyActivityWatch.decodeExport(b, source: "t", cancellation: CancellationToken())
            }
        })
    }

    static func timewNew(_ bytes: [UInt8], _ chunking: Chunking, now: Micros?) -> LoadFacts {
        LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try TimewarriorJSON.decode(b, source: "t", now: now, chunking: chunking)
            }
        })
    }

    /// Checks the Timewarrior reader at every chunking, with and without a clock, against the
    /// reference: the same facts, or the same error (kind, line and column); no disagreement is excused.
    static func checkTimew(_ bytes: [UInt8], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for now in [nil, RefRFC3339.parse("2026-02-23T12:00:00Z")!] as [Micros?] {
            let reference = RefTimewarrior.read(bytes, now: now)
            for chunking in readerChunkings {
                let new = RefFacts(Result { () throws(IngestError) in
                    try bytes.withUnsafeBufferPointer { b throws(IngestError) in try TimewarriorJSON.decode(b, source: "t", now: now, chunking: chunking) }
                })
                #expect(new == reference, "\(label) (\(chunking), now \(now as Any)):\n reader    \(new)\n reference \(reference)", sourceLocation: sourceLocation)
                if new != reference { return }
            }
        }
    }

    /// A dirty `timew export`: intervals of every kind (running ones, RFC 3339 times, tags in
    /// any order and repeated, tags that are not strings, repeated keys, nested unknown
    /// fields), and elements that are not intervals.
    static func timewExport(_ g: inout SplitMix64, intervals: Int) -> String {
        let tags = [
            "\"fun\"", "\"gaming\"", "\" work \"", "\"\"", "\"Beta\"", "\"alpha\"", "\"é\"", "\"e\\u0301\"", "\"a, b\"",
            "\"lone \\ud800\"", "\"🎵\"", "1", "null", "[\"x\"]",
        ]
        let times = [
            "\"20260223T093500Z\"", "\"20260223T101000Z\"", "\"20260222T235900Z\"", "\"2026-02-23T09:35:00+01:00\"",
            "\"20260223T0935Z\"", "\"2026022XT093500Z\"", "\"20260230T093500Z\"", "\"20260224T093500Z\"", "null", "1", "\"\"",
        ]
        var out: [String] = []
        for k in 0..<intervals {
            if g.chance(0.03) {
                out.append(g.pick(["\"junk\"", "1", "[1, 2]", "null", "[{\"start\": 1}]"]))
                continue
            }
            var members: [String] = []
            if !g.chance(0.1) { members.append("\"id\": " + (g.chance(0.8) ? "\(intervals - k)" : g.pick(ids))) }
            let start = g.chance(0.85) ? "\"202602\(10 + g.below(13))T\(10 + g.below(10))\(10 + g.below(50))00Z\"" : g.pick(times)
            if !g.chance(0.03) { members.append("\"start\": " + start) }
            if !g.chance(0.08) {
                let end = g.chance(0.85) ? "\"202602\(10 + g.below(13))T\(10 + g.below(10))\(10 + g.below(50))00Z\"" : g.pick(times)
                members.append("\"end\": " + end)
            }
            if !g.chance(0.1) {
                if g.chance(0.05) {
                    members.append("\"tags\": " + g.pick(["null", "\"fun\"", "{}", "1", "[]"]))
                } else {
                    let list = (0..<g.below(4)).map { _ in g.chance(0.85) ? tags[g.below(7)] : g.pick(tags) }
                    members.append("\"tags\": [" + list.joined(separator: g.chance(0.5) ? ", " : ",") + "]")
                }
            }
            if g.chance(0.1) { members.append("\"annotation\": \"},{\\\"start\\\":\\\"x\\\"\"") }
            if g.chance(0.05) { members.append("\"extra\": {\"list\": [{\"a\": [1, {\"b\": null}]}, {}], \"x\": -1.5e-3}") }
            // Repeated keys: the first one wins, as it did.
            if g.chance(0.03) { members.append("\"start\": \"20260223T120000Z\"") }
            if g.chance(0.03) { members.append("\"tags\": [\"second\"]") }
            members.shuffle(using: &g)
            out.append("{" + members.joined(separator: g.chance(0.3) ? "," : ", ") + "}")
        }
        return "[\n" + out.joined(separator: g.chance(0.5) ? ",\n" : ",") + "\n]\n"
    }

    static func csvNew(_ bytes: [UInt8], _ chunking: Chunking, _ options: ReadOptions) -> LoadFacts {
        LoadFacts(Result { () throws(IngestError) in
            try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try CSVFormat.decode(b, source: "t", options: options, cancellation: nil, chunking: chunking)
            }
        })
    }

    static let csvOptions = [
        ReadOptions(), ReadOptions(localZone: Zone(identifier: "Europe/Paris")),
        ReadOptions(localZone: .utc, columns: try! ColumnMapping(parsing: "app=Program,start=From,end=To")),
    ]

    /// Checks the CSV reader at every chunking and with several options against the reference.
    static func checkCSV(_ bytes: [UInt8], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for options in csvOptions {
            let reference = RefCSV.read(bytes, options: options)
            for chunking in readerChunkings {
                let new = RefFacts(Result { () throws(IngestError) in
                    try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                        try CSVFormat.decode(b, source: "t", options: options, cancellation: nil, chunking: chunking)
                    }
                })
                #expect(new == reference, "\(label) (\(chunking), \(options)):\n reader    \(new)\n reference \(reference)", sourceLocation: sourceLocation)
                if new != reference { return }
            }
        }
    }

    /// A dirty CSV: headers of every kind other tools write (any order, synonyms, unknown and
    /// mapped columns, a duration instead of an end), any delimiter, quoted cells with
    /// delimiters, quotes, line breaks and stray quotes, LF, CR and CRLF line ends, blank and
    /// white-space lines, formula guards, times of every form, durations, short and long rows.
    static func csvFile(_ g: inout SplitMix64, rows: Int) -> String {
        let delimiter = g.pick([",", ",", ";", "\t"])
        let eols = g.chance(0.6) ? ["\n"] : g.pick([["\r\n"], ["\r"], ["\n", "\r\n", "\r"]])
        let headers: [[String]] = [
            ["session_id", "app_name", "category", "start_timestamp", "end_timestamp"],
            ["App", "Start", "End"], ["Application", "Category", "Start Time", "Duration"],
            ["ID", "Program", "From", "To", "Notes"], ["Program", "From", "To"], ["app", "start", "duration (s)", "stop"],
            ["\"App, Name\"", "Start", "End"], ["Begin", "App Name", "Seconds"], ["Start", "End"], ["App", "Notes"],
        ]
        var header = g.pick(headers)
        if g.chance(0.3) { header.shuffle(using: &g) }
        if g.chance(0.1) { header.append("Extra") }
        let cellsOf: [String: () -> String] = [:]
        _ = cellsOf
        func time(_ g: inout SplitMix64) -> String {
            let day = 10 + g.below(14)
            let clock = "\(10 + g.below(10)):\(10 + g.below(50))"
            switch g.below(12) {
            case 0: return "2026-02-\(day) \(clock)"
            case 1: return "2026-02-\(day) \(clock):00 +0100"
            case 2: return "2026-02-\(day)T\(clock):00.5"
            case 3: return g.pick(["", "yesterday", "2026-02-30 10:00", " 2026-02-\(day)T\(clock):00Z", "2026-03-29 02:30", "2026-10-25 02:30"])
            default: return "2026-02-\(day)T\(clock):00Z"
            }
        }
        func text(_ g: inout SplitMix64) -> String {
            g.pick([
                "Safari", "Mail", " Slack ", "", "Chrome, Beta", "say \"hi\"", "'=SUM(A1)", "''+1", "=cmd", "line\nbreak", "cr\rlf",
                "é", "e\u{301}", "\u{3000}", "微信", "a\u{0600},b",
            ])
        }
        func quoted(_ cell: String, _ g: inout SplitMix64) -> String {
            let special = cell.contains(delimiter) || cell.contains("\"") || cell.contains("\n") || cell.contains("\r")
            if special || g.chance(0.1) {
                // Quoted as RFC 4180 has it; sometimes broken (a stray quote, no closing quote).
                var q = "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                if g.chance(0.05) { q = "\"" + cell + "\"x" }
                return q
            }
            return cell
        }
        var lines: [String] = []
        if g.chance(0.2) { lines.append(g.pick(["", "  ", "\t"])) }
        lines.append(header.joined(separator: delimiter))
        for k in 0..<rows {
            switch g.below(25) {
            case 0: lines.append(g.pick(["", "   ", "\u{3000}", "\"\"", "\"\n\""]))
                continue
            case 1: lines.append(quoted(text(&g), &g))
                continue
            default: break
            }
            var cells: [String] = header.map { name in
                switch RefCSVHeader.key(name) {
                case "sessionid", "id": return g.chance(0.9) ? "s\(k)" : g.pick(["", "'-1", "=x", "é", "a,b"])
                case "appname", "app", "application", "program", "appname1": return text(&g)
                case "category": return g.chance(0.7) ? g.pick(["Work", "Social", "", "others"]) : text(&g)
                case "start", "starttimestamp", "starttime", "begin", "from": return time(&g)
                case "end", "endtimestamp", "stop", "to": return time(&g)
                case "duration", "durations", "seconds":
                    return g.pick(["3900", "600", "12.5", "1:05:00", "1h 5m", "45 min", "-5", "", "x", "0", "999999999999999"])
                default: return text(&g)
                }
            }
            if g.chance(0.05) { cells.removeLast() }
            if g.chance(0.05) { cells.append("more") }
            lines.append(cells.map { quoted($0, &g) }.joined(separator: delimiter))
        }
        var out = ""
        for (k, line) in lines.enumerated() {
            out += line
            if k < lines.count - 1 || g.chance(0.7) { out += g.pick(eols) }
        }
        return (g.chance(0.1) ? "\u{FEFF}" : "") + out
    }

    /// Bytes that are not UTF-8 put anywhere but in the header (single bytes, and sometimes a
    /// cut multi-byte sequence).
    static func withInvalidBytes(_ text: String, _ g: inout SplitMix64) -> [UInt8] {
        var bytes = Array(text.utf8)
        let firstLine = bytes.firstIndex(of: 0x0A) ?? bytes.count
        var k = firstLine + 1
        while k < bytes.count {
            if g.chance(0.01) {
                bytes.insert(contentsOf: g.pick([[0xFF], [0xFE], [0x80], [0xC3], [0xE2, 0x82], [0xF0, 0x9F]]) as [UInt8], at: k)
            }
            k += 1
        }
        return bytes
    }

    /// Checks the NDJSON reader at every chunking against the reference.
    static func checkNDJSON(_ bytes: [UInt8], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = RefNDJSON.read(bytes)
        for chunking in readerChunkings {
            let new = RefFacts(Result { () throws(IngestError) in
                try bytes.withUnsafeBufferPointer { b throws(IngestError) in try SessionsJSON.decodeNDJSON(b, source: "t", chunking: chunking) }
            })
            #expect(new == reference, "\(label) (\(chunking)):\n reader    \(new)\n reference \(reference)", sourceLocation: sourceLocation)
            if new != reference { return }
            // The web buckets' visits, of an export both read.
            let visits = try? bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try ActivityWatchRead.read(b, document: .export, chunking: chunking).visits
            }
            guard let visits else { continue }
            let expected = RefActivityWatchWeb.visits(bytes)
            #expect(visits == expected, "\(label) (\(chunking)): visits\n reader    \(String(describing: visits))\n reference \(String(describing: expected))", sourceLocation: sourceLocation)
            if visits != expected { return }
        }
    }

    /// Checks the ActivityWatch reader at every chunking against the reference.
    static func checkAW(_ bytes: [UInt8], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let reference = RefActivityWatch.read(bytes)
        for chunking in readerChunkings {
            let new = RefFacts(Result { () throws(IngestError) in
                try bytes.withUnsafeBufferPointer { b throws(IngestError) in
                    try ActivityWatchRead.read(b, document: .export, chunking: chunking).dataset(source: "t")
                }
            })
            #expect(new == reference, "\(label) (\(chunking)):\n reader    \(new)\n reference \(reference)", sourceLocation: sourceLocation)
            if new != reference { return }
            // The web buckets' visits, of an export both read.
            let visits = try? bytes.withUnsafeBufferPointer { b throws(IngestError) in
                try ActivityWatchRead.read(b, document: .export, chunking: chunking).visits
            }
            guard let visits else { continue }
            let expected = RefActivityWatchWeb.visits(bytes)
            #expect(visits == expected, "\(label) (\(chunking)): visits\n reader    \(String(describing: visits))\n reference \(String(describing: expected))", sourceLocation: sourceLocation)
            if visits != expected { return }
        }
    }

    // MARK: Dirty documents

    static let names = [
        "\"Firefox\"", "\"Code\"", "\" Slack \"", "\"\"", "null", "\"微信\"", "\"Caf\\u00e9\"", "\"e\\u0301\"", "\"🎵 Tunes\"",
        "\"Say \\\"hi\\\"\"", "\"tab\\there\"", "\"lone \\ud800 surrogate\"", "\"pair \\ud83d\\ude00\"", "\"},{\\\"app\\\":\\\"x\\\"\"",
        "42", "true", "[\"Firefox\"]", "{\"a\": 1}", "\" Chromium \"", "\"Google-Chrome\"",
    ]
    static let timestamps = [
        "\"2026-02-23T09:00:00+00:00\"", "\"2026-02-23T09:00:00.250000+00:00\"", "\"2026-02-23T23:59:30Z\"",
        "\"2026-02-23T10:00:00.123456789+02:00\"", "\"2026-02-30T09:00:00Z\"", "\"2026-02-23T09:00:00\"", "\"yesterday\"", "null",
        "1771837200", "\"\"",
    ]
    static let durations = [
        "600.0", "0.0", "0", "1", "1.0", "3600.000001", "0.0000005", "515.968", "-5", "-0.0", "\"5\"", "true", "null", "1e3",
        "2.5E-1", "1e9", "12345678901234567890", "0.1",
    ]
    static let ids = ["1", "\"e1\"", "null", "-0", "1.5", "1e2", "12345678901234567890", "true", "\"\"", "\"é\""]

    /// One event, most of them good, some with one fault of a real export or worse.
    /// aw-watcher-web's URLs, clean and dirty: hosts with a port, user information, upper case,
    /// a trailing dot, IPv6; the browser's own pages, files, no host, escapes, not a string.
    static let urls = [
        "\"https://docs.python.org/3/library/json.html?q=1#top\"", "\"http://127.0.0.1:8000/secret/path\"", "\"HTTPS://Example.ORG./Title\"",
        "\"https://user:pw@mail.example.com:443/inbox\"", "\"http://[::1]:8080/x\"", "\"about:blank\"", "\"chrome://settings/\"",
        "\"file:///home/me/notes.txt\"", "\"https:///no-host\"", "\"https:\\/\\/escaped.example\\/p\"", "\"moz-extension://abc/x.html\"",
        "\"https://bad host/x\"", "\"https://caf\\u00e9.example/\"", "\"\"", "null", "42", "\" https://spaced.example/ \"",
        "\"http://localhost:99999/\"", "\"https://a..b/\"",
    ]
    static let browsers = ["chrome", "chromium", "firefox", "Firefox", "edge", "brave", ""]

    static func event(_ g: inout SplitMix64, status: Bool, web: Bool = false) -> String {
        if g.chance(0.03) { return g.pick(["\"junk\"", "1", "[1, 2]", "null", "[{\"timestamp\": 1}]"]) }
        var members: [String] = []
        if !g.chance(0.1) { members.append("\"id\": " + (g.chance(0.8) ? "\(g.below(100_000))" : g.pick(ids))) }
        if !g.chance(0.03) { members.append("\"timestamp\": " + (g.chance(0.8) ? timestamps[g.below(4)] : g.pick(timestamps))) }
        if !g.chance(0.03) { members.append("\"duration\": " + (g.chance(0.8) ? "\(g.below(4000)).\(g.below(1000))" : g.pick(durations))) }
        var data: [String] = []
        if status {
            data.append("\"status\": " + g.pick(["\"not-afk\"", "\"not-afk\"", "\"afk\"", "null", "1", "\"not-af\\u006b\""]))
        } else if !g.chance(0.05) {
            data.append("\"app\": " + (g.chance(0.7) ? names[g.below(3)] : g.pick(names)))
        }
        if g.chance(0.5) { data.append("\"title\": " + g.pick(names)) }
        if web {
            if g.chance(0.95) { data.append("\"url\": " + (g.chance(0.6) ? urls[g.below(5)] : g.pick(urls))) }
            if g.chance(0.5) { data.append("\"incognito\": " + g.pick(["false", "false", "true", "null", "\"true\"", "1"])) }
            if g.chance(0.3) { data.append("\"audible\": false, \"tabCount\": 3") }
            if g.chance(0.02) { data.append("\"url\": \"https://second.example/\"") }
        }
        if g.chance(0.1) { data.append("\"nested\": {\"list\": [{\"a\": [1, {\"b\": null}]}, {}], \"x\": -1.5e-3}") }
        if g.chance(0.05) { data.shuffle(using: &g) }
        if g.chance(0.97) {
            members.append("\"data\": " + (g.chance(0.97) ? "{" + data.joined(separator: ", ") + "}" : g.pick(["null", "[]", "\"x\""])))
        }
        if g.chance(0.05) { members.append("\"extra\": [{\"a\": \"}, {\"}, {\"b\": [[], {}]}]") }
        // Repeated keys: the first one wins, as it did.
        if g.chance(0.03) { members.append("\"timestamp\": \"2026-02-23T12:00:00Z\"") }
        if g.chance(0.03) { members.append("\"data\": {\"app\": \"Second\"}") }
        members.shuffle(using: &g)
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A dirty ActivityWatch export: window, AFK and other buckets of a few hosts, fields in any
    /// order, events of every kind.
    static func awExport(_ g: inout SplitMix64, buckets count: Int, events: Int) -> String {
        var buckets: [String] = []
        let hosts = ["laptop", "desktop", "", "host\\u00e9"]
        for b in 0..<count {
            let kind = g.pick(["currentwindow", "currentwindow", "afkstatus", "web.tab.current", "app.editor.activity"])
            let host = g.pick(hosts)
            var fields: [String] = []
            let browser = kind == "web.tab.current" ? "aw-watcher-web-" + g.pick(browsers) + (g.chance(0.3) ? "_" + host : "") : nil
            if g.chance(0.8) { fields.append("\"id\": \"" + (browser ?? "bucket-\(b)") + "\"") }
            fields.append("\"type\": \"\(kind)\"")
            if g.chance(0.95) { fields.append("\"hostname\": \"\(host)\"") } else if g.chance(0.5) { fields.append("\"hostname\": null") }
            fields.append("\"client\": \"aw-watcher\", \"created\": \"2026-02-01T00:00:00.000000+00:00\", \"data\": {}, \"name\": null")
            let list = (0..<g.below(events + 1)).map { _ in event(&g, status: kind == "afkstatus", web: kind == "web.tab.current") }
            fields.append("\"events\": [" + list.joined(separator: g.chance(0.5) ? ", " : ",\n    ") + "]")
            fields.shuffle(using: &g)
            let key = g.chance(0.9) ? (browser.map { "\($0)\(b)" } ?? "aw-watcher-\(kind)_\(host)\(b)") : g.pick(["é\(b)", "e\\u0301\(b)", "Z\(b)", "a\(b)"])
            buckets.append("\"\(key)\": {" + fields.joined(separator: ", ") + "}")
        }
        var top = ["\"buckets\": {" + buckets.joined(separator: ",\n  ") + "}"]
        if g.chance(0.3) { top.append("\"meta\": {\"version\": [1, 2, {\"x\": \"},{\"}]}") }
        return "{" + top.joined(separator: ",\n") + "}"
    }

    /// A dirty NDJSON file: session lines of every kind, blank lines, CRLF, non-objects,
    /// several values on one line.
    static func ndjson(_ g: inout SplitMix64, lines: Int) -> String {
        var out: [String] = []
        for k in 0..<lines {
            switch g.below(30) {
            case 0: out.append("")
            case 1: out.append("   \t")
            case 2: out.append(g.pick(["42", "\"x\"", "[1, {\"a\": 2}]", "null"]))
            case 3: out.append(row(&g, k) + ", " + row(&g, k + 1000))
            default: out.append(row(&g, k))
            }
        }
        let eol = g.chance(0.3) ? "\r\n" : "\n"
        return out.joined(separator: eol) + (g.chance(0.5) ? eol : "")
    }

    static func row(_ g: inout SplitMix64, _ k: Int) -> String {
        let start = "\"2026-02-\(10 + g.below(10))T\(10 + g.below(10)):0\(g.below(10)):00Z\""
        let end = "\"2026-02-2\(g.below(10))T\(10 + g.below(10)):3\(g.below(10)):00Z\""
        var fields = [
            "\"session_id\": " + (g.chance(0.9) ? "\"s\(k)\"" : g.pick(ids)),
            "\"app_name\": " + g.pick(names),
            "\"category\": " + g.pick(["\"Social\"", "null", "\"others\"", "\" \"", "\"Work\"", "1"]),
            "\"start_timestamp\": " + (g.chance(0.95) ? start : g.pick(timestamps)),
            "\"end_timestamp\": " + (g.chance(0.95) ? end : g.pick(timestamps)),
        ]
        if g.chance(0.1) { fields.append("\"extra\": {\"nested\": [\"},{\", {\"a\": null}]}") }
        fields.shuffle(using: &g)
        return "{" + fields.joined(separator: g.chance(0.2) ? "," : ", ") + "}"
    }

    /// Invalid UTF-8 put into strings: single bytes, each a U+FFFD in the reader and in the
    /// reference (both replace each maximal invalid sequence; the old readers of
    /// `ReaderDeliberateDifferenceTests` replaced each byte).
    static func withInvalidUTF8(_ text: String, _ g: inout SplitMix64) -> [UInt8] {
        var bytes = Array(text.utf8)
        var k = 0
        while k < bytes.count {
            if bytes[k] == UInt8(ascii: "\""), k + 1 < bytes.count, bytes[k + 1] != UInt8(ascii: "\""), g.chance(0.02) {
                bytes.insert(g.pick([0xFF, 0xFE, 0x80, 0xC0]), at: k + 1)
                k += 1
            }
            k += 1
        }
        return bytes
    }
}
