// LoadSpinner.swift — the text of one frame of the load spinner (name, bytes read and the Ctrl-C hint) and of an import's write, fitted so it never wraps.
import UsageRender

/// Frames of the spinner the terminal shows while a load runs.
public enum LoadSpinner {
    static let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    /// Frame number `frame`, fitted to `width` cells (a wrapped frame would leave a line behind
    /// at every redraw): the hint gives way first, then the name.
    public static func line(frame: Int, source: String, bytes: Int, width: Int) -> String {
        let spinner = frames[frame % frames.count]
        let read = ": \(size(bytes)) read"
        let hint = " (Ctrl-C cancels)"
        let name = TerminalText.sanitize(source)
        let room = width - TerminalText.cells("\(spinner) loading " + read)
        if TerminalText.cells(name) + TerminalText.cells(hint) <= room { return "\(spinner) loading \(name)\(read)\(hint)" }
        return TerminalText.fit("\(spinner) loading \(TerminalText.fit(name, width: max(1, room)))\(read)", width: max(1, width))
    }

    /// Frame number `frame` of an import's write (the sources are read; their sessions go into
    /// the store), fitted to `width` cells: the hint gives way first.
    public static func writing(frame: Int, width: Int) -> String {
        let line = "\(frames[frame % frames.count]) writing to the store"
        let hint = " (Ctrl-C cancels)"
        if TerminalText.cells(line + hint) <= width { return line + hint }
        return TerminalText.fit(line, width: max(1, width))
    }

    /// `812 B`, `48.2 MB` (decimal units, as file managers show sizes).
    public static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["kB", "MB", "GB", "TB"]
        var tenths = (bytes + 50) / 100  // in tenths of a kB
        var unit = 0
        while tenths >= 10_000, unit < units.count - 1 {
            tenths = (tenths + 500) / 1000
            unit += 1
        }
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
