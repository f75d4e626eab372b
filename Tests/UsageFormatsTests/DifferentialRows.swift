// DifferentialRows.swift — the ingest differential's generator, second half: names and other strings, random values, and the dirty rows and documents built from them.
import Foundation
import Testing
@testable import UsageFormats
import UsageCore
import TestSupport

extension Differential {
    // MARK: - Names and other strings

    static let appNames = [
        "Safari", "Chrome", "Slack", "Mail", "微信", "WeChat", "Café", "Cafe\u{301}", "🎵 Music", "👨‍👩‍👧 Family",
        "Visual Studio Code", "Line\nBreak", "Tab\there", "quo\"te", "back\\slash", "a/b", "\u{1B}[31mred",
        "\u{202E}evil", "nul\u{0}byte", "\u{FFFF}", "\u{10FFFF}x", "(unknown)", "", " ", "\t\n", "\u{A0}",
        "\u{200B}", " \u{301}x", "x \u{301}", "İstanbul", "ß", "Ǆ", "\u{2126}hm", "\u{3A9}hm", "\u{212A}elvin",
        "Kelvin", "\u{85}", "\u{2028}", "\u{FEFF}", "\u{180E}", "\u{1C}", "Other", "others", "日本語の長いアプリ名",
        "Ａｐｐ", "\u{7F}", "\r\n", "😀", "\u{1F3FB}", "ﷺ", "a\u{0}",
    ]

    static let categoryNames = [
        "Productivity", "Social", "Entertainment", "Games", "Utilities", "Education", "other", "Other", "OTHER",
        "others", "OThers", "Others ", "other s", "others.", "otherss", "anOther", "ＯＴＨＥＲ", "Othe\u{301}r",
        "otherſ", "OTHERſ", "Café", "Cafe\u{301}", "社交", "", "  ", "\t", "(unknown)", "Other\u{200B}",
        "\u{A0}other\u{3000}", "\u{85}Others\u{2029}", "\u{1680}OTHER\u{205F}", "\u{1C}other", "\u{212A}", "K",
        "Ｏther", "other\n", "\u{202F}others\u{2000}", "\u{200A}\u{2009}", "other\u{0}",
    ]

    /// White space and look-alikes used to pad names.
    static let padding = [
        " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{3000}", "\u{85}", "\u{2028}", "\u{2029}", "\u{1680}",
        "\u{2000}", "\u{200A}", "\u{202F}", "\u{205F}", "\u{200B}", "\u{FEFF}", "\u{180E}", "\u{2060}", "\u{1C}",
        "\u{1F}", "\u{301}",
    ]

    static let randomScalars: [String] = [
        "a", "b", "Z", " ", "1", "é", "e", "\u{301}", "微", "信", "🎵", "\u{1F468}", "\u{200D}", "\u{A0}", "\u{3000}",
        "\t", "\n", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{2028}", "\u{202E}", "\u{FEFF}", "\u{FFFF}",
        "\u{10FFFF}", "\"", "\\", "/", "Ω", "\u{2126}", "\u{212A}", "K", "ſ", "İ", "\u{D7FF}", "\u{E000}", "\u{1D11E}",
    ]

    static func randomText(_ rng: inout Rng, maxLength: Int = 12) -> String {
        var s = ""
        for _ in 0..<rng.int(0...maxLength) { s += rng.pick(randomScalars) }
        return s
    }

    static func padded(_ s: String, _ rng: inout Rng) -> String {
        guard rng.chance(0.3) else { return s }
        var out = s
        if rng.chance(0.7) { for _ in 0..<rng.int(1...3) { out = rng.pick(padding) + out } }
        if rng.chance(0.7) { for _ in 0..<rng.int(1...3) { out += rng.pick(padding) } }
        return out
    }

    static func name(from pool: [String], _ rng: inout Rng) -> String {
        if rng.chance(0.02) { return String(repeating: rng.pick(pool), count: 200) }
        return padded(rng.chance(0.85) ? rng.pick(pool) : randomText(&rng), &rng)
    }

    static let numberLiterals = [
        "12", "-3", "1.5e3", "0", "-0", "1E+2", "0.25", "-0.0", "123456789012345678901234567890", "1e-7", "2E-308",
        "7", "42", "1.0", "9007199254740993", "-12.5E-1",
    ]

