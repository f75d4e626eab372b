// RefJSON.swift — the tests' own RFC 8259 parser, slow and plain, sharing no code with Sources: values with their strings decoded (invalid UTF-8 and lone surrogates as U+FFFD, counted), errors at the byte where the text stops being JSON.

/// A JSON value. Containers deeper than the parse's `keepDepth` are validated but not kept (`deep`).
enum RefJSON {
    case object([(key: String, value: RefJSON)])
    case array([RefJSON])
    /// The decoded text, and whether it needed repair.
    case string(String, repaired: Bool)
    /// The literal as written.
    case number(String)
    case bool(Bool)
    case null
    /// A container below the depth kept.
    case deep

    var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// The first member named `key` of an object (`last`: the last one).
    func member(_ key: String, last: Bool = false) -> RefJSON? {
        guard case .object(let members) = self else { return nil }
        return last ? members.last { $0.key == key }?.value : members.first { $0.key == key }?.value
    }
}

/// Where the text stops being JSON: a byte offset of the whole input.
struct RefJSONError: Error, Equatable {
    var offset: Int
    var message: String
}

/// RFC 8259 §2–§8, iteratively (any nesting depth), over `bytes[range]`.
struct RefJSONParser {
    let b: [UInt8]
    var i: Int
    let end: Int
    /// Strings anywhere (keys included) that needed repair.
    var repairedStrings = 0
    /// The range ends at a line break (NDJSON's lines): a byte of the text that is no hex digit,
    /// rather than the end of the input.
    var endsAtLineBreak = false

    init(_ bytes: [UInt8], range: Range<Int>) {
        b = bytes
        i = range.lowerBound
        end = range.upperBound
    }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    mutating func skipSpace() { while i < end, Self.isSpace(b[i]) { i += 1 } }

    func fail(_ message: String) -> RefJSONError { RefJSONError(offset: i, message: message) }

    var atEnd: Bool { i >= end }

    private struct Frame {
        var isObject: Bool
        var keep: Bool
        var members: [(key: String, value: RefJSON)] = []
        var elements: [RefJSON] = []
        var key = ""
    }

