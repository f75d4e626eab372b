// Fuzz/Support/LoadFacts.swift — what a load gave, in comparable form (sessions with names and ids, skipped rows, repaired strings, name tables, or the error), for the targets that compare two readers.

/// A dataset or an error, as text that compares equal exactly when the two loads agree.
struct LoadFacts: Equatable, CustomStringConvertible {
    var sessions: [String] = []
    var apps: [String] = []
    var categories: [String] = []
    var skipped: [String] = []
    var repaired = 0
    /// How the sessions are known, and times read in a zone.
    var notes: [String] = []
    var error: IngestError?

    init(_ result: Result<Dataset, IngestError>) {
        switch result {
        case .failure(let e): error = e
        case .success(let d):
            sessions = d.sessions.indices.map { k in
                let s = d.sessions[k]
                let o = d.sessions.offsets(at: k)
                return "\(s.start) \(s.end) \(d.apps[Int(s.app)].unicodeScalars.map(\.value)) \(d.categories[Int(s.category)]) \(s.id.map { Array($0.unicodeScalars.map(\.value)) } as Any)"
                    + " \(o.start as Any)/\(o.end as Any)\(s.running ? " running" : "")"
            }
            notes = ["\(d.identity)"] + d.parts.map { "\($0.localTimes as Any)" }
            apps = d.apps.map { String($0.unicodeScalars.map(\.value).description) }
            categories = d.categories
            skipped = SkipReason.allCases.map { reason in
                "\(reason.rawValue) \(d.skipped.count(reason)) "
                    + (d.skipped.examples[reason] ?? []).map { "\($0.sessionID.map { Array($0.unicodeScalars.map(\.value)) } as Any)@\($0.line.map(String.init) ?? "-")" }
                    .joined(separator: ",")
            }
            repaired = d.repairedStrings
        }
    }

    /// The same facts but for the repaired count.
    func ignoringRepaired() -> LoadFacts {
        var copy = self
        copy.repaired = 0
        return copy
    }

    var description: String {
        if let error { return "error: \(error)" }
        return "\(sessions.count) sessions \(sessions.prefix(3)) skipped \(skipped.filter { !$0.hasSuffix(" 0 ") }) repaired \(repaired)"
    }
}

/// Inside JSON strings, every invalid UTF-8 sequence replaced by U+FFFD as `String(decoding:)`
/// replaces it (maximal subparts), everything else as it is: what the old Foundation-based
/// readers must be given to name things as the byte-level ones do (the old replaced each
/// invalid byte on its own, so a truncated multi-byte sequence became several U+FFFD).
func invalidUTF8Replaced(_ b: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(b.count + 16)
    var i = 0
    var inString = false
    while i < b.count {
        let c = b[i]
        if !inString {
            if c == 0x22 { inString = true }
            out.append(c)
            i += 1
            continue
        }
        if c == 0x22 {
            inString = false
            out.append(c)
            i += 1
        } else if c == 0x5C {
            out.append(c)
            if i + 1 < b.count, b[i + 1] < 0x80 {
                out.append(b[i + 1])
                i += 2
            } else {
                i += 1
            }
        } else if c < 0x80 {
            out.append(c)
            i += 1
        } else {
            var k = i
            while k < b.count, b[k] >= 0x80 { k += 1 }
            out += Array(String(decoding: b[i..<k], as: UTF8.self).utf8)
            i = k
        }
    }
    return out
}

/// Segment and read sizes from 1 to 64 bytes and one to three workers, drawn from the input
/// (the same input always gets the same, so a find replays); one input in four is read in
/// 256-byte reads instead.
func fuzzChunking(for bytes: [UInt8]) -> Chunking {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
    let workers = 1 + Int((h >> 16) % 3)
    if h >> 60 < 4 { return Chunking(segmentBytes: 4096, readBytes: 256, workers: workers) }
    return Chunking(segmentBytes: 1 + Int(h % 64), readBytes: 1 + Int((h >> 8) % 64), workers: workers)
}