    static let idStrings = [
        "S-1", "", " padded ", "微信-1", "é", "e\u{301}", "\u{1F3B5}", "a\"b", "12", "null", "\u{0}", "line\nbreak",
        "\u{202E}x",
    ]

    static let unknownKeys = [
        "device", "meta", "notes", "App_Name", "app_name ", "appname", "START_TIMESTAMP", "", "é", "session id",
        "category\u{0}", "\u{1F3B5}", "end_timestamp\u{200B}", "Category", "id", "sessionId",
    ]

    // MARK: - Random values

    static func randomAtom(_ rng: inout Rng) -> Value {
        switch rng.below(4) {
        case 0: .atom("null")
        case 1: .atom(rng.chance(0.5) ? "true" : "false")
        default: .atom(rng.pick(numberLiterals))
        }
    }

    /// Any JSON value, nested at most `depth` deep.
    static func randomValue(_ rng: inout Rng, depth: Int) -> Value {
        switch rng.below(depth > 0 ? 5 : 3) {
        case 0: return randomAtom(&rng)
        case 1, 2: return .string(encode(rng.chance(0.5) ? randomText(&rng) : rng.pick(appNames), &rng))
        case 3: return .array((0..<rng.int(0...4)).map { _ in randomValue(&rng, depth: depth - 1) })
        default:
            return .object(
                (0..<rng.int(0...4)).map { _ in
                    Member(
                        key: encode(rng.chance(0.5) ? rng.pick(unknownKeys) : randomText(&rng, maxLength: 6), &rng),
                        value: randomValue(&rng, depth: depth - 1))
                })
        }
    }

    /// A value that is neither a string nor null.
    static func wrongType(_ rng: inout Rng) -> Value {
        switch rng.below(4) {
        case 0: .atom(rng.pick(numberLiterals))
        case 1: .atom(rng.chance(0.5) ? "true" : "false")
        case 2: .array((0..<rng.int(0...2)).map { _ in randomValue(&rng, depth: 1) })
        default: .object((0..<rng.int(0...2)).map { _ in Member(key: encode(rng.pick(unknownKeys), &rng), value: randomValue(&rng, depth: 1)) })
        }
    }

    // MARK: - Rows

    /// A generated array element and the one fact the reference takes from the generator: the
    /// literal of its `session_id` when that (last) member is a number.
    struct Element {
        var value: Value
        var idLiteral: String?
    }

    static let knownKeys = ["session_id", "app_name", "category", "start_timestamp", "end_timestamp"]

    /// A start instant: mostly around 2026-02-23, sometimes anywhere from year 0 to 9999.
    static func startInstant(_ rng: inout Rng) -> (seconds: Int64, nanos: Int64) {
        let feb23: Int64 = 1_771_804_800  // 2026-02-23T00:00:00Z
        let seconds: Int64
        switch rng.weighted([70, 12, 6, 4, 8]) {
        case 0: seconds = feb23 + rng.int64(-7 * 86_400...7 * 86_400)
        case 1: seconds = rng.int64(-2_208_988_800...4_102_444_800)  // 1900...2100
        case 2: seconds = rng.int64(-3 * 86_400...3 * 86_400)  // around the epoch
        case 3: seconds = rng.int64(-62_167_219_200...253_402_300_799)  // 0000...9999
        default:  // whole minutes and days
            seconds = (feb23 / 60 + rng.int64(-20_000...20_000)) * 60
        }
        let nanos: Int64 =
            switch rng.below(4) {
            case 0: 0
            case 1: rng.int64(0...999_999) * 1000
            default: rng.int64(0...999_999_999)
            }
        return (seconds, nanos)
    }

    /// How long after the start the end lies (may be zero or negative), as (seconds, nanos).
    static func duration(_ rng: inout Rng) -> (Int64, Int64) {
        switch rng.weighted([55, 10, 8, 8, 5, 14]) {
        case 0: return (rng.int64(1...3 * 3600), rng.int64(0...999_999_999))
        case 1: return (0, 0)
        case 2: return (-rng.int64(1...3600), 0)
        case 3: return (0, rng.pick([1, 999, 1000, 1001, 999_999, -1, -1000]))
        case 4: return (rng.int64(86_400...3 * 86_400), 0)
        default: return (rng.int64(0...600), rng.int64(0...999_999_999))
        }
    }

