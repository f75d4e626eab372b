// PaletteTests.swift — the colours measured as docs/COMMANDS.md ("Charts") states them: contrast against dark and light backgrounds, every two apart in normal vision and, within a kind, as protanopes and deuteranopes see them (CIEDE2000 after Machado et al. 2009's simulation); "other" never the grid's grey; and the session's colouring keeps names on one chart apart.
import Foundation
import Testing
@testable import UsageCore
@testable import UsageRender

/// Colour science for the tests: sRGB, CIELAB, CIEDE2000, WCAG contrast, colour-vision simulation.
enum ColorScience {
    typealias RGB = (r: Double, g: Double, b: Double)

    static func rgb(_ hex: Int) -> RGB { (Double(hex >> 16) / 255, Double(hex >> 8 & 0xFF) / 255, Double(hex & 0xFF) / 255) }
    static func rgb(xterm index: Int) -> RGB {
        let c = SeriesColor.rgbOf(index)
        return (Double(c.r) / 255, Double(c.g) / 255, Double(c.b) / 255)
    }

    static func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
    static func gamma(_ c: Double) -> Double {
        let v = min(1, max(0, c))
        return v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// WCAG relative luminance and contrast ratio.
    static func luminance(_ c: RGB) -> Double { 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b) }
    static func contrast(_ a: RGB, _ b: RGB) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB.
    enum Vision: CaseIterable {
        case normal, protanopia, deuteranopia

        var matrix: [[Double]]? {
            switch self {
            case .normal: return nil
            case .protanopia: return [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
            case .deuteranopia: return [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
            }
        }
    }

    static func seen(_ c: RGB, by vision: Vision) -> RGB {
        guard let m = vision.matrix else { return c }
        let l = [linear(c.r), linear(c.g), linear(c.b)]
        let o = m.map { row in zip(row, l).reduce(0) { $0 + $1.0 * $1.1 } }
        return (gamma(o[0]), gamma(o[1]), gamma(o[2]))
    }

    static func lab(_ c: RGB) -> (L: Double, a: Double, b: Double) {
        let (r, g, b) = (linear(c.r), linear(c.g), linear(c.b))
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// CIEDE2000 colour difference.
    static func deltaE(_ c1: RGB, _ c2: RGB) -> Double {
        let (l1, a1, b1) = lab(c1)
        let (l2, a2, b2) = lab(c2)
        let rad = Double.pi / 180
        let cBar = (hypot(a1, b1) + hypot(a2, b2)) / 2
        let g = 0.5 * (1 - sqrt(pow(cBar, 7) / (pow(cBar, 7) + pow(25, 7))))
        let (a1p, a2p) = ((1 + g) * a1, (1 + g) * a2)
        let (c1p, c2p) = (hypot(a1p, b1), hypot(a2p, b2))
        func hue(_ b: Double, _ a: Double) -> Double {
            let h = atan2(b, a) / rad
            return h < 0 ? h + 360 : h
        }
        let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p))
        let dL = l2 - l1
        let dC = c2p - c1p
        var dh = 0.0
        if c1p * c2p != 0 {
            dh = h2p - h1p
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * sqrt(c1p * c2p) * sin(dh / 2 * rad)
        let lBar = (l1 + l2) / 2
        let cBarP = (c1p + c2p) / 2
        var hBar = h1p + h2p
        if c1p * c2p != 0 {
            hBar = abs(h1p - h2p) <= 180 ? (h1p + h2p) / 2 : (h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2)
        }
        let t = 1 - 0.17 * cos((hBar - 30) * rad) + 0.24 * cos(2 * hBar * rad) + 0.32 * cos((3 * hBar + 6) * rad)
            - 0.20 * cos((4 * hBar - 63) * rad)
        let dTheta = 30 * exp(-pow((hBar - 275) / 25, 2))
        let rC = 2 * sqrt(pow(cBarP, 7) / (pow(cBarP, 7) + pow(25, 7)))
        let sL = 1 + 0.015 * pow(lBar - 50, 2) / sqrt(20 + pow(lBar - 50, 2))
        let sC = 1 + 0.045 * cBarP
        let sH = 1 + 0.015 * cBarP * t
        let rT = -sin(2 * dTheta * rad) * rC
        return sqrt(pow(dL / sL, 2) + pow(dC / sC, 2) + pow(dH / sH, 2) + rT * (dC / sC) * (dH / sH))
    }

    /// The least difference between two of `colors`, as `vision` sees them.
    static func closest(_ colors: [RGB], vision: Vision) -> Double {
        var least = Double.infinity
        for i in colors.indices {
            for j in colors.indices where j > i {
                least = min(least, deltaE(seen(colors[i], by: vision), seen(colors[j], by: vision)))
            }
        }
        return least
    }
}

struct PaletteTests {
    typealias CS = ColorScience
    static let black: CS.RGB = (0, 0, 0)
    static let white: CS.RGB = (1, 1, 1)

