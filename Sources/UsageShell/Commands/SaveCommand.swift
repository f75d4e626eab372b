// SaveCommand.swift — `save FILE`: the last view that draws written in the format FILE's extension names (.svg its charts, .html a one-file report, .txt its text without colour, .json and .csv what --format prints), atomically, an existing file only with --force.
import UsageData
import UsageRender

/// What `save` writes, told by the file's extension.
enum SaveFormat: String {
    case svg, html, txt, json, csv

    /// `.svg`, `.html` (or `.htm`), `.txt`, `.json`, `.csv`, in any case.
    init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let ext = path[path.index(after: dot)...].lowercased()
        guard let format = ext == "htm" ? .html : SaveFormat(rawValue: ext) else { return nil }
        self = format
    }

    /// `SVG`, `HTML`, …: as messages name it.
    var name: String { rawValue.uppercased() }
}

extension CommandTable {
    static let saveFileSlot = Slot<String>(
        "FILE", completion: [.paths], missing: "which file? (.svg, .html, .txt, .json or .csv)",
        invalid: { _ in "one file (quote paths with spaces)" }, read: { $0.isEmpty ? nil : $0 })

    static let saveCommand = Command(
        "save", syntax: .sequence([.value(saveFileSlot), .flag("--force")]),
        summary: "write the last view shown (show, chart, apps, app, hour, week, days, month, summary, insights, limits, today, calendar, timesheet) "
            + "to FILE in the format its extension names: .svg its charts, .html a one-file report, .txt its text without colour, "
            + ".json or .csv what --format prints; an existing file only with --force",
        examples: ["save week.svg", "save report.html", "save today.txt", "save day.json --force"],
        tooMany: "one file (quote paths with spaces)"
    ) { shell, args throws(ShellError) in
        let typed = args[saveFileSlot]!
        let force = args.has("--force")
        guard let format = SaveFormat(path: typed) else {
            throw named("save").usageError("cannot tell the format of '\(TerminalText.sanitize(typed))': name it .svg, .html, .txt, .json or .csv")
        }
        // `save .svg`: an extension alone would be a hidden file named `.svg`.
        let name = typed.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard name.dropFirst().contains(".") || !name.hasPrefix(".") else {
            throw named("save").usageError("'\(TerminalText.sanitize(typed))' is an extension alone: the file needs a name (such as week\(name.lowercased()))")
        }
        guard case .file(let path) = SourceRef(typed, home: shell.home) else {
            throw named("save").usageError("'\(TerminalText.sanitize(typed))' is not a file name")
        }
        guard let view = shell.shownView else { throw .nothingShown }
        let text: String
        switch format {
        case .svg:
            guard let svg = view.figure().svgDocument() else { throw .nothingToDraw(view: view.name) }
            text = svg
        case .html: text = view.figure().htmlDocument()
        case .txt: text = view.table(view.width, Theme(depth: nil, glyphs: view.theme.glyphs, accessible: view.theme.accessible)).joined(separator: "\n") + "\n"
        case .json: text = view.json().serialized + "\n"
        case .csv: text = view.csv(shell.output.fileCells).map { $0 + "\n" }.joined()
        }
        let bytes = Array(text.utf8)
        do throws(ExportError) {
            try ExportFile.write(bytes, to: path, force: force)
        } catch {
            throw .save(error)
        }
        return shell.render(json: {
            .object([("saved", .string(path)), ("view", .string(view.name)), ("format", .string(format.rawValue)), ("bytes", .int(bytes.count))])
        }, csv: .record) { _, _ in
            ["saved \(view.name) as \(format.name) to \(TerminalText.sanitize(path)) (\(TextReport.size(Int64(bytes.count))))"]
        }
    }
}
