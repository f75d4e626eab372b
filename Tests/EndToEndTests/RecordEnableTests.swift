// RecordEnableTests.swift — `usage-shell record --enable` through the built binary, on real files, with a systemctl of the test's own: a linked config written where the link points (the link kept, the file's mode kept), a config that is no text, and a session with no config of its own each left as they were with one clear line.
import Foundation
import TestSupport
import Testing

struct RecordEnableTests {
    /// A home with a fake `systemctl` first on PATH (it fails with FAIL=1).
    final class Home {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-enable-\(UUID().uuidString)")
        init() throws {
            let bin = url.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let fake = bin.appendingPathComponent("systemctl")
            try "#!/bin/sh\n[ \"$FAIL\" = 1 ] && { echo 'Failed to enable unit' >&2; exit 1; }\nexit 0\n".write(to: fake, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        func enable(_ session: [String: String], fail: Bool = false) throws -> RunResult {
            try Binary.run(
                ["record", "--enable"],
                environment: ["HOME": url.path, "XDG_CONFIG_HOME": path(".config"), "PATH": path("bin") + ":/usr/bin:/bin", "FAIL": fail ? "1" : "0"]
                    .merging(session) { $1 })
        }
    }

    /// A linked config (dotfiles) was replaced by a plain file with the link's mode, 0777: any
    /// local user could then add `exec` lines to the window manager's config (found by a
    /// reviewing helper). The line now goes into the file the link names, whose mode it keeps.
    @Test func bugEnableReplacedALinkedConfigWithAFileAnyoneCouldWrite() throws {
        let home = try Home()
        let manager = FileManager.default
        try manager.createDirectory(atPath: home.path("dotfiles"), withIntermediateDirectories: true)
        try manager.createDirectory(atPath: home.path(".config/i3"), withIntermediateDirectories: true)
        try "bindsym $mod+Return exec xterm\n".write(toFile: home.path("dotfiles/i3"), atomically: true, encoding: .utf8)
        try manager.setAttributes([.posixPermissions: 0o640], ofItemAtPath: home.path("dotfiles/i3"))
        try manager.createSymbolicLink(atPath: home.path(".config/i3/config"), withDestinationPath: home.path("dotfiles/i3"))
        let r = try home.enable(["I3SOCK": "/run/i3.sock"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("added to \(home.path(".config/i3/config")): exec --no-startup-id systemctl --user import-environment"))
        #expect(try manager.destinationOfSymbolicLink(atPath: home.path(".config/i3/config")) == home.path("dotfiles/i3"))
        let text = try String(contentsOfFile: home.path("dotfiles/i3"), encoding: .utf8)
        #expect(text.hasPrefix("bindsym $mod+Return exec xterm\n# usage-shell record --enable"))
        #expect(try manager.attributesOfItem(atPath: home.path("dotfiles/i3"))[.posixPermissions] as? Int == 0o640)
    }

    /// A config that is not UTF-8 was read as none: replaced by the one line, or deleted when
    /// systemctl failed, while the message said it was as it was (found by a reviewing helper).
    @Test func bugAConfigThatWasNotUTF8WasReplacedOrDeleted() throws {
        let home = try Home()
        try FileManager.default.createDirectory(atPath: home.path(".config/i3"), withIntermediateDirectories: true)
        let latin1 = Data("# R".utf8) + Data([0xE9]) + Data("sum\nbindsym $mod+q kill\n".utf8)
        try latin1.write(to: URL(fileURLWithPath: home.path(".config/i3/config")))
        for fail in [false, true] {
            let r = try home.enable(["I3SOCK": "/run/i3.sock"], fail: fail)
            #expect(r.status == 1)
            #expect(r.stderr.contains("cannot rewrite \(home.path(".config/i3/config")) (not UTF-8 text); nothing was changed: add this line to it yourself: exec --no-startup-id"), "\(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: home.path(".config/i3/config"))) == latin1)
        }
    }

    /// sway with no config of the user's own reads /etc/sway/config: nothing is made, and it says so.
    @Test func swayWithNoConfigOfItsOwnIsToldWhatToDoAndNothingIsMade() throws {
        let home = try Home()
        let r = try home.enable(["SWAYSOCK": "/run/sway.sock"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("sway reads no config of yours but /etc/sway/config: a \(home.path(".config/sway/config")) with one line would take its place"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.path(".config/sway")))
    }

    /// Openbox's autostart, made for the line when systemctl then fails, is removed again, and said so.
    @Test func aMadeAutostartIsRemovedAgainWhenTheUnitCannotBeEnabled() throws {
        let home = try Home()
        let r = try home.enable(["XDG_CURRENT_DESKTOP": "openbox", "DISPLAY": ":9"], fail: true)
        #expect(r.status == 1)
        #expect(r.stderr.contains("(Failed to enable unit); \(home.path(".config/openbox/autostart")), which it made, is gone again: nothing was changed"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.path(".config/openbox")))
    }
}
