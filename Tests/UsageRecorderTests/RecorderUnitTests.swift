// RecorderUnitTests.swift — issue 44, item 6, without a desktop: which session the environment is, the line each one's config needs to start the unit, what record --once says when no unit runs, and record --enable writing that line and enabling the unit — or, when systemctl --user enable fails, putting the file back as it was (never half a set-up). The real user systemd is in Tests/Recorder/more_cases.py.
import Testing
import UsageRecorder

/// A file system of one folder's files in memory, and a systemctl that answers as told.
private final class FakeDesktop {
    var files: [String: String]
    var enableStatus: Int32
    var calls: [[String]] = []
    var writable = true

    init(files: [String: String] = [:], enableStatus: Int32 = 0) {
        self.files = files
        self.enableStatus = enableStatus
    }

    func enable(_ session: SessionKind, environment: [String: String]) throws(UnitSetUpError) -> [String] {
        try RecorderUnit.enable(
            session, environment: environment, read: { self.files[$0].map { .text($0) } ?? .absent },
            write: { path, text in
                guard self.writable else { return false }
                self.files[path] = text
                return true
            },
            systemctl: { arguments in
                self.calls.append(arguments)
                return self.enableStatus == 0 ? (0, "") : (self.enableStatus, "Failed to enable unit: Unit file usage-shell-record.service does not exist.")
            })
    }
}

struct RecorderUnitTests {
    static let home = ["HOME": "/home/ann"]

    @Test func item6TheSessionIsToldFromTheEnvironment() {
        #expect(SessionKind.of(["SWAYSOCK": "/run/sway.sock"]) == .sway)
        #expect(SessionKind.of(["I3SOCK": "/run/i3.sock"]) == .i3)
        #expect(SessionKind.of(["DISPLAY": ":0"], backend: .i3) == .i3)
        #expect(SessionKind.of(["DISPLAY": ":0", "DESKTOP_SESSION": "openbox"]) == .openbox)
        #expect(SessionKind.of(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "Openbox"]) == .openbox)
        #expect(SessionKind.of(["DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "GNOME"]) == .other)
    }

