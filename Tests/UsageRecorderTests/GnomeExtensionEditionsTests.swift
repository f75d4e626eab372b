// GnomeExtensionEditionsTests.swift — where `record --enable` finds a package's two editions of the GNOME Shell extension (beside the binary's prefix, then XDG_DATA_DIRS), which one each GNOME Shell version gets, where the user's copy goes, and what it says once copied.
import Testing
@testable import UsageRecorder

struct GnomeExtensionEditionsTests {
    @Test(arguments: [
        ("43.9", "gnome-shell-43"), ("44.1", "gnome-shell-43"), ("45.0", "gnome-shell-45"), ("46.2", "gnome-shell-45"),
        ("50.alpha", "gnome-shell-45"), ("", "gnome-shell-45"), (nil, "gnome-shell-45"),
    ] as [(String?, String)])
    func eachGnomeShellGetsTheEditionItLoads(version: String?, edition: String) {
        #expect(GnomeExtensionEditions.edition(forShellVersion: version) == edition)
    }

    @Test func thePackagesFolderIsFoundBesideTheBinaryThenInTheDataDirs() {
        #expect(
            GnomeExtensionEditions.folders(executable: "/usr/bin/usage-shell", environment: [:])
                == ["/usr/share/usage-shell", "/usr/local/share/usage-shell"])
        #expect(
            GnomeExtensionEditions.folders(executable: "/home/ann/.local/bin/usage-shell", environment: ["XDG_DATA_DIRS": "/opt/share/:/usr/share"])
                == ["/home/ann/.local/share/usage-shell", "/opt/share/usage-shell", "/usr/share/usage-shell"])
        #expect(GnomeExtensionEditions.folders(executable: "/bin/usage-shell", environment: ["XDG_DATA_DIRS": "/usr/share"]) == ["/share/usage-shell", "/usr/share/usage-shell"])
        #expect(GnomeExtensionEditions.folders(executable: nil, environment: ["XDG_DATA_DIRS": "relative:/usr/share"]) == ["/usr/share/usage-shell"])
        #expect(
            GnomeExtensionEditions.sources(["/usr/share/usage-shell"], edition: "gnome-shell-43")
                == ["/usr/share/usage-shell/gnome-shell-43/usage-shell-record@usage-shell"])
    }

    @Test func theUsersCopyGoesWhereGnomeShellLooks() {
        #expect(GnomeExtensionEditions.userFolder(environment: ["HOME": "/home/ann"]) == "/home/ann/.local/share/gnome-shell/extensions/usage-shell-record@usage-shell")
        #expect(
            GnomeExtensionEditions.userFolder(environment: ["HOME": "/home/ann", "XDG_DATA_HOME": "/data"])
                == "/data/gnome-shell/extensions/usage-shell-record@usage-shell")
    }

    @Test func aCopyMadeIsRefusedUnderWaylandAndANoteUnderX11() {
        let line = GnomeExtensionEditions.installedLine(
            version: "46.0", source: "/usr/share/usage-shell/gnome-shell-45/usage-shell-record@usage-shell",
            target: "/home/ann/.local/share/gnome-shell/extensions/usage-shell-record@usage-shell")
        #expect(
            line
                == "installed the usage-shell GNOME Shell extension for GNOME Shell 46.0 in /home/ann/.local/share/gnome-shell/extensions/usage-shell-record@usage-shell "
                + "(from /usr/share/usage-shell/gnome-shell-45/usage-shell-record@usage-shell); GNOME Shell finds a new extension at login: "
                + "log out and in, then run usage-shell record --enable again")
        #expect(GnomeExtensionEditions.plan(installed: line, sessionType: "wayland") == .refuse(line + "; the unit was not set up yet"))
        #expect(GnomeExtensionEditions.plan(installed: line, sessionType: "x11") == .say("note: " + line + "; until then the recorder reads this X11 session as any other"))
    }

    @Test func anExtensionGnomeDoesNotKnowIsToBeInstalled() {
        let found = GnomeExtensionSetUp.notInstalled(shellVersion: "43.9", problem: "not installed")
        #expect(found.plan(sessionType: "wayland") == .install(shellVersion: "43.9", problem: "not installed"))
    }
}
