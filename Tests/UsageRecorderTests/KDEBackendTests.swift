// KDEBackendTests.swift — issue 42 item 2: the KDE backend's probe against a real dbus-daemon of the test's own (no session bus named; a bus without KWin; a bus where a stand-in owns org.kde.KWin) and its refusals in one line. KWin itself is Tests/Recorder/kde_cases.py.
import Testing
import UsageCore
import UsageRecorder

struct KDEBackendTests {
    /// Owns a name and nothing else.
    static let nameOnly = """
        import sys, dbus, dbus.bus, dbus.mainloop.glib
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        bus.request_name(sys.argv[2])
        GLib.MainLoop().run()
        """

    @Test func item2TheProbeSaysWhyInOneLine() throws {
        #expect(KDEBackend.probe([:]) == "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is not there)")
        #expect(KDEBackend.probe(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus"])
            == "cannot connect to the bus at unix:path=/nonexistent/bus: No such file or directory")
        let bus = try PrivateBus()
        let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": "/tmp"]
        #expect(KDEBackend.probe(environment) == "KWin is not on the session bus (no org.kde.KWin): this is not a KDE Plasma session")
        #expect(throws: RecorderError.notThatBackend(.kde, reason: "KWin is not on the session bus (no org.kde.KWin): this is not a KDE Plasma session")) {
            _ = try KDEBackend(environment: environment, idleThreshold: 60_000_000, monotonic: 0)
        }
        #expect(throws: RecorderError.notThatBackend(.kde, reason: "XDG_RUNTIME_DIR is unset: the KWin script is written there, private to you")) {
            _ = try KDEBackend(environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], idleThreshold: 60_000_000, monotonic: 0)
        }
        let c = try DBusConnection.open(.address(bus.address))
        try bus.python(Self.nameOnly, owning: "org.kde.KWin", connection: c)
        #expect(KDEBackend.probe(environment) == nil)
    }
}
