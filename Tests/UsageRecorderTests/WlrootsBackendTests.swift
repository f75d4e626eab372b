// WlrootsBackendTests.swift — the wlroots backend's pure parts: the foreign toplevels' state applied at `done` (the app in front, a closed window, app ids repaired), the compositor's events as the recorder's (idle, one focus change per batch, the manager's end), and the probe's lines where no compositor is needed to tell.
import Testing
import UsageCore

@testable import UsageRecorder

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A toplevel announced with its app id and state, and its done.
private func announce(_ id: UInt32, _ app: String, activated: Bool) -> [WaylandEvent] {
    [.toplevel(id), .appID(id, bytes(app)), .state(id, activated: activated), .done(id)]
}

struct WlrootsBackendTests {
    @Test func theActivatedToplevelIsTheApp() {
        var toplevels = ForeignToplevels()
        for event in announce(1, "A", activated: false) + announce(2, "B", activated: true) { toplevels.apply(event) }
        #expect(toplevels.focusedApp == "B" && toplevels.count == 2)
        // A state applies at its done, not before.
        toplevels.apply(.state(2, activated: false))
        toplevels.apply(.state(1, activated: true))
        #expect(toplevels.focusedApp == "B")
        toplevels.apply(.done(2))
        #expect(toplevels.focusedApp == nil)
        toplevels.apply(.done(1))
        #expect(toplevels.focusedApp == "A")
        // An app id changed while focused.
        toplevels.apply(.appID(1, bytes("A2")))
        toplevels.apply(.done(1))
        #expect(toplevels.focusedApp == "A2")
    }

    @Test func aClosedWindowLeavesTheOneActivatedBefore() {
        var toplevels = ForeignToplevels()
        // Two seats may each keep one activated: the latest is in front, the other after it closes.
        for event in announce(1, "A", activated: true) + announce(2, "B", activated: true) { toplevels.apply(event) }
        #expect(toplevels.focusedApp == "B")
        toplevels.apply(.closed(2))
        #expect(toplevels.focusedApp == "A" && toplevels.count == 1)
        toplevels.apply(.closed(1))
        #expect(toplevels.focusedApp == nil && toplevels.count == 0)
        // Events of a toplevel already gone change nothing.
        toplevels.apply(.state(1, activated: true))
        toplevels.apply(.done(1))
        #expect(toplevels.focusedApp == nil)
    }

    @Test(arguments: [
        ClassCase("escapes and invalid UTF-8", [0x1B, 0x5D, 0x30, 0x3B, 0xFF, 0xFE, 0x65], "\u{1B}]0;\u{FFFD}\u{FFFD}e"),
        ClassCase("1000 bytes", Array(repeating: UInt8(ascii: "L"), count: 1000), String(repeating: "L", count: 256)),
        ClassCase("none (an X client without a class)", [], Normalise.unknownApp),
        ClassCase("blank", bytes("  "), Normalise.unknownApp),
    ])
    func appIDsAreRepairedAndCut(_ c: ClassCase) {
        var toplevels = ForeignToplevels()
        for event: WaylandEvent in [.toplevel(7), .appID(7, c.bytes), .state(7, activated: true), .done(7)] { toplevels.apply(event) }
        #expect(toplevels.focusedApp == c.expected)
    }

    @Test func aBatchIsOneFocusChangeAndIdleIsTheThresholdBefore() throws {
        var reading = WlrootsReading(idleThreshold: 2_000_000)
        #expect(try reading.take(announce(1, "A", activated: true) + announce(2, "B", activated: false), now: 100) == [.focus("A", at: 100)])
        // The same app again is not told again.
        #expect(try reading.take([.appID(1, bytes("A")), .done(1)], now: 200).isEmpty)
        // A closing, B activated: one change, not a moment of nothing between.
        #expect(try reading.take([.closed(1), .state(2, activated: true), .done(2)], now: 300) == [.focus("B", at: 300)])
        #expect(try reading.take([.idled], now: 5_000_000) == [.idle(since: 3_000_000)])
        #expect(try reading.take([.resumed], now: 6_000_000) == [.resume(at: 6_000_000)])
        // Idle is told before the focus read at the same wakeup.
        #expect(try reading.take([.state(2, activated: false), .done(2), .idled], now: 9_000_000) == [.idle(since: 7_000_000), .focus(nil, at: 9_000_000)])
        #expect(reading.told() == nil)
    }

    @Test func theManagersEndEndsTheDesktop() {
        var reading = WlrootsReading(idleThreshold: 2_000_000)
        #expect(throws: RecorderError.desktopEnded("the compositor stopped listing its windows (zwlr_foreign_toplevel_manager_v1 finished)")) {
            try reading.take([.finished], now: 1)
        }
    }

    @Test func theProbeSaysWhyInOneLine() {
        #expect(WlrootsBackend.probe([:]) == "WAYLAND_DISPLAY is unset (not a Wayland session)")
        #expect(WlrootsBackend.probe(["WAYLAND_DISPLAY": ""]) == "WAYLAND_DISPLAY is unset (not a Wayland session)")
        #expect(WlrootsBackend.probe(["WAYLAND_DISPLAY": "wayland-1"]) == "XDG_RUNTIME_DIR is unset, so the Wayland socket wayland-1 cannot be found")
        // A socket that is not there (an absolute path needs no XDG_RUNTIME_DIR).
        #expect(WlrootsBackend.probe(["WAYLAND_DISPLAY": "/nonexistent/wayland-9"]) == "cannot connect to the Wayland display /nonexistent/wayland-9")
    }
}
