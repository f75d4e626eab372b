// ShownView.swift — the last view that draws, kept for `save` as ggsave keeps the last plot: its name, and how to make its JSON, CSV, text and figure again from the values it was shown with (never from the data as it is later).
import UsageRender

/// A view as it was shown: each form of it made on demand from the values captured when it
/// was shown, so `save` writes what was on the screen even after the data moved on.
public struct ShownView {
    /// The command that showed it (`week`, `summary`), for messages.
    public let name: String
    /// The width it was shown at (`.txt` is drawn at it).
    let width: Int
    /// The glyphs and accessible mode it was shown with (`.txt` keeps them, without colour).
    let theme: Theme
    let json: () -> JSONText
    /// Its CSV records, as `--format csv` prints them (each ends in CR; the file adds LF).
    let csv: (CSVCellPolicy) -> [String]
    let table: (Int, Theme) -> [String]
    let figure: () -> Figure
}

extension Shell {
    /// The session is over: the shown view, and the values its closures captured, are let go
    /// at once. (The closures take the shell unowned — a view's closures that held it would keep
    /// the pair alive after the last reference went, which LeakSanitizer reported at every exit
    /// of a run that showed a view; ShownViewCycleTests checks each view.)
    public func finish() {
        shownView = nil
    }

    /// Renders a view that draws (as `renderData`: one device's says so) and keeps it as the
    /// view `save` writes. `csvTable` is for a view whose CSV is a table of its own. `figure` is
    /// given the session's colours (`seriesColors`), whatever the colour mode the view was shown
    /// in, so a name has one colour in every view, save and colour mode of the same data: those
    /// the screen had, or, when it had none (monochrome, JSON), handed out at the save (a walk of
    /// every session of the history, paid once a load: seconds on a store of years). Only when
    /// the data or zone changed between the view and the save, and no coloured chart had handed
    /// the view's colours out, is it nil: the picture then colours its names by their rank in
    /// the view, the data they came from being gone.
    func renderView(
        _ name: String, json: @escaping () -> JSONText, csv shape: CSVShape = .firstList, csvTable: (() -> CSVTable)? = nil,
        table: @escaping (Int, Theme) -> [String], figure: @escaping (SeriesColors?) -> Figure
    ) -> CommandOutcome {
        let device = shownDevice
        let json: () -> JSONText = device.map { device in { json().leading("device", .string(device)) } } ?? json
        let table: (Int, Theme) -> [String] = device.map { device in { width, theme in TextReport.deviceNote(device, width: width) + table(width, theme) } } ?? table
        let csv: (CSVCellPolicy) -> [String] = { cells in
            (csvTable?() ?? CSVTable(json(), shape: shape)).records(cells).map { $0 + "\r" }
        }
        let outcome: CommandOutcome
        switch output.format {
        case .json: outcome = .output([json().serialized])
        case .table: outcome = .output(table(width, theme))
        case .csv: outcome = .output(csv(output.outputCells))
        }
        // The colours the screen just had, if any: the picture keeps them, whatever loads later.
        let kept = KeptColors(seriesColorsIfKnown)
        let (generation, zone) = (model.historyVersion, model.zone)
        let picture: () -> Figure = { [unowned self] in
            if kept.colors == nil, model.historyVersion == generation, model.zone == zone { kept.colors = seriesColors }
            var f = figure(kept.colors)
            if let device { f.subtitle = ["Device \(device)", f.subtitle].compactMap { $0 }.joined(separator: " · ") }
            return f
        }
        shownView = ShownView(name: name, width: width, theme: theme, json: json, csv: csv, table: table, figure: picture)
        return outcome
    }
}

/// The colours a shown view's picture is drawn in, once handed out: a later save of the same
/// view keeps them, whatever was loaded between.
private final class KeptColors {
    var colors: SeriesColors?
    init(_ colors: SeriesColors?) { self.colors = colors }
}
