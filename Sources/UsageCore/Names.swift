// Names.swift — the name rules of docs/DATA.md §2: normalisation (trimmed, null or blank made (unknown) or Other), names compared and ordered by their exact scalars.
import Foundation

/// A name compared by its exact scalars. Swift's `String ==` treats canonically equivalent
/// strings (`é` and `e` + U+0301) as equal; docs/DATA.md §2 keeps names exactly, so they stay apart.
public struct ExactName: Hashable, Sendable {
    public let text: String
    public init(_ text: String) { self.text = text }
    public static func == (a: ExactName, b: ExactName) -> Bool { a.text.sameScalars(as: b.text) }
    public func hash(into hasher: inout Hasher) {
        var copy = text
        copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// Name normalisation of docs/DATA.md §2.
public enum Normalise {
    /// The app name of sessions whose `app_name` is null or blank.
    public static let unknownApp = "(unknown)"
    /// The category of sessions whose category is null, blank, `other` or `others`.
    public static let otherCategory = "Other"

    /// Trims white space; null or blank becomes `(unknown)`. Everything else is kept exactly.
    public static func appName(_ raw: String?) -> String {
        let trimmed = trim(raw ?? "")
        return trimmed.isEmpty ? unknownApp : trimmed
    }

    /// Trims white space; null, blank, `other` or `others` (any case) become `Other`.
    public static func category(_ raw: String?) -> String {
        let trimmed = trim(raw ?? "")
        switch trimmed.lowercased() {
        case "", "other", "others": return otherCategory
        default: return trimmed
        }
    }

    /// The string without leading and trailing Unicode white space.
    public static func trim(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}

extension String {
    /// Whether both hold exactly the same scalars (Swift's `==` uses canonical equivalence).
    /// Copies of one string compare in constant time, however long (a 200 MB name).
    public func sameScalars(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var (a, b) = (self, other)
        return a.withUTF8 { x in
            b.withUTF8 { y in x.baseAddress == y.baseAddress || x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 }
        }
    }

    /// Orders by Unicode scalar values, as docs/DATA.md §4 asks (Swift's `<` uses canonical equivalence).
    public func scalarsPrecede(_ other: String) -> Bool {
        unicodeScalars.lexicographicallyPrecedes(other.unicodeScalars)
    }
}
