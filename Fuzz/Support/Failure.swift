// Fuzz/Support/Failure.swift — how a fuzz target reports a differential failure: the input as a Swift literal, then a crash that libFuzzer keeps as an artifact.
import Foundation

/// Stops the fuzz run: prints what went wrong and the input (ready to paste into a regression
/// test), then traps, so that libFuzzer saves the input under its artifact prefix.
func fuzzFailure(_ what: String, input: [UInt8]) -> Never {
    let message = "FUZZ FAILURE: \(what)\ninput (\(input.count) bytes): \(swiftLiteral(input))\n"
    FileHandle.standardError.write(Data(message.utf8))
    fatalError(what)
}

/// The bytes as a Swift string literal when they are UTF-8 (control and non-ASCII characters
/// as `\u{…}`), else as an array of bytes.
func swiftLiteral(_ bytes: [UInt8]) -> String {
    guard let text = String(validating: bytes, as: UTF8.self) else {
        return "[" + bytes.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: ", ") + "] as [UInt8]"
    }
    var out = "\""
    for u in text.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        case "\r": out += "\\r"
        case " "..."~": out.unicodeScalars.append(u)
        default: out += "\\u{\(String(u.value, radix: 16, uppercase: true))}"
        }
    }
    return out + "\""
}

/// A string's Unicode scalars: Swift's `==` on `String` treats canonically equivalent text as
/// equal (`é` and `e` + U+0301), and the targets compare exactly.
func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }
