// RefPosition.swift — a byte offset as the line and column the readers name in their errors (lines split at LF, columns counting Unicode scalars).

/// Lines and columns as every reader names them: lines split at LF, columns count Unicode
/// scalars (each byte that does not continue a UTF-8 sequence) from 1.
enum RefPosition {
    static func of(_ offset: Int, in b: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for k in 0..<min(offset, b.count) where b[k] == 0x0A {
            line += 1
            lineStart = k + 1
        }
        var column = 1
        for k in lineStart..<min(offset, b.count) where b[k] & 0xC0 != 0x80 { column += 1 }
        return (line, column)
    }
}
