// DBusConnectionTests.swift — the D-Bus layer (sd-bus through CDBus) against a real dbus-daemon of each test's own: the bus driver's methods, every value type sent to a Python (python3-dbus) echo service and back, error replies and timeouts, a call answered later, a signal sent by dbus-send and received, a name owned, an exported object called by dbus-send and answering values or an error.
import Foundation
import Testing
import UsageCore
import UsageRecorder

/// Echoes its arguments with their types (python-dbus keeps each value's D-Bus type, and a
/// variant's level), refuses on request, sleeps on request.
private let echoService = """
    import sys, time
    import dbus, dbus.service, dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    class Refused(dbus.DBusException):
        _dbus_error_name = "org.usage_shell.Test.Refused"
    class Echo(dbus.service.Object):
        @dbus.service.method("org.usage_shell.Test")
        def Echo(self, *args):
            return tuple(args)
        @dbus.service.method("org.usage_shell.Test", in_signature="s")
        def Refuse(self, why):
            raise Refused(why)
        @dbus.service.method("org.usage_shell.Test", in_signature="d")
        def Sleep(self, seconds):
            time.sleep(seconds)
    bus = dbus.bus.BusConnection(sys.argv[1])
    name = dbus.service.BusName(sys.argv[2], bus)
    Echo(bus, "/org/usage_shell/Test")
    GLib.MainLoop().run()
    """

