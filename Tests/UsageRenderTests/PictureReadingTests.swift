// PictureReadingTests.swift — what makes a saved picture readable from a 390-pixel phone to a 1600-pixel desktop (issue 51, item 3), as the markup and the style sheet state it; scripts/test-pictures measures the same in Chromium (check_pictures.py, check_readable).
import Foundation
import Testing
@testable import UsageCore
@testable import UsageRender

@Suite struct PictureReadingTests {
    static func hex(_ text: String) -> Int { Int(text.dropFirst(), radix: 16)! }

    /// `timesheet`, `save sheet.html`, at 800–1600 px: every numeric column was 5.4em, so the
    /// names' column of a week's sheet was two letters wide ("Clie/nts"). The numeric columns are
    /// now as wide as their text, and leave the names at least 10em of an 800-pixel page (45.9em).
    @Test func bugTheTimesheetNameColumnBrokeWordsAtDesktopWidth() throws {
        let html = Figure.timesheet(RangeGoldenFixture.week).htmlDocument()
        let table = try #require(html.firstMatch(of: #/<table class="wide sheet"><colgroup>(.*?)</colgroup>/#)).output.1
        let widths = table.matches(of: #/width:([\d.]+)em/#).map { Double($0.output.1)! }
        #expect(widths.count == 8, "\(table)")
        #expect(45.9 - widths.reduce(0, +) >= 10, "numeric columns \(widths)")
        // Under 700 px the sheet is a list (its table too wide for the names).
        #expect(html.contains("@media (max-width:699px){.cw{display:none}.cn{display:block}.wide{display:none}.narrow{display:block}}"))
    }

    /// `month.html` wrapped `8h 45m` onto two lines: durations in running text are kept whole.
    @Test func bugMonthWrappedADurationOntoTwoLines() {
        let figure = Figure(title: "February 2026", totals: ["47h 44m total"], sentence: "busiest Sun 22 Feb (8h 45m) · <b>", blocks: [])
        let html = figure.htmlDocument()
        #expect(html.contains("<p class=\"sentence\">busiest Sun 22 Feb (<span class=\"nw\">8h 45m</span>) · &lt;b&gt;</p>"))
        #expect(html.contains("<p class=\"headline\" id=\"total\"><span class=\"nw\">47h 44m</span> total</p>"))
        #expect(html.contains(".legend .mu,.num,.nw{white-space:nowrap}"))
    }

    /// At 390 px the axis labels were drawn at 6–8 px: a 640-wide chart scaled to 370. The
    /// report now also draws each column chart and timeline 360 wide, shown under 700 px
    /// (11 px labels at 370/360), and the SVG file keeps its 640 px instead of shrinking.
    @Test func bugAxisLabelsWereSixPixelsOnAPhone() throws {
        let html = PictureCases.all.first { $0.name == "week" }!.figure().htmlDocument()
        #expect(html.contains("<figure class=\"cw\"><svg x=\"0\" y=\"0\" width=\"640\""))
        #expect(html.contains("<figure class=\"cn\"><svg x=\"0\" y=\"0\" width=\"360\""))
        #expect(html.contains("aria-labelledby=\"chart1n-title chart1n-desc\""))
        let svg = try #require(PictureCases.all.first { $0.name == "week" }!.figure().svgDocument())
        #expect(!svg.contains("max-width"))
        // The labels of a narrow month: the Mondays' dates, no row of initials run together.
        let month = PictureCases.all.first { $0.name == "month" }!.figure()
        guard case .columns(let chart) = month.blocks[0] else { Issue.record("no columns"); return }
        let narrow = try #require(SVGChart.draw(.columns(chart), id: "c", legend: false, width: PictureStyle.narrowWidth)).svg
        let labels = narrow.matches(of: #/text-anchor="middle"[^>]*>([^<]+)</text>/#).map { String($0.output.1) }
        #expect(labels.allSatisfy { $0.contains(" ") }, "\(labels)")
        #expect(labels.contains("23 Feb"))
    }

    /// Calendar day numbers were dark on the darkest green: each shade has its own text ink, at
    /// least 4.5:1 on it, light and dark.
    @Test func bugCalendarDayNumbersWereDarkOnDarkGreen() {
        for (shades, inks) in [(PictureStyle.shadesLight, PictureStyle.shadeTextLight), (PictureStyle.shadesDark, PictureStyle.shadeTextDark)] {
            for (shade, ink) in zip(shades, inks) {
                let ratio = ColorScience.contrast(ColorScience.rgb(Self.hex(shade)), ColorScience.rgb(Self.hex(ink)))
                #expect(ratio >= 4.5, "\(ink) on \(shade): \(ratio)")
            }
        }
        #expect(HTMLStyle.sheet.contains(".cal td.l4,.cal td.l4 .due{color:var(--t4)}"))
    }

    /// The range report's per-day chart was all grey, "other"'s colour everywhere else: it is
    /// drawn in the text's ink.
    @Test func bugTheRangeReportsPerDayChartWasOthersGrey() throws {
        let figure = PictureCases.all.first { $0.name == "summary" }!.figure()
        let series = figure.blocks.compactMap { block -> [FigureSeries]? in
            if case .columns(let chart) = block { return chart.series }
            return nil
        }
        #expect(series.count == 1 && series[0].map(\.name) == ["all apps"] && series[0].map(\.rgb) == [FigureSeries.textInk], "\(series)")
        let svg = try #require(figure.svgDocument())
        let perDay = try #require(svg.firstMatch(of: #/<title id="chart\d-title">Time per day</title>.*?</svg>/#)).output
        #expect(!perDay.contains("#afafaf"))
        #expect(perDay.contains("fill=\"#1f2328\" class=\"fg\"/>"))
        #expect(figure.htmlDocument().contains("<span class=\"sw ink\"></span>all apps"))
    }
}
