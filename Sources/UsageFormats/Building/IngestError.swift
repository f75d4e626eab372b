// IngestError.swift — why a whole load failed while decoding: the few faults that abort a load (every other fault skips a row).
import UsageCore

/// Why a whole load failed while decoding (docs/DATA.md §1: only these abort a load).
public enum IngestError: Error, Equatable, Sendable {
    /// The input holds nothing but white space.
    case empty
    /// The input is not JSON: what was expected at a 1-based line and column (columns count characters).
    case syntax(line: Int, column: Int, message: String)
    /// The input is JSON but its top level is not an array; `found` names what it is.
    case notAnArray(found: String)
    /// The input is in a known format but not as that format requires (`format` names it).
    case malformed(format: String, problem: String)
    /// The load was cancelled.
    case cancelled

    /// One line for the user.
    public var description: String {
        switch self {
        // Said of every format: an empty file is no format yet (a `.csv` has no header either).
        case .empty: return "no data: the input is empty"
        case .syntax(let line, let column, let message): return "not valid JSON at line \(line), column \(column): \(message)"
        case .notAnArray(let found): return "expected a JSON array of sessions, found \(found)"
        case .malformed(let format, let problem): return "not a valid \(format): \(problem)"
        case .cancelled: return "cancelled"
        }
    }
}
