// SpreadsheetCell.swift — the spreadsheet-formula guard of CSV text cells (OWASP's CSV-injection rule), and its exact inverse for reading our own files back.

/// A text cell a spreadsheet would run as a formula begins with `=`, `+`, `-`, `@`, TAB or CR.
/// Every CSV we write puts a `'` before such a cell (spreadsheets show the text and drop the
/// `'`); our CSV reader takes exactly that `'` off again, so a file we wrote loads back to the
/// same names.
///
/// To make the pair exact, a cell made of `'`s followed by a trigger (`'=x`, `''+1`) is a guard
/// as well: it gets one more `'` when written and loses one when read. Any other cell is left
/// alone both ways.
public enum SpreadsheetCell {
    /// Whether a cell beginning with `byte` would be run as a formula: `=`, `+`, `-`, `@`, TAB, CR.
    @inline(__always) public static func isTrigger(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
            || byte == 0x09 || byte == 0x0D
    }

    /// Whether `text` is `'`… followed by a trigger (no `'` at all included).
    public static func needsGuard(_ text: some StringProtocol) -> Bool {
        guard let first = text.utf8.first(where: { $0 != UInt8(ascii: "'") }) else { return false }
        return isTrigger(first)
    }

    /// The cell as written: `'` + text when a spreadsheet would take it for a formula.
    public static func guarded(_ text: String) -> String {
        needsGuard(text) ? "'" + text : text
    }

    /// The cell as read: one leading `'` taken off when the rest is one that `guarded` guards.
    public static func unguarded(_ text: String) -> String {
        guard text.utf8.first == UInt8(ascii: "'") else { return text }
        // The `'` alone, not the Character it begins: `'` and a combining mark after it are one.
        let rest = Substring(text.unicodeScalars.dropFirst())
        return needsGuard(rest) ? String(rest) : text
    }
}