    /// The unit was `WantedBy=graphical-session.target`, which i3, sway and openbox sessions never
    /// start: each gets the one line its config needs, which hands the display to the user
    /// manager and starts the unit.
    @Test func item6EachSessionGetsTheOneLineItsConfigNeeds() {
        let start = "systemctl --user start usage-shell-record.service"
        let i3 = RecorderUnit.line(for: .i3, environment: Self.home)
        #expect(i3.file == "/home/ann/.config/i3/config")
        #expect(i3.line == "exec --no-startup-id systemctl --user import-environment DISPLAY XAUTHORITY I3SOCK XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)")
        #expect(i3.searched == ["/home/ann/.config/i3/config", "/home/ann/.i3/config"] && !i3.mayMake)
        let sway = RecorderUnit.line(for: .sway, environment: ["HOME": "/home/ann", "XDG_CONFIG_HOME": "/cfg"])
        #expect(sway.file == "/cfg/sway/config")
        #expect(sway.line == "exec systemctl --user import-environment WAYLAND_DISPLAY SWAYSOCK DISPLAY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)")
        #expect(sway.searched == ["/home/ann/.sway/config", "/cfg/sway/config", "/home/ann/.i3/config", "/cfg/i3/config"] && !sway.mayMake)
        let openbox = RecorderUnit.line(for: .openbox, environment: Self.home)
        #expect(openbox.file == "/home/ann/.config/openbox/autostart" && openbox.mayMake)
        #expect(openbox.line == "(systemctl --user import-environment DISPLAY XAUTHORITY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)) &")
        #expect(RecorderUnit.line(for: .other, environment: Self.home).file == nil)
        // What `record --once` prints when no unit runs.
        #expect(
            RecorderUnit.onceNotes(.openbox, environment: Self.home, clean: { $0 }) == [
                "note: no usage-shell-record.service runs; openbox starts no graphical-session.target, so /home/ann/.config/openbox/autostart needs this line (usage-shell record --enable writes it and enables the unit):",
                "  (systemctl --user import-environment DISPLAY XAUTHORITY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)) &",
            ])
        #expect(
            RecorderUnit.onceNotes(.other, environment: Self.home, clean: { $0 }) == [
                "note: no usage-shell-record.service runs; systemctl --user enable --now usage-shell-record.service starts it with every session that starts graphical-session.target (GNOME, KDE); one that does not needs, at each login: systemctl --user import-environment DISPLAY XAUTHORITY WAYLAND_DISPLAY XDG_CURRENT_DESKTOP XDG_SESSION_TYPE && \(start)"
            ])
    }

    /// `record --enable` made a config of one line where i3 or sway had none of the user's own,
    /// which then took the system's place: the next session had no key bindings at all (found by
    /// a reviewing helper). Now it changes nothing and says what to do; a legacy config is the
    /// one written, as the session reads it.
    @Test func bugEnableMadeAConfigOfOneLineThatHidTheSystemsKeyBindings() throws {
        let fresh = FakeDesktop()
        let swayLine = RecorderUnit.line(for: .sway, environment: Self.home).line
        #expect(throws: UnitSetUpError.noConfigOfYourOwn("sway", file: "/home/ann/.config/sway/config", system: "/etc/sway/config", line: swayLine)) {
            try fresh.enable(.sway, environment: Self.home)
        }
        #expect(fresh.files.isEmpty && fresh.calls.isEmpty)
        let line = RecorderUnit.line(for: .i3, environment: Self.home).line
        #expect(
            UnitSetUpError.noConfigOfYourOwn("i3", file: "/home/ann/.config/i3/config", system: "/etc/i3/config", line: line).description
                == "i3 reads no config of yours but /etc/i3/config: a /home/ann/.config/i3/config with one line would take its place; copy it there first (cp /etc/i3/config /home/ann/.config/i3/config) and run usage-shell record --enable again, or add this line to the config it reads: \(line); nothing was changed")
        let legacy = FakeDesktop(files: ["/home/ann/.i3/config": "bindsym $mod+Return exec xterm\n"])
        #expect(try legacy.enable(.i3, environment: Self.home).first == "added to /home/ann/.i3/config: \(line)")
        #expect(legacy.files["/home/ann/.config/i3/config"] == nil)
    }

    /// `record --enable` writes the line after what the file holds (a line of its own, once)
    /// and enables the unit.
    @Test func item6EnableWritesTheLineOnceAndEnablesTheUnit() throws {
        let desktop = FakeDesktop(files: ["/home/ann/.config/openbox/autostart": "xset s off"])
        let said = try desktop.enable(.openbox, environment: Self.home)
        let line = RecorderUnit.line(for: .openbox, environment: Self.home).line
        #expect(
            desktop.files["/home/ann/.config/openbox/autostart"]
                == "xset s off\n# usage-shell record --enable: the desktop recorder's unit started with the session\n\(line)\n")
        #expect(desktop.calls == [["enable", "usage-shell-record.service"]])
        #expect(said.first == "added to /home/ann/.config/openbox/autostart: \(line)")
        // Again: the file is left as it is.
        let before = desktop.files
        #expect(try desktop.enable(.openbox, environment: Self.home).first == "/home/ann/.config/openbox/autostart starts the unit already")
        #expect(desktop.files == before)
    }

    /// `systemctl --user enable` failing left the line in the session's config starting a unit
    /// that was not set up: the file is put back exactly (removed, when it was not there).
    @Test func item6AFailedEnableLeavesNoHalfASetUp() {
        let desktop = FakeDesktop(files: ["/home/ann/.config/i3/config": "bindsym $mod+Return exec xterm\n"], enableStatus: 1)
        #expect(
            throws: UnitSetUpError.enableFailed(
                "Failed to enable unit: Unit file usage-shell-record.service does not exist.", putBack: ("/home/ann/.config/i3/config", made: false))
        ) { try desktop.enable(.i3, environment: Self.home) }
        #expect(desktop.files == ["/home/ann/.config/i3/config": "bindsym $mod+Return exec xterm\n"])
        // Openbox's autostart, made for the line, is removed again.
        let fresh = FakeDesktop(enableStatus: 1)
        #expect(throws: UnitSetUpError.self) { try fresh.enable(.openbox, environment: Self.home) }
        #expect(fresh.files.compactMapValues { $0 }.isEmpty, "the file it made is gone")
        #expect(
            UnitSetUpError.enableFailed("x", putBack: ("/home/ann/.config/openbox/autostart", made: true)).description
                == "systemctl --user enable usage-shell-record.service failed (x); /home/ann/.config/openbox/autostart, which it made, is gone again: nothing was changed")
        // A file that cannot be written: systemctl is not even asked.
        let readOnly = FakeDesktop(files: ["/home/ann/.config/i3/config": ""])
        readOnly.writable = false
        #expect(throws: UnitSetUpError.cannotWrite("/home/ann/.config/i3/config")) { try readOnly.enable(.i3, environment: Self.home) }
        #expect(readOnly.calls.isEmpty)
        #expect(
            UnitSetUpError.enableFailed("Unit file usage-shell-record.service does not exist.", putBack: ("/home/ann/.config/i3/config", made: false)).description
                == "systemctl --user enable usage-shell-record.service failed (Unit file usage-shell-record.service does not exist.); /home/ann/.config/i3/config is as it was: nothing was changed")
    }
}