    static func timestampValue(valid: String, _ rng: inout Rng) -> Value? {
        switch rng.weighted([4, 3, 6, 2, 85]) {
        case 0: return nil
        case 1: return .atom("null")
        case 2: return .string(encode(badTimestamp(valid, &rng), &rng))
        case 3:
            return rng.chance(0.6)
                ? .atom(rng.pick(["1771837200", "1771837200.5", "true", "false", "0", "-1"]))
                : rng.chance(0.5) ? .array([.string(valid)]) : .object([Member(key: "t", value: .string(valid))])
        default: return .string(encode(valid, &rng))
        }
    }

    static func nameValue(pool: [String], _ rng: inout Rng) -> Value? {
        switch rng.weighted([4, 6, 3, 87]) {
        case 0: return nil
        case 1: return .atom("null")
        case 2: return wrongType(&rng)
        default: return .string(encode(name(from: pool, &rng), &rng))
        }
    }

    static func idValue(serial: Int, _ rng: inout Rng) -> Value? {
        switch rng.weighted([8, 5, 45, 15, 17, 3, 4, 3]) {
        case 0: return nil
        case 1: return .atom("null")
        case 2: return .string(encode("S-\(serial)", &rng))
        case 3: return .string(encode(padded(rng.pick(idStrings), &rng), &rng))
        case 4: return .atom(rng.pick(numberLiterals))
        case 5: return .atom(rng.chance(0.5) ? "true" : "false")
        case 6: return wrongType(&rng)
        default: return .string(encode(randomText(&rng), &rng))
        }
    }

    /// One random element: mostly session objects of varying dirt, sometimes something else.
    static func element(serial: Int, _ rng: inout Rng) -> Element {
        if rng.chance(0.04) {
            // Not an object, sometimes an array that holds a perfectly good row.
            let inner = element(serial: serial, &rng).value
            let value: Value =
                switch rng.below(5) {
                case 0: randomAtom(&rng)
                case 1: .string(encode(rng.pick(appNames), &rng))
                case 2: .array([inner])
                case 3: .array([])
                default: randomValue(&rng, depth: 2)
                }
            if case .object = value { return Element(value: .array([value]), idLiteral: nil) }
            return Element(value: value, idLiteral: nil)
        }
        let (s, ns) = startInstant(&rng)
        let (ds, dns) = duration(&rng)
        var es = s + ds
        var ens = ns + dns
        if ens >= 1_000_000_000 {
            es += 1
            ens -= 1_000_000_000
        } else if ens < 0 {
            es -= 1
            ens += 1_000_000_000
        }
        let start = timestamp(seconds: s, nanos: ns, &rng)
        let end = timestamp(seconds: es, nanos: ens, &rng)

        var members: [(name: String, value: Value)] = []
        func add(_ name: String, _ value: Value?) {
            if let value { members.append((name, value)) }
        }
        add("session_id", idValue(serial: serial, &rng))
        add("app_name", nameValue(pool: appNames, &rng))
        add("category", nameValue(pool: categoryNames, &rng))
        add("start_timestamp", timestampValue(valid: start, &rng))
        add("end_timestamp", timestampValue(valid: end, &rng))
        for _ in 0..<rng.weighted([60, 25, 10, 5]) {
            members.append((rng.pick(unknownKeys), randomValue(&rng, depth: 3)))
        }
        if rng.chance(0.06) {
            // A duplicate key with another value: the last one counts.
            let key = rng.pick(knownKeys)
            let value: Value? =
                switch key {
                case "session_id": idValue(serial: serial + 1, &rng)
                case "app_name": nameValue(pool: appNames, &rng)
                case "category": nameValue(pool: categoryNames, &rng)
                case "start_timestamp": timestampValue(valid: start, &rng)
                default: timestampValue(valid: end, &rng)
                }
            members.append((key, value ?? .atom("null")))
        }
        if rng.chance(0.5) { rng.shuffle(&members) }
        var idLiteral: String?
        if let last = members.last(where: { $0.name == "session_id" }), case .atom(let a) = last.value,
            !["null", "true", "false"].contains(a)
        {
            idLiteral = a
        }
        let object = Value.object(members.map { Member(key: encode($0.name, &rng), value: $0.value) })
        return Element(value: object, idLiteral: idLiteral)
    }

    static func document(seed: UInt64, rows: ClosedRange<Int>) -> [Element] {
        var rng = Rng(seed: seed)
        let n = rows.lowerBound == 0 && rng.chance(0.05) ? rng.int(0...2) : rng.int(rows)
        return (0..<n).map { element(serial: $0, &rng) }
    }
}
