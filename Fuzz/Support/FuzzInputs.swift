// Fuzz/Support/FuzzInputs.swift — what the reader-comparing fuzz targets do to an input: invalid UTF-8 replaced as the byte-level readers name it, for the old readers; a chunking chosen from the input's bytes.

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