    /// One value from the current position (white space before it skipped), containers below
    /// `keepDepth` levels not kept.
    mutating func value(keepDepth: Int = .max) throws(RefJSONError) -> RefJSON {
        var stack: [Frame] = []
        while true {
            skipSpace()
            guard i < end else { throw fail("end of input: expected a value") }
            var done: RefJSON
            switch b[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = b[i] == UInt8(ascii: "{")
                i += 1
                stack.append(Frame(isObject: isObject, keep: stack.count < keepDepth))
                skipSpace()
                if i < end, b[i] == UInt8(ascii: isObject ? "}" : "]") {
                    i += 1
                    let frame = stack.removeLast()
                    done = frame.keep ? (isObject ? .object([]) : .array([])) : .deep
                } else if isObject {
                    stack[stack.count - 1].key = try memberKey()
                    continue
                } else {
                    continue
                }
            case UInt8(ascii: "\""):
                done = try string()
            case UInt8(ascii: "t"): done = try literal("true", .bool(true))
            case UInt8(ascii: "f"): done = try literal("false", .bool(false))
            case UInt8(ascii: "n"): done = try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): done = try number()
            default: throw fail("expected a value")
            }
            // A value is whole: into its container, closing every container that ends here.
            while true {
                guard var top = stack.popLast() else { return done }
                if top.keep {
                    if top.isObject { top.members.append((top.key, done)) } else { top.elements.append(done) }
                }
                skipSpace()
                guard i < end else { throw fail("end of input inside a container") }
                if b[i] == UInt8(ascii: ",") {
                    i += 1
                    if top.isObject { top.key = try memberKey() }
                    stack.append(top)
                    break
                }
                guard b[i] == UInt8(ascii: top.isObject ? "}" : "]") else { throw fail("expected ',' or a closing bracket") }
                i += 1
                done = !top.keep ? .deep : top.isObject ? .object(top.members) : .array(top.elements)
            }
        }
    }

    /// `"key" :` at the position (white space around it skipped).
    private mutating func memberKey() throws(RefJSONError) -> String {
        skipSpace()
        guard i < end, b[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
        guard case .string(let key, _) = try string() else { fatalError() }
        skipSpace()
        guard i < end, b[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
        i += 1
        return key
    }

    /// `true`, `false` or `null`; anything else is no value, where it begins.
    private mutating func literal(_ word: String, _ value: RefJSON) throws(RefJSONError) -> RefJSON {
        let start = i
        for c in word.utf8 {
            guard i < end, b[i] == c else {
                i = start
                throw fail("expected a value")
            }
            i += 1
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() throws(RefJSONError) -> RefJSON {
        let start = i
        func isDigit() -> Bool { i < end && b[i] >= 0x30 && b[i] <= 0x39 }
        if b[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit() else { throw fail("expected a digit") }
        if b[i] == 0x30 { i += 1 } else { while isDigit() { i += 1 } }
        if i < end, b[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit() else { throw fail("expected a digit after '.'") }
            while isDigit() { i += 1 }
        }
        if i < end, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < end, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit() else { throw fail("expected a digit in the exponent") }
            while isDigit() { i += 1 }
        }
        return .number(String(decoding: b[start..<i], as: UTF8.self))
    }

    private func hex(_ k: Int) -> Int? {
        guard k < end else { return nil }
        switch b[k] {
        case 0x30...0x39: return Int(b[k] - 0x30)
        case 0x41...0x46: return Int(b[k] - 0x41 + 10)
        case 0x61...0x66: return Int(b[k] - 0x61 + 10)
        default: return nil
        }
    }

    /// Four hex digits at `i`: the error at the first byte that is not one; when the input ends
    /// before four, at the first digit (a line break that ends the range is a byte that is not
    /// a digit: the error is there).
    private mutating func hex4() throws(RefJSONError) -> Int {
        let first = i
        var v = 0
        for _ in 0..<4 {
            if i >= end {
                if !endsAtLineBreak { i = first }
                throw fail("expected four hex digits")
            }
            guard let d = hex(i) else { throw fail("expected four hex digits") }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    /// A string at `"`: its text, invalid UTF-8 (each maximal invalid subpart) and lone
    /// surrogates as U+FFFD.
    private mutating func string() throws(RefJSONError) -> RefJSON {
        i += 1
        var scalars = String.UnicodeScalarView()
        var repaired = false
        while true {
            guard i < end else { throw fail("unterminated string") }
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                break
            }
            if c < 0x20 { throw fail("control character") }
            if c == UInt8(ascii: "\\") {
                let escape = i
                guard i + 1 < end else {
                    i += 1
                    throw fail("unterminated string")
                }
                let e = b[i + 1]
                let simple: [UInt8: Unicode.Scalar] = [
                    UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "b"): "\u{8}",
                    UInt8(ascii: "f"): "\u{C}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
                ]
                if let s = simple[e] {
                    scalars.append(s)
                    i += 2
                    continue
                }
                guard e == UInt8(ascii: "u") else {
                    i = escape
                    throw fail("invalid escape")
                }
                i += 2
                let unit = try hex4()
                if (0xD800...0xDBFF).contains(unit), i + 1 < end, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") {
                    let save = i
                    i += 2
                    let low = try hex4()
                    if (0xDC00...0xDFFF).contains(low) {
                        scalars.append(Unicode.Scalar(0x10000 + (unit - 0xD800) * 0x400 + (low - 0xDC00))!)
                        continue
                    }
                    i = save  // the next escape is read on its own
                }
                if let s = Unicode.Scalar(unit) {
                    scalars.append(s)
                } else {
                    scalars.append("\u{FFFD}")
                    repaired = true
                }
                continue
            }
            if c < 0x80 {
                scalars.append(Unicode.Scalar(c))
                i += 1
                continue
            }
            let (scalar, length) = RefUTF8.decode(b, at: i, end: end)
            scalars.append(scalar ?? "\u{FFFD}")
            if scalar == nil { repaired = true }
            i += length
        }
        if repaired { repairedStrings += 1 }
        return .string(String(scalars), repaired: repaired)
    }
}
