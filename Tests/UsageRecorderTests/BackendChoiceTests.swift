// BackendChoiceTests.swift — the list of backends: the order they are tried in, which desktop each declines without trying (X11 under Wayland, GNOME's away from GNOME), the verdicts `record --once` prints, and the one line said when none opens.
import Testing
import UsageCore

@testable import UsageRecorder

@Suite struct BackendChoiceTests {
    @Test func theWindowManagersComeFirstAndX11Last() {
        #expect(BackendChoice.order.first == .sway)
        #expect(BackendChoice.order.last == .x11)
        #expect(BackendChoice.order.firstIndex(of: .gnome)! < BackendChoice.order.firstIndex(of: .x11)!)
    }

    @Test(arguments: [
        (["XDG_CURRENT_DESKTOP": "GNOME"], true),
        (["XDG_CURRENT_DESKTOP": "ubuntu:GNOME"], true),
        (["XDG_CURRENT_DESKTOP": "GNOME-Classic:GNOME"], true),
        (["XDG_CURRENT_DESKTOP": "gnome"], true),
        (["XDG_CURRENT_DESKTOP": "KDE"], false),
        (["XDG_CURRENT_DESKTOP": "GNOMEish"], false),
        ([:], false),
    ])
    func aGNOMESessionIsToldByOneOfItsDesktopNames(environment: [String: String], gnome: Bool) {
        #expect(Desktop(environment).isGNOME == gnome)
    }

    @Test func x11AndI3DeclineAWaylandSessionInTheListButNotWhenForced() {
        let wayland = Desktop(["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"])
        #expect(wayland.waylandReason == "this is a Wayland session: X11 would see only XWayland's windows (--backend x11 reads it anyway)")
        #expect(throws: RecorderError.notThatBackend(.x11, reason: wayland.waylandReason!)) {
            try BackendChoice.attempt(.x11, wayland, forced: false, idleThreshold: 1_000_000, monotonic: 0)
        }
        #expect(Desktop(["XDG_SESSION_TYPE": "wayland"]).isWayland)
        #expect(Desktop(["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"]).waylandReason == nil)
    }

    @Test func gnomeDeclinesAnotherDesktopWithoutTouchingTheBus() {
        #expect(throws: RecorderError.notThatBackend(.gnome, reason: "not a GNOME session (XDG_CURRENT_DESKTOP=sway)")) {
            try BackendChoice.attempt(.gnome, Desktop(["XDG_CURRENT_DESKTOP": "sway"]), forced: false, idleThreshold: 1_000_000, monotonic: 0)
        }
    }

    /// GNOME said "no session bus (cannot connect to the session bus: …)", KDE and the lock's
    /// watch "no session bus (DBUS_SESSION_BUS_ADDRESS is unset …)": one thing, two wordings.
    @Test func bugNoSessionBusWasWordedTwoWays() {
        let noBus = "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is not there)"
        #expect(throws: RecorderError.notThatBackend(.gnome, reason: noBus)) {
            try BackendChoice.attempt(.gnome, Desktop(["XDG_CURRENT_DESKTOP": "GNOME", "XDG_RUNTIME_DIR": "/nonexistent"]), forced: false, idleThreshold: 1_000_000, monotonic: 0)
        }
        #expect(throws: RecorderError.notThatBackend(.kde, reason: noBus)) {
            try BackendChoice.attempt(.kde, Desktop(["XDG_RUNTIME_DIR": "/nonexistent"]), forced: false, idleThreshold: 1_000_000, monotonic: 0)
        }
    }

    @Test func noDesktopAtAllIsNoDisplay() {
        #expect(throws: RecorderError.noDisplay) {
            try BackendChoice.open(["HOME": "/home/x"], forced: nil, idleThreshold: 1_000_000, monotonic: 0)
        }
    }

    @Test func whenNoneOpensTheDesktopsOwnBackendGivesTheReason() {
        let verdicts = [
            BackendVerdict(kind: .sway, reason: "no sway IPC socket"), BackendVerdict(kind: .gnome, reason: "the extension is not enabled"),
            BackendVerdict(kind: .x11, reason: "this is a Wayland session"),
        ]
        #expect(
            RecorderError.noBackend(verdicts, likely: .gnome).description
                == "no backend can read this desktop: gnome: the extension is not enabled (usage-shell record --once lists every backend's verdict)")
        #expect(Desktop(["XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0"]).likely == .gnome)
        #expect(Desktop(["DISPLAY": ":0"]).likely == .x11)
    }

    @Test func theVerdictLinesSayWhichRecordsWhichOpenTooAndWhyTheOthersCannot() {
        let lines = RecorderOnce.verdictLines(
            [
                BackendVerdict(kind: .sway, reason: "no sway IPC socket: SWAYSOCK is unset (run it from inside sway)"),
                BackendVerdict(kind: .gnome, reason: nil), BackendVerdict(kind: .x11, reason: nil),
            ], chosen: .gnome, clean: { $0 })
        #expect(lines == ["  sway: no sway IPC socket: SWAYSOCK is unset (run it from inside sway)", "  gnome: records", "  x11: opens too (gnome is chosen)"])
    }

    @Test func aHostileReasonIsCleanedBeforeItIsShown() {
        let lines = RecorderOnce.verdictLines([BackendVerdict(kind: .x11, reason: "cannot open \u{1B}]0;x")], chosen: nil, clean: { $0.replacingEscapes() })
        #expect(lines == ["  x11: cannot open \\e]0;x"])
    }
}

extension String {
    fileprivate func replacingEscapes() -> String { replacing("\u{1B}", with: "\\e") }
}
