// RefNumbers.swift — ids from JSON values as the references read them (docs/DATA.md §1: a number keeps its literal text; the ActivityWatch and Timewarrior readers keep the Foundation-based readers' `1e2` is `100`), with the standard library's own number parsing.

/// Numbers as the Foundation-based readers made ids of them (the rule the byte-level readers
/// keep): a string's text; an integer's digits (`-0` is `0`, `1e2` and `1.0` are `100` and
/// `1`); another number's `Double` text; nothing else.
enum RefNumbers {
    static func idText(_ v: RefJSON?) -> String? {
        switch v {
        case .string(let s, _)?: return s
        case .number(let literal)?:
            if !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let n = Int64(literal) { return String(n) }
            guard let d = Double(literal), d.isFinite else { return nil }
            if let n = Int64(exactly: d) { return String(n) }
            return String(d)
        default: return nil
        }
    }
}
