// RefElementStarts.swift — where each element of a top-level JSON array begins, found by a second, plain walk over the bytes: the lines the Timewarrior reference gives its rows.

/// Where each element of a top-level array begins (byte offsets), found by a second, plain walk.
enum RefElementStarts {
    static func of(_ b: [UInt8], arrayAt open: Int) -> [Int] {
        guard open < b.count, b[open] == UInt8(ascii: "[") else { return [] }
        var starts: [Int] = []
        var depth = 0
        var inString = false
        var escaped = false
        var expecting = false
        for k in open..<b.count {
            let c = b[k]
            if inString {
                if escaped { escaped = false } else if c == UInt8(ascii: "\\") { escaped = true } else if c == UInt8(ascii: "\"") { inString = false }
                continue
            }
            if depth == 1, expecting, !RefJSONParser.isSpace(c), c != UInt8(ascii: "]") {
                starts.append(k)
                expecting = false
            }
            switch c {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { expecting = true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return starts }
            case UInt8(ascii: ","): if depth == 1 { expecting = true }
            default: break
            }
        }
        return starts
    }
}