    /// Both palettes of a depth: categories, apps, other, grid.
    static func palettes(rgb: Bool) -> (categories: [CS.RGB], apps: [CS.RGB], other: CS.RGB, grid: CS.RGB) {
        if rgb {
            return (
                SeriesColor.categoriesRGB.map { CS.rgb($0) }, SeriesColor.appsRGB.map { CS.rgb($0) }, CS.rgb(SeriesColor.otherRGB),
                CS.rgb(SeriesColor.gridRGB)
            )
        }
        return (
            SeriesColor.categories256.map { CS.rgb(xterm: $0) }, SeriesColor.apps256.map { CS.rgb(xterm: $0) },
            CS.rgb(xterm: SeriesColor.other256), CS.rgb(xterm: SeriesColor.gridIndex)
        )
    }

    @Test func theScienceAgreesWithPublishedValues() {
        // Colours whose differences are known: identical ones differ by 0, black and white by
        // 100 (their L* values); black on white is WCAG's 21:1.
        #expect(CS.deltaE((0.2, 0.4, 0.6), (0.2, 0.4, 0.6)) == 0)
        #expect(abs(CS.deltaE(Self.black, Self.white) - 100) < 0.01)
        #expect(abs(CS.contrast(Self.black, Self.white) - 21) < 0.001)
        // Protanopes and deuteranopes see pure red and a green of its lightness nearly alike.
        let red: CS.RGB = (0.84, 0, 0)
        let green: CS.RGB = (0.37, 0.53, 0)
        #expect(CS.deltaE(CS.seen(red, by: .deuteranopia), CS.seen(green, by: .deuteranopia)) < 5)
        #expect(CS.deltaE(red, green) > 40)
    }

    @Test(arguments: [true, false])
    func everyColourReadsOnDarkAndLightBackgrounds(rgb: Bool) {
        let p = Self.palettes(rgb: rgb)
        for c in p.categories + p.apps {
            #expect(CS.contrast(c, Self.black) >= (rgb ? 3.4 : 2.8), "\(c) on black")
            #expect(CS.contrast(c, Self.white) >= (rgb ? 2.1 : 2.4), "\(c) on white")
        }
    }

    @Test(arguments: [true, false])
    func withinAKindEveryTwoOfTheFirstSixStayApartForTheCommonColourVisionDeficiencies(rgb: Bool) {
        let p = Self.palettes(rgb: rgb)
        for vision in [CS.Vision.protanopia, .deuteranopia] {
            #expect(CS.closest(Array(p.categories.prefix(6)), vision: vision) >= (rgb ? 12 : 11), "categories, \(vision)")
            #expect(CS.closest(Array(p.apps.prefix(6)), vision: vision) >= (rgb ? 12 : 11), "apps, \(vision)")
        }
    }

    @Test(arguments: [true, false])
    func allSixteenStayApartAndOtherIsNoGridGrey(rgb: Bool) {
        let p = Self.palettes(rgb: rgb)
        #expect(p.categories.count == SeriesColors.slots && p.apps.count == SeriesColors.slots)
        #expect(CS.closest(p.categories + p.apps, vision: .normal) >= (rgb ? 18 : 11.5))
        // The first six of each kind, what most charts use, further still.
        #expect(CS.closest(Array(p.categories.prefix(6) + p.apps.prefix(6)), vision: .normal) >= (rgb ? 20 : 14))
        for c in p.categories + p.apps {
            #expect(CS.deltaE(c, p.other) >= 19, "other too close to \(c)")
            #expect(CS.deltaE(c, p.grid) >= 17, "grid too close to \(c)")
        }
        #expect(CS.deltaE(p.other, p.grid) >= 30)
    }

    @Test func sixteenColoursKeepOtherOffTheGridsGrey() {
        #expect(SeriesColor.other16 != 90)
        #expect(Theme(depth: .ansi16).grid == "90")
        #expect(!SeriesColor.apps16.contains(90) && !SeriesColor.categories16.contains(90))
        #expect(SeriesColor.apps16[0] != SeriesColor.categories16[0])
        #expect(Set(SeriesColor.apps16).count == SeriesColors.slots && Set(SeriesColor.categories16).count == SeriesColors.slots)
    }

    @Test func eachDepthWritesItsOwnSequences() {
        let slot = Series(rank: 0, kind: .category, slot: 0)
        #expect(slot.color(Theme(depth: .ansi16))?.foreground == "94")
        #expect(slot.color(Theme(depth: .ansi256))?.foreground == "38;5;25")
        #expect(slot.color(Theme(depth: .truecolor))?.foreground == "38;2;0;114;178")
        #expect(slot.color(Theme(depth: .truecolor))?.background == "48;2;0;114;178")
        #expect(slot.color(.plain) == nil)
        #expect(Series.other.color(Theme(depth: .ansi256))?.foreground == "38;5;145")
        #expect(Theme(depth: .ansi256).grid == "38;5;240")
    }
}