private let driver = (destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus")

private func driverCall(_ c: DBusConnection, _ member: String, _ values: [DBusValue] = []) throws(RecorderError) -> [DBusValue] {
    try c.call(destination: driver.destination, path: driver.path, interface: driver.interface, member: member, values: values)
}

private func echo(_ c: DBusConnection, _ values: [DBusValue]) throws(RecorderError) -> [DBusValue] {
    try c.call(destination: "org.usage_shell.Echo", path: "/org/usage_shell/Test", interface: "org.usage_shell.Test", member: "Echo", values: values)
}

struct DBusConnectionTests {
    @Test func theBusDriverAnswersGetIdListNamesAndNameHasOwner() throws {
        let bus = try PrivateBus()
        let c = try DBusConnection.open(.address(bus.address))
        #expect(c.uniqueName.hasPrefix(":1."))
        let id = try driverCall(c, "GetId")
        #expect(id.count == 1 && id[0].stringValue?.count == 32)
        let names = try driverCall(c, "ListNames")
        guard case .array(element: "s", let listed)? = names.first else {
            Issue.record("ListNames answered \(names)")
            return
        }
        #expect(listed.contains(.string("org.freedesktop.DBus")) && listed.contains(.string(c.uniqueName)))
        #expect(try driverCall(c, "NameHasOwner", [.string(c.uniqueName)]) == [.bool(true)])
        #expect(try driverCall(c, "NameHasOwner", [.string("org.usage_shell.Nobody")]) == [.bool(false)])
        #expect(try driverCall(c, "GetNameOwner", [.string("org.freedesktop.DBus")]) == [.string("org.freedesktop.DBus")])
        // A property through the helper: the driver's Features (as).
        #expect(try c.getProperty(destination: driver.destination, path: driver.path, interface: driver.interface, name: "Features").signature == "as")
    }

    @Test func everyValueTypeGoesToAPythonServiceAndBack() throws {
        let bus = try PrivateBus()
        let c = try DBusConnection.open(.address(bus.address))
        try bus.python(echoService, owning: "org.usage_shell.Echo", connection: c)
        let values: [DBusValue] = [
            .byte(0xFE), .bool(true), .bool(false), .int16(-32768), .uint16(65535), .int32(-7), .uint32(4_000_000_000),
            .int64(Int64.min), .uint64(UInt64.max), .double(-2.5), .string("héllo \u{1F600} & <b>"), .string(""),
            .objectPath("/org/usage_shell/Test"), .signature("a{sv}"), .variant(.int32(42)), .variant(.variant(.string("deep"))),
            .array(element: "s", [.string("a"), .string("b")]), .array(element: "s", []),
            .array(element: "(si)", [.structure([.string("x"), .int32(1)]), .structure([.string("y"), .int32(2)])]),
            .dictionary(key: "s", value: "v", [(.string("urgency"), .variant(.byte(1))), (.string("n"), .variant(.array(element: "i", [.int32(3)])))]),
            .structure([.uint32(1), .array(element: "ay", [.array(element: "y", [.byte(0), .byte(255)])])]),
        ]
        let back = try echo(c, values)
        #expect(back == values)
        #expect(back.map(\.signature).joined() == "ybbnqiuxtdssogvvasasa(si)a{sv}(uaay)")
        let dictionary = values[19]
        #expect(dictionary["urgency"] == .byte(1) && dictionary["n"]?.elements == [.int32(3)] && dictionary["none"] == nil)
        #expect(values[15].unwrapped.stringValue == "deep" && values[8].integerValue == nil && values[7].integerValue == Int64.min)
    }

    @Test func anErrorReplyIsThrownWithItsNameAndText() throws {
        let bus = try PrivateBus()
        let c = try DBusConnection.open(.address(bus.address))
        try bus.python(echoService, owning: "org.usage_shell.Echo", connection: c)
        #expect(throws: RecorderError.dbusCall(
            method: "org.usage_shell.Test.Refuse on org.usage_shell.Echo", name: "org.usage_shell.Test.Refused", message: "not today\nor tomorrow")) {
            try c.call(
                destination: "org.usage_shell.Echo", path: "/org/usage_shell/Test", interface: "org.usage_shell.Test", member: "Refuse",
                values: [.string("not today\nor tomorrow")])
        }
        // Its description is one line.
        let error = RecorderError.dbusCall(method: "org.usage_shell.Test.Refuse on org.usage_shell.Echo", name: "org.usage_shell.Test.Refused", message: "not today\nor tomorrow")
        #expect(error.description == "D-Bus call org.usage_shell.Test.Refuse on org.usage_shell.Echo: org.usage_shell.Test.Refused: not today or tomorrow")
        do {
            _ = try driverCall(c, "GetNameOwner", [.string("org.usage_shell.Nobody")])
            Issue.record("GetNameOwner of a name nobody owns answered")
        } catch {
            #expect(error.description == "D-Bus call org.freedesktop.DBus.GetNameOwner on org.freedesktop.DBus: org.freedesktop.DBus.Error.NameHasNoOwner: Could not get owner of name 'org.usage_shell.Nobody': no such name")
        }
        // Values of the wrong signature are refused before anything is sent.
        #expect(throws: RecorderError.dbusCall(
            method: "org.usage_shell.Test.Echo on org.usage_shell.Echo", name: "", message: "its values cannot be sent (as): Invalid argument")) {
            try echo(c, [.array(element: "s", [.int32(1)])])
        }
    }

    @Test func aCallWithoutAReplyEndsAtItsTimeout() throws {
        let bus = try PrivateBus()
        let c = try DBusConnection.open(.address(bus.address))
        try bus.python(echoService, owning: "org.usage_shell.Echo", connection: c)
        let start = Date()
        #expect(throws: RecorderError.dbusCall(
            method: "org.usage_shell.Test.Sleep on org.usage_shell.Echo", name: "org.freedesktop.DBus.Error.Timeout", message: "Connection timed out")) {
            try c.call(
                destination: "org.usage_shell.Echo", path: "/org/usage_shell/Test", interface: "org.usage_shell.Test", member: "Sleep",
                values: [.double(2)], timeout: 300_000)
        }
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= 0.29 && waited < 1.5, "waited \(waited) s")
    }

    @Test func aCallAnsweredLaterGetsItsReplyInProcess() throws {
        let bus = try PrivateBus()
        let c = try DBusConnection.open(.address(bus.address))
        try bus.python(echoService, owning: "org.usage_shell.Echo", connection: c)
        var got: Result<[DBusValue], RecorderError>?
        try c.callLater(
            destination: "org.usage_shell.Echo", path: "/org/usage_shell/Test", interface: "org.usage_shell.Test", member: "Echo",
            values: [.string("later"), .uint32(7)]
        ) { got = $0 }
        #expect(got == nil)
        try pump(c, timeout: 10) { got != nil }
        #expect(got == .success([.string("later"), .uint32(7)]))
        // An error reply, and a timeout (the connection's deadline says when to process).
        var refused: Result<[DBusValue], RecorderError>?
        try c.callLater(
            destination: "org.usage_shell.Echo", path: "/org/usage_shell/Test", interface: "org.usage_shell.Test", member: "Refuse",
            values: [.string("no")]
        ) { refused = $0 }
        try pump(c, timeout: 10) { refused != nil }
        #expect(refused == .failure(.dbusCall(method: "org.usage_shell.Test.Refuse on org.usage_shell.Echo", name: "org.usage_shell.Test.Refused", message: "no")))
        var late: Result<[DBusValue], RecorderError>?
        try c.callLater(
            destination: "org.usage_shell.Echo", path: "/org/usage_shell/Test", interface: "org.usage_shell.Test", member: "Sleep",
            values: [.double(1)], timeout: 200_000
        ) { late = $0 }
        #expect(c.deadline != nil)
        try pump(c, timeout: 10) { late != nil }
        #expect(late == .failure(.dbusCall(method: "org.usage_shell.Test.Sleep on org.usage_shell.Echo", name: "org.freedesktop.DBus.Error.NoReply", message: "Method call timed out")))
    }

    @Test func aSignalSentByDbusSendIsReceived() throws {
        let bus = try PrivateBus()
        let c = try DBusConnection.open(.address(bus.address))
        var seen: [DBusMessage] = []
        try c.subscribe(rule: "type='signal',interface='org.usage_shell.Test',member='Changed'") { seen.append($0) }
        let other = try DBusConnection.open(.address(bus.address))
        // dbus-send's connection, another member (not matched), then the one matched.
        try bus.start(["dbus-send", "--session", "--type=signal", "/org/usage_shell/Test", "org.usage_shell.Test.Other", "string:no"])
        try bus.start(["dbus-send", "--session", "--type=signal", "/org/usage_shell/Test", "org.usage_shell.Test.Changed", "boolean:true", "string:yes"])
        try pump(c, timeout: 10) { !seen.isEmpty }
        #expect(seen.count == 1)
        #expect(seen.first?.path == "/org/usage_shell/Test" && seen.first?.interface == "org.usage_shell.Test" && seen.first?.member == "Changed")
        #expect(seen.first?.values == [.bool(true), .string("yes")])
        #expect(seen.first?.sender?.hasPrefix(":1.") == true && seen.first?.sender != c.uniqueName && seen.first?.sender != other.uniqueName)
        _ = other
    }

    @Test func anExportedObjectAnswersDbusSendWithValuesOrAnError() throws {
        let bus = try PrivateBus()
        let c = try DBusConnection.open(.address(bus.address))
        try c.requestName("org.usage_shell.Recorder")
        var calls: [DBusMessage] = []
        try c.export(path: "/org/usage_shell/Recorder") { call in
            calls.append(call)
            switch call.member {
            case "Add":
                guard call.values.count == 2, let a = call.values[0].integerValue, let b = call.values[1].integerValue else {
                    return .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "two integers")
                }
                return .values([.int64(a + b), .string("sum")])
            default:
                return .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no \(call.member ?? "")")
            }
        }
        let added = try bus.run(
            ["dbus-send", "--session", "--print-reply", "--dest=org.usage_shell.Recorder", "/org/usage_shell/Recorder", "org.usage_shell.Recorder.Add",
             "int32:2", "uint32:40"], pumping: c)
        #expect(added.status == 0)
        #expect(added.output.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) } == ["int64 42", "string \"sum\""])
        let refused = try bus.run(
            ["dbus-send", "--session", "--print-reply", "--dest=org.usage_shell.Recorder", "/org/usage_shell/Recorder", "org.usage_shell.Recorder.Nope"],
            pumping: c)
        #expect(refused.status == 1 && refused.output == "Error org.freedesktop.DBus.Error.UnknownMethod: no Nope\n")
        #expect(calls.map(\.member) == ["Add", "Nope"] && calls.first?.path == "/org/usage_shell/Recorder" && calls.first?.interface == "org.usage_shell.Recorder")
        // The name is ours: a second connection is refused it.
        let other = try DBusConnection.open(.address(bus.address))
        #expect(throws: RecorderError.dbus(what: "the name org.usage_shell.Recorder on the bus at \(bus.address)", reason: "another connection owns it")) {
            try other.requestName("org.usage_shell.Recorder")
        }
        #expect(try driverCall(other, "GetNameOwner", [.string("org.usage_shell.Recorder")]) == [.string(c.uniqueName)])
    }

    @Test func aCallToAnObjectNobodyExportedIsRefusedAtOnce() throws {
        // sd-bus answers it itself (UnknownObject) while processing, so its caller does not wait
        // for a reply that never comes (dbus-send's default: 25 s).
        let bus = try PrivateBus()
        let c = try DBusConnection.open(.address(bus.address))
        try c.requestName("org.usage_shell.Quiet")
        let start = Date()
        let refused = try bus.run(
            ["dbus-send", "--session", "--print-reply", "--reply-timeout=5000", "--dest=org.usage_shell.Quiet", "/nobody", "org.usage_shell.Test.Anything"],
            pumping: c)
        #expect(refused.status == 1 && refused.output == "Error org.freedesktop.DBus.Error.UnknownObject: Unknown object '/nobody'.\n", "\(refused)")
        #expect(Date().timeIntervalSince(start) < 2)
    }

    @Test func aBusThatIsNotThereIsSaidInOneLine() {
        #expect(throws: RecorderError.dbusConnect(bus: "the bus at unix:path=/nonexistent/bus", reason: "No such file or directory")) {
            try DBusConnection.open(.address("unix:path=/nonexistent/bus"))
        }
        #expect(RecorderError.dbusConnect(bus: "the system bus", reason: "No such file or directory").description
            == "cannot connect to the system bus: No such file or directory")
        #expect(RecorderError.dbusLibrary(reason: "libsystemd.so.0: cannot open shared object file: No such file or directory").description
            == "D-Bus needs libsystemd (Debian: apt-get install libsystemd0): libsystemd.so.0: cannot open shared object file: No such file or directory")
    }

    @Test func signaturesOfNestedValues() {
        #expect(DBusValue.dictionary(key: "s", value: "v", []).signature == "a{sv}")
        #expect(DBusValue.structure([.string("a"), .array(element: "(ii)", [])]).signature == "(sa(ii))")
        #expect(DBusValue.variant(.array(element: "y", [])).signature == "v")
        #expect(DBusValue.dictEntry(.uint32(1), .bool(true)).signature == "{ub}")
    }
}

/// What a call costs through the layer (scripts/bench/dbus compares it with C on sd-bus and on
/// libdbus-1, and with a process per call): 10,000 GetId round trips to the bus driver.
struct DBusCallCostTests {
    @Test func tenThousandGetIdRoundTripsEachCostLessThanAProcessWould() throws {
        let bus = try PrivateBus()
        let c = try DBusConnection.open(.address(bus.address))
        func cpu() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        let n = 10_000
        let wall0 = Date(), cpu0 = cpu()
        for _ in 0..<n {
            let id = try driverCall(c, "GetId")
            guard id.count == 1, id[0].stringValue?.count == 32 else {
                Issue.record("GetId answered \(id)")
                return
            }
        }
        let wall = Date().timeIntervalSince(wall0), used = cpu() - cpu0
        print("DBusCallCost: \(n) GetId round trips through DBusConnection: \(Int(wall * 1e6) / n) µs wall, \(Int(used * 1e6) / n) µs CPU each")
        // A process per call (notify-send, dbus-send) costs milliseconds of CPU each.
        #expect(used / Double(n) < 0.0005, "\(used / Double(n) * 1e6) µs of CPU a call")
    }
}
