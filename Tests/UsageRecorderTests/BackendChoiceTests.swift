// BackendChoiceTests.swift — the list of backends: the order they are tried in and their names, what each says from the environment alone (a table), the backend a desktop most likely wants, which desktop each declines without trying (X11 under Wayland, GNOME's away from GNOME), the verdicts `record --once` prints, and the one line said when none opens.
import Testing
import UsageCore

@testable import UsageRecorder

@Suite struct BackendChoiceTests {
    @Test func theWindowManagersComeFirstAndX11Last() {
        #expect(BackendChoice.names == ["sway", "i3", "gnome", "kde", "wlroots", "x11"])
        #expect(BackendChoice.order.first?.kind == .sway)
        #expect(BackendChoice.order.last?.kind == .x11)
        #expect(Set(BackendChoice.names).count == BackendChoice.order.count, "each name once")
        #expect(BackendChoice.entry(named: "kde")?.kind == .kde)
        #expect(BackendChoice.entry(named: "KDE") == nil)
    }

    /// Each backend says from the environment alone whether it applies and why not: a table of
    /// environments, and each backend's refusal (nil: it would be opened), tried in the list and forced.
    @Test(arguments: [
        // No desktop at all.
        ([:], false, [
            "sway": "no sway IPC socket: SWAYSOCK is unset (run it from inside sway)",
            "i3": "--backend i3: i3 runs on X11, and DISPLAY and I3SOCK are unset",
            "gnome": "--backend gnome: not a GNOME session (XDG_CURRENT_DESKTOP is unset)",
            "kde": "--backend kde: XDG_RUNTIME_DIR is unset: the KWin script is written there, private to you",
            "wlroots": "--backend wlroots: WAYLAND_DISPLAY is unset (not a Wayland session)",
            "x11": "--backend x11: DISPLAY is unset",
        ]),
        // Forced, the desktop's name and the session's type no longer decline.
        (["XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"], true, [
            "sway": "no sway IPC socket: SWAYSOCK is unset (run it from inside sway)",
            "i3": nil, "gnome": nil,
            "kde": "--backend kde: XDG_RUNTIME_DIR is unset: the KWin script is written there, private to you",
            "wlroots": "--backend wlroots: XDG_RUNTIME_DIR is unset, so the Wayland socket wayland-1 cannot be found",
            "x11": nil,
        ]),
        // A Wayland session in the list: X11 and i3 decline it.
        (["XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0", "XDG_RUNTIME_DIR": "/run/user/1", "SWAYSOCK": "/run/s"], false, [
            "sway": nil,
            "i3": "--backend i3: this is a Wayland session: X11 would see only XWayland's windows (--backend x11 reads it anyway)",
            "gnome": "--backend gnome: not a GNOME session (XDG_CURRENT_DESKTOP=sway)",
            "kde": nil, "wlroots": nil,
            "x11": "--backend x11: this is a Wayland session: X11 would see only XWayland's windows (--backend x11 reads it anyway)",
        ]),
        // I3SOCK: i3 asks the socket (it may be sway's), whatever the session.
        (["I3SOCK": "/run/i3", "XDG_CURRENT_DESKTOP": "GNOME", "XDG_SESSION_TYPE": "wayland"], false, [
            "sway": nil, "i3": nil, "gnome": nil,
            "kde": "--backend kde: XDG_RUNTIME_DIR is unset: the KWin script is written there, private to you",
            "wlroots": "--backend wlroots: WAYLAND_DISPLAY is unset (not a Wayland session)",
            "x11": "--backend x11: DISPLAY is unset",
        ]),
    ] as [([String: String], Bool, [String: String?])])
    func eachBackendSaysFromTheEnvironmentAloneWhetherItApplies(environment: [String: String], forced: Bool, refusals: [String: String?]) {
        #expect(Set(refusals.keys) == Set(BackendChoice.names), "the table names every backend of the list")
        for entry in BackendChoice.order {
            #expect(entry.declines(Desktop(environment), forced)?.description == refusals[entry.kind.rawValue]!, "\(entry.kind.rawValue)")
        }
    }

    /// The backend a desktop most likely wants, whose verdict is said when none opens: the one
    /// whose desktop the variables name most plainly.
    @Test(arguments: [
        (["XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0", "SWAYSOCK": "/s"], BackendKind.gnome),
        (["XDG_CURRENT_DESKTOP": "KDE", "DISPLAY": ":0"], .kde),
        (["XDG_CURRENT_DESKTOP": "GNOME:KDE"], .gnome),
        (["SWAYSOCK": "/s", "I3SOCK": "/i", "DISPLAY": ":0"], .sway),
        (["WAYLAND_DISPLAY": "wayland-0", "I3SOCK": "/i"], .wlroots),
        (["XDG_SESSION_TYPE": "wayland"], .wlroots),
        (["I3SOCK": "/i", "DISPLAY": ":0"], .i3),
        (["DISPLAY": ":0"], .x11),
        ([:], .x11),
    ])
    func theLikelyBackendIsTheOneTheVariablesNameMostPlainly(environment: [String: String], likely: BackendKind) {
        #expect(Desktop(environment).likely == likely)
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
            try X11Backend.entry.attempt(wayland, forced: false, idleThreshold: 1_000_000, monotonic: 0)
        }
        #expect(Desktop(["XDG_SESSION_TYPE": "wayland"]).isWayland)
        #expect(Desktop(["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"]).waylandReason == nil)
    }

    @Test func gnomeDeclinesAnotherDesktopWithoutTouchingTheBus() {
        #expect(throws: RecorderError.notThatBackend(.gnome, reason: "not a GNOME session (XDG_CURRENT_DESKTOP=sway)")) {
            try GnomeBackend.entry.attempt(Desktop(["XDG_CURRENT_DESKTOP": "sway"]), forced: false, idleThreshold: 1_000_000, monotonic: 0)
        }
    }

    /// GNOME said "no session bus (cannot connect to the session bus: …)", KDE and the lock's
    /// watch "no session bus (DBUS_SESSION_BUS_ADDRESS is unset …)": one thing, two wordings.
    @Test func bugNoSessionBusWasWordedTwoWays() {
        let noBus = "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is not there)"
        #expect(throws: RecorderError.notThatBackend(.gnome, reason: noBus)) {
            try GnomeBackend.entry.attempt(Desktop(["XDG_CURRENT_DESKTOP": "GNOME", "XDG_RUNTIME_DIR": "/nonexistent"]), forced: false, idleThreshold: 1_000_000, monotonic: 0)
        }
        #expect(throws: RecorderError.notThatBackend(.kde, reason: noBus)) {
            try KDEBackend.entry.attempt(Desktop(["XDG_RUNTIME_DIR": "/nonexistent"]), forced: false, idleThreshold: 1_000_000, monotonic: 0)
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
