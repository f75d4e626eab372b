// FrameDiff.swift — the screen of `watch` as rows (the status line, then the output cut to the terminal's height), and the one write that turns the rows shown into the next ones: only the rows that changed, inside a synchronized update, so nothing flickers.
import UsageRender

/// One screen of `watch`: what each row shows.
public enum WatchFrame {
    /// The rows of a `height` × `width` screen: the status line, then the output. A line wider
    /// than the screen (a JSON document) is wrapped; an output taller than the screen is cut,
    /// its last row saying how many lines did not fit.
    public static func rows(status: String, output: [String], width: Int, height: Int) -> [String] {
        let room = max(0, height - 1)
        var rows = output.flatMap { wrapped($0, width: width) }
        if rows.count > room {
            let hidden = rows.count - room + 1
            rows = Array(rows.prefix(max(0, room - 1)))
            if room > 0 { rows.append(TerminalText.fit("… \(hidden) more lines: a taller terminal shows them", width: width)) }
        }
        return height > 0 ? [status] + rows : []
    }

    /// A line as rows of at most `width` cells (a line that fits, as it is, styles and all).
    static func wrapped(_ line: String, width: Int) -> [String] {
        guard width > 0, TerminalText.cells(line) > width else { return [line] }
        let plain = TerminalText.withoutSGR(line)
        var rows: [String] = []
        var row = ""
        var used = 0
        for character in plain {
            let w = TerminalText.cells(character)
            if used + w > width {
                rows.append(row)
                row = ""
                used = 0
            }
            row.append(character)
            used += w
        }
        if !row.isEmpty { rows.append(row) }
        return rows
    }
}

/// The bytes that update a terminal screen from one frame to the next.
public enum FrameDiff {
    /// Begin and end of a synchronized update (terminals that know it draw the frame at once;
    /// the others ignore it).
    static let beginSync = "\u{1B}[?2026h"
    static let endSync = "\u{1B}[?2026l"

    /// What turns a screen showing `old` (nil: unknown, as after a resize) into one showing
    /// `new`, in one write: each changed row is rewritten in place (cursor to its start, the
    /// line, the rest of the row erased), rows no longer used are erased; nothing for an
    /// unchanged frame. An unknown screen is cleared and drawn whole.
    public static func update(from old: [String]?, to new: [String], width: Int) -> String {
        var out = ""
        if let old {
            for row in 0..<max(old.count, new.count) {
                let was = row < old.count ? old[row] : nil
                let now = row < new.count ? new[row] : nil
                guard was != now else { continue }
                out += move(row) + (now.map { line($0, width: width) } ?? erase)
            }
            guard !out.isEmpty else { return "" }
        } else {
            out = "\u{1B}[H\u{1B}[2J"
            for (row, text) in new.enumerated() { out += move(row) + line(text, width: width) }
        }
        return beginSync + out + endSync
    }

    /// `ESC [ row ; 1 H`: the cursor to the start of a row (0-based here, 1-based on the terminal).
    static func move(_ row: Int) -> String { "\u{1B}[\(row + 1);1H" }

    /// Erase to the end of the row.
    static let erase = "\u{1B}[K"

    /// A row's text, and the rest of the row erased when it does not fill it. (A row that fills
    /// it is not followed by an erase: with the cursor waiting past the last column, the erase
    /// would take the last character away.)
    static func line(_ text: String, width: Int) -> String {
        TerminalText.cells(text) < width ? text + erase : text
    }
}
