// JSONScanner+Values.swift — JSON values validated without recursion: any value skipped, literals, and numbers as RFC 8259 writes them.
import UsageCore

extension JSONScanner {

    /// Skips one JSON value of any kind, validating it, without recursion.
    mutating func skipValue() throws(ScanStop) {
        var stack: [Bool] = []  // true: inside an object; false: inside an array
        valueLoop: while true {
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of input: expected a value") }
            switch bytes[offset] {
            case UInt8(ascii: "{"):
                offset += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "}") {
                    offset += 1
                } else {
                    stack.append(true)
                    try scanMemberName()
                    continue valueLoop
                }
            case UInt8(ascii: "["):
                offset += 1
                skipWhitespace()
                if peek() == UInt8(ascii: "]") {
                    offset += 1
                } else {
                    stack.append(false)
                    continue valueLoop
                }
            case UInt8(ascii: "\""): try skipString()
            case UInt8(ascii: "t"): try scanLiteral("true")
            case UInt8(ascii: "f"): try scanLiteral("false")
            case UInt8(ascii: "n"): try scanLiteral("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
            default: throw error("expected a value")
            }
            // A value is complete: close containers until one needs another element.
            while let inObject = stack.last {
                skipWhitespace()
                guard offset < bytes.count else {
                    throw error("unexpected end of input: expected ',' or '\(inObject ? "}" : "]")'")
                }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    if inObject { try scanMemberName() }
                    continue valueLoop
                }
                if bytes[offset] == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    offset += 1
                    stack.removeLast()
                    continue
                }
                throw error(inObject ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array element")
            }
            return
        }
    }

    /// Scans `"key" :` inside an object being skipped.
    mutating func scanMemberName() throws(ScanStop) {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key in the object") }
        try skipString()
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
        offset += 1
    }

    mutating func scanLiteral(_ word: StaticString) throws(ScanStop) {
        let n = word.utf8CodeUnitCount
        let available = min(n, bytes.count - offset)
        let p = word.utf8Start
        for k in 0..<available where bytes[offset + k] != p[k] { throw error("expected a value") }
        if available < n { throw isFinal ? error("expected a value") : .needMore }
        offset += n
    }

    /// Scans a number per RFC 8259: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    mutating func scanNumber() throws(ScanStop) {
        if peek() == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit") }
        offset += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard let d = peek(), isDigit(d) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            offset += 1
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { offset += 1 }
            guard let d = peek(), isDigit(d) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        // A number that ends with the bytes may go on in the bytes that follow.
        if offset == bytes.count, !isFinal { throw .needMore }
    }

    mutating func skipDigits() {
        while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
    }

    @inline(__always) func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
