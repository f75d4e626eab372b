// HTMLReport.swift — a figure as one self-contained HTML file (`save report.html`): inline SVG charts and CSS, no script, font, image or request (a Content-Security-Policy forbids them), text that reflows from a 320-pixel phone to a desktop, light and dark, printed on A4 without a chart cut.
import UsageCore

extension Figure {
    /// The HTML file of the whole view: its title, totals and sentence, its charts, tables and facts.
    public func htmlDocument() -> String {
        var page = Markup()
        page.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        page.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        page.open("meta", [("http-equiv", "Content-Security-Policy"), ("content", HTMLStyle.policy)])
        page.raw("\n<meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"generator\" content=\"usage-shell\">\n")
        page.element("title", text: Markup.shown(title))
        page.raw("\n<style>\n" + HTMLStyle.sheet + "</style>\n</head>\n<body>\n<main>\n<header>\n")
        page.elementKeepingTimes("h1", text: Markup.shown(title))
        page.newline()
        if let subtitle {
            page.elementKeepingTimes("p", [("class", "sub")], text: Markup.shown(subtitle))
            page.newline()
        }
        page.raw("</header>\n")
        for (k, line) in totals.enumerated() {
            page.elementKeepingTimes("p", k == 0 ? [("class", "headline"), ("id", "total")] : [("class", "totals")], text: Markup.shown(line))
            page.newline()
        }
        if let sentence {
            page.elementKeepingTimes("p", [("class", "sentence")], text: Markup.shown(sentence))
            page.newline()
        }
        for (k, block) in blocks.enumerated() {
            HTMLBlocks.write(block, id: "chart\(k + 1)", into: &page)
        }
        page.raw("<footer>Made with usage-shell.</footer>\n</main>\n</body>\n</html>\n")
        return page.text
    }
}

/// The report's policy and style sheet.
enum HTMLStyle {
    /// Nothing may load or run: no script, no font, no image, no frame, no request; only the
    /// page's own style sheet and style attributes.
    static let policy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; font-src 'none'; base-uri 'none'; form-action 'none'"

    static var sheet: String {
        let light = PictureStyle.variables(dark: false)
        // As specific as `.cal td`, so a shaded day is not drawn empty.
        let shades = (1...4).map { ".cal td.l\($0),.sw.l\($0){background:var(--s\($0))}.cal td.l\($0),.cal td.l\($0) .due{color:var(--t\($0))}" }.joined()
        return """
            :root{color-scheme:light dark;\(light)}
            @media screen and (prefers-color-scheme:dark){:root{\(PictureStyle.variables(dark: true))}}
            \(PictureStyle.classRules)
            *{box-sizing:border-box}
            body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.45 \(PictureStyle.fontStack)}
            main{max-width:720px;margin:0 auto;padding:20px 16px 32px}
            h1{font-size:1.5em;line-height:1.2;margin:0 0 .2em;overflow-wrap:anywhere}
            h2{font-size:1.1em;margin:1.6em 0 .5em;overflow-wrap:anywhere}
            p{margin:.3em 0;overflow-wrap:anywhere}
            .sub,.sentence,footer,.mu,dt,.detail{color:var(--mu)}
            .headline{font-size:1.25em;font-weight:600;margin-top:.6em}
            footer{margin-top:2.5em;font-size:.85em}
            figure{margin:0}
            svg{display:block;width:100%;height:auto}
            .ring{display:flex;flex-wrap:wrap;gap:8px 24px;align-items:center}
            .ring figure{flex:0 0 auto;width:224px;max-width:100%}
            .cn{display:none}
            .ring table{flex:1 1 240px;width:auto}
            .legend{list-style:none;padding:0;margin:.4em 0 0;display:flex;flex-wrap:wrap;gap:.2em 1.2em;font-size:.9em}
            .legend li{overflow-wrap:break-word;min-width:0}
            .legend .mu,.num,.nw{white-space:nowrap}
            .sw{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:.4em;vertical-align:-.05em}
            .sw.ink{background:var(--fg)}
            .dash{display:inline-block;width:1.2em;border-top:2px dashed var(--fg);margin-right:.4em;vertical-align:.25em}
            table{border-collapse:collapse;width:100%;table-layout:fixed}
            th,td{padding:.25em .4em;text-align:left;vertical-align:top;overflow-wrap:break-word}
            thead th{border-bottom:1px solid var(--gr);font-weight:600}
            .num{text-align:right;font-variant-numeric:tabular-nums}
            .note{text-align:right;font-variant-numeric:tabular-nums}
            .detail{display:block;font-size:.85em}
            .bar span{display:block;height:.75em;border-radius:2px;margin-top:.4em}
            .bar .track{position:relative}
            .bar .limit{position:absolute;top:0;bottom:0;border-right:2px solid var(--fg)}
            .track{background:var(--tr)}
            .alert{font-weight:700}
            tr.group td{font-weight:600}
            tr.member td:first-child,p.member{padding-left:1.4em}
            tr.total td{font-weight:700;border-top:1px solid var(--gr)}
            .sheet+.sheet{margin-top:1em}
            dl{display:grid;grid-template-columns:max-content 1fr;gap:.25em 1em;margin:0}
            dd{margin:0;overflow-wrap:anywhere}
            .cal{border-collapse:separate;border-spacing:3px}
            .cal th{font-weight:400;color:var(--mu);font-size:.85em;padding:0 .2em}
            .cal td{height:3.4em;background:var(--tr);border-radius:4px;padding:.2em .3em;font-size:.9em}
            .cal td.out{background:none}
            .cal td.sel{outline:2px solid var(--fg);outline-offset:-2px;font-weight:700}
            .cal .due{display:block;font-size:.85em;color:var(--mu)}
            \(shades)
            .narrow{display:none}
            @media (max-width:\(PictureStyle.narrowScreen - 1)px){.cw{display:none}.cn{display:block}.wide{display:none}.narrow{display:block}}
            @media (max-width:560px){body{font-size:14px}main{padding:14px 10px 24px}dl{grid-template-columns:1fr}dd{margin-bottom:.4em}
            .cal td{height:2.8em;font-size:.85em}}
            @media print{:root{\(light)}body{background:#fff}main{max-width:none;padding:0}
            figure,dl,tr,.ring{break-inside:avoid}h2{break-after:avoid}.narrow,.cn{display:none}.wide{display:table}.cw{display:block}}
            @page{size:A4;margin:14mm}

            """
    }
}
