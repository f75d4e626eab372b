// DBusConnection.swift — a connection to a D-Bus bus through sd-bus (CDBus, libsystemd loaded at run time): method calls waited for or answered later, signals by match rule, a name owned, objects exported; its descriptor goes on the recorder's poll set and `process()` runs what arrived. One thread, no locks.
#if canImport(Glibc)
    import Glibc
#endif
import CDBus
import UsageCore

/// Which bus.
public enum DBusBus: Equatable, Sendable {
    /// The user's session bus: DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus.
    case session
    /// The system bus: DBUS_SYSTEM_BUS_ADDRESS, else /run/dbus/system_bus_socket.
    case system
    /// The bus at an address as dbus-daemon prints it (`unix:path=…`).
    case address(String)

    /// In words, for messages.
    public var name: String {
        switch self {
        case .session: "the session bus"
        case .system: "the system bus"
        case .address(let address): "the bus at " + address
        }
    }
}

/// A signal subscription or an exported object; `DBusConnection.cancel` ends it.
public final class DBusSubscription {
    fileprivate var slot: OpaquePointer?
    fileprivate let callback: DBusCallback

    fileprivate init(slot: OpaquePointer?, callback: DBusCallback) {
        self.slot = slot
        self.callback = callback
    }
}

/// A closure sd-bus calls back (through `userdata`) with a message.
fileprivate final class DBusCallback {
    let run: (OpaquePointer) -> Int32
    init(_ run: @escaping (OpaquePointer) -> Int32) { self.run = run }
}

/// sd-bus's callbacks land here and run the closure their userdata holds.
private func trampoline(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<cdbus_error>?) -> Int32 {
    guard let message, let userdata else { return 0 }
    return Unmanaged<DBusCallback>.fromOpaque(userdata).takeUnretainedValue().run(message)
}

/// One connection to a bus.
public final class DBusConnection {
    /// How long a call waits for its reply unless told.
    public static let defaultTimeout: Micros = 5_000_000

    public let bus: DBusBus
    private var handle: OpaquePointer?
    /// This connection's unique name on the bus (`:1.42`).
    public let uniqueName: String
    private var subscriptions: [DBusSubscription] = []
    /// The closures of calls whose replies are still to come, by a number of their own.
    private var pendingReplies: [Int: DBusCallback] = [:]
    private var nextReply = 0

    private init(bus: DBusBus, handle: OpaquePointer, uniqueName: String) {
        self.bus = bus
        self.handle = handle
        self.uniqueName = uniqueName
    }

    /// Connects to `bus` (and says Hello: the unique name is known on return).
    public static func open(_ bus: DBusBus) throws(RecorderError) -> DBusConnection {
        guard cdbus_load() != 0 else { throw .dbusLibrary(reason: String(cString: cdbus_load_error())) }
        var handle: OpaquePointer?
        let r: Int32
        switch bus {
        case .session: r = cdbus_open_user(&handle)
        case .system: r = cdbus_open_system(&handle)
        case .address(let address): r = cdbus_open_address(address, &handle)
        }
        guard r >= 0, let handle else { throw .dbusConnect(bus: bus.name, reason: Self.reason(r)) }
        var name: UnsafePointer<CChar>?
        let named = cdbus_get_unique_name(handle, &name)
        guard named >= 0, let name else {
            cdbus_close(handle)
            throw .dbusConnect(bus: bus.name, reason: Self.reason(named))
        }
        return DBusConnection(bus: bus, handle: handle, uniqueName: String(cString: name))
    }

    deinit { close() }

    /// Ends every subscription and the connection (what is queued is sent first).
    public func close() {
        for subscription in subscriptions { cdbus_slot_unref(subscription.slot) }
        subscriptions = []
        cdbus_close(handle)
        handle = nil
        pendingReplies = [:]
    }

    /// The descriptor to wait on (POLLIN) beside others; call `process()` when it is readable,
    /// and before every wait: a call's wait may have read signals ahead that no descriptor shows.
    public var fd: Int32 { handle.map { cdbus_get_fd($0) } ?? -1 }

    /// The poll() events it wants now (POLLIN, and POLLOUT while it has more to write).
    public var events: Int16 { handle.map { Int16(truncatingIfNeeded: cdbus_get_events($0)) } ?? 0 }

    /// The monotonic instant (µs) by which `process()` must run again (a reply's timeout), or nil.
    public var deadline: Micros? {
        guard let handle else { return nil }
        var usec: UInt64 = 0
        return cdbus_get_timeout(handle, &usec) > 0 ? Micros(clamping: usec) : nil
    }

    /// Runs everything pending without blocking: reads what arrived, calls the subscriptions'
    /// and exports' closures and the replies' handlers, sends what they answered.
    public func process() throws(RecorderError) {
        guard let handle else { throw .dbus(what: bus.name, reason: "the connection is closed") }
        while true {
            let r = cdbus_process(handle, nil)
            if r < 0 { throw .dbus(what: bus.name, reason: "connection lost: " + Self.reason(r)) }
            if r == 0 { break }
        }
        if Int32(events) & Int32(POLLOUT) != 0 {
            let r = cdbus_flush(handle)
            if r < 0 { throw .dbus(what: bus.name, reason: "connection lost: " + Self.reason(r)) }
        }
    }

    /// Calls `interface.member` on `path` of `destination` and waits up to `timeout` for the
    /// reply; its values. An error reply, no reply, or values that do not fit are thrown.
    public func call(
        destination: String?, path: String, interface: String?, member: String, values: [DBusValue] = [],
        timeout: Micros = DBusConnection.defaultTimeout
    ) throws(RecorderError) -> [DBusValue] {
        let method = Self.method(destination, interface, member)
        let message = try newCall(destination: destination, path: path, interface: interface, member: member, values: values, method: method)
        defer { cdbus_message_unref(message) }
        var error = cdbus_error()
        var reply: OpaquePointer?
        let r = cdbus_call(handle, message, UInt64(max(1, timeout)), &error, &reply)
        defer {
            cdbus_error_free(&error)
            cdbus_message_unref(reply)
        }
        guard r >= 0, let reply else {
            if let name = error.name {
                throw .dbusCall(method: method, name: String(cString: name), message: error.message.map { String(cString: $0) } ?? "")
            }
            throw .dbusCall(method: method, name: "", message: Self.reason(r))
        }
        guard let body = Self.read(reply) else { throw .dbusCall(method: method, name: "", message: "its reply holds a type this client does not read") }
        return body
    }

    /// Calls as `call` does without waiting: `reply` gets the outcome in a later `process()`
    /// (a timeout's error too, once `deadline` has passed).
    public func callLater(
        destination: String?, path: String, interface: String?, member: String, values: [DBusValue] = [],
        timeout: Micros = DBusConnection.defaultTimeout, reply: @escaping (Result<[DBusValue], RecorderError>) -> Void
    ) throws(RecorderError) {
        let method = Self.method(destination, interface, member)
        let message = try newCall(destination: destination, path: path, interface: interface, member: member, values: values, method: method)
        defer { cdbus_message_unref(message) }
        let number = nextReply
        nextReply += 1
        let callback = DBusCallback { [unowned self] answer in
            pendingReplies[number] = nil
            if let error = cdbus_message_error(answer) {
                let name = error.pointee.name.map { String(cString: $0) } ?? ""
                reply(.failure(.dbusCall(method: method, name: name, message: error.pointee.message.map { String(cString: $0) } ?? "")))
            } else if let values = Self.read(answer) {
                reply(.success(values))
            } else {
                reply(.failure(.dbusCall(method: method, name: "", message: "its reply holds a type this client does not read")))
            }
            return 1
        }
        pendingReplies[number] = callback
        let r = cdbus_call_async(handle, nil, message, trampoline, Unmanaged.passUnretained(callback).toOpaque(), UInt64(max(1, timeout)))
        if r < 0 {
            pendingReplies[number] = nil
            throw .dbusCall(method: method, name: "", message: Self.reason(r))
        }
    }

    /// A property's value (org.freedesktop.DBus.Properties.Get, the variant unwrapped).
    public func getProperty(
        destination: String, path: String, interface: String, name: String, timeout: Micros = DBusConnection.defaultTimeout
    ) throws(RecorderError) -> DBusValue {
        let values = try call(
            destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
            values: [.string(interface), .string(name)], timeout: timeout)
        guard values.count == 1, case .variant(let value) = values[0] else {
            throw .dbusCall(method: "\(interface).\(name) on \(destination)", name: "", message: "Properties.Get answered \(values.map(\.signature).joined()), not a variant")
        }
        return value
    }

    /// Calls `handler` (in `process()`) with every message that matches `rule`, a D-Bus match
    /// rule (`type='signal',interface='…',member='…'`); the bus is told, so they are sent here.
    @discardableResult
    public func subscribe(rule: String, handler: @escaping (DBusMessage) -> Void) throws(RecorderError) -> DBusSubscription {
        let callback = DBusCallback { message in
            if let read = Self.message(message) { handler(read) }
            return 0
        }
        var slot: OpaquePointer?
        let r = cdbus_add_match(handle, &slot, rule, trampoline, Unmanaged.passUnretained(callback).toOpaque())
        guard r >= 0 else { throw .dbus(what: "the match rule \(rule) on \(bus.name)", reason: Self.reason(r)) }
        let subscription = DBusSubscription(slot: slot, callback: callback)
        subscriptions.append(subscription)
        return subscription
    }

    /// The unique name of the connection that owns `name` now (the bus driver's GetNameOwner),
    /// nil when none does.
    public func owner(of name: String) throws(RecorderError) -> String? {
        do {
            return try call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetNameOwner",
                values: [.string(name)]
            ).first?.stringValue
        } catch .dbusCall(_, let error, _) where error == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return nil
        }
    }

    /// Owns the well-known `name` (refused when another connection owns it).
    public func requestName(_ name: String) throws(RecorderError) {
        let r = cdbus_request_name(handle, name, 0)
        guard r >= 0 else {
            throw .dbus(what: "the name \(name) on \(bus.name)", reason: r == -EEXIST ? "another connection owns it" : Self.reason(r))
        }
    }

    /// Answers every method call to the object at `path` with what `handler` says (in `process()`).
    @discardableResult
    public func export(path: String, handler: @escaping (DBusMessage) -> DBusReply) throws(RecorderError) -> DBusSubscription {
        let callback = DBusCallback { [unowned self] message in
            guard let call = Self.message(message) else {
                answer(message, .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "a type usage-shell does not read"))
                return 1
            }
            answer(message, handler(call))
            return 1
        }
        var slot: OpaquePointer?
        let r = cdbus_add_object(handle, &slot, path, trampoline, Unmanaged.passUnretained(callback).toOpaque())
        guard r >= 0 else { throw .dbus(what: "the object \(path) on \(bus.name)", reason: Self.reason(r)) }
        let subscription = DBusSubscription(slot: slot, callback: callback)
        subscriptions.append(subscription)
        return subscription
    }

    /// Ends a subscription or an export.
    public func cancel(_ subscription: DBusSubscription) {
        cdbus_slot_unref(subscription.slot)
        subscription.slot = nil
        subscriptions.removeAll { $0 === subscription }
    }

    /// Sends `reply` to `call` (nothing when the caller asked for no reply).
    private func answer(_ call: OpaquePointer, _ reply: DBusReply) {
        var message: OpaquePointer?
        switch reply {
        case .values(let values):
            guard cdbus_new_method_return(call, &message) >= 0, let message else { return }
            if Self.append(values, to: message) < 0 {
                cdbus_message_unref(message)
                answer(call, .error(name: "org.freedesktop.DBus.Error.Failed", message: "usage-shell could not write its answer"))
                return
            }
        case .error(let name, let text):
            guard cdbus_new_method_error(call, &message, name, text) >= 0 else { return }
        }
        defer { cdbus_message_unref(message) }
        _ = cdbus_send(handle, message)
    }

    private func newCall(
        destination: String?, path: String, interface: String?, member: String, values: [DBusValue], method: String
    ) throws(RecorderError) -> OpaquePointer {
        guard let handle else { throw .dbusCall(method: method, name: "", message: "the connection is closed") }
        var message: OpaquePointer?
        let r = withOptionalCString(destination) { destination in
            withOptionalCString(interface) { interface in cdbus_new_method_call(handle, &message, destination, path, interface, member) }
        }
        guard r >= 0, let message else { throw .dbusCall(method: method, name: "", message: Self.reason(r)) }
        let appended = Self.append(values, to: message)
        guard appended >= 0 else {
            cdbus_message_unref(message)
            throw .dbusCall(method: method, name: "", message: "its values cannot be sent (\(values.map(\.signature).joined())): " + Self.reason(appended))
        }
        return message
    }

    // MARK: Messages

    /// A message's header fields and body; nil when its body holds a type not read here.
    private static func message(_ m: OpaquePointer) -> DBusMessage? {
        guard let values = read(m) else { return nil }
        func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
        return DBusMessage(
            sender: text(cdbus_message_sender(m)), path: text(cdbus_message_path(m)), interface: text(cdbus_message_interface(m)),
            member: text(cdbus_message_member(m)), values: values)
    }

    /// The values left in the current container (the body, at first).
    private static func read(_ m: OpaquePointer) -> [DBusValue]? {
        var out: [DBusValue] = []
        while true {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            let r = cdbus_peek_type(m, &type, &contents)
            if r < 0 { return nil }
            if r == 0 { return out }
            guard let value = readOne(m, UInt8(bitPattern: type), contents.map { String(cString: $0) } ?? "") else { return nil }
            out.append(value)
        }
    }

    private static func readOne(_ m: OpaquePointer, _ type: UInt8, _ contents: String) -> DBusValue? {
        let code = CChar(bitPattern: type)
        func basic<T: BitwiseCopyable>(_ zero: T) -> T? {
            var value = zero
            return cdbus_read_basic(m, code, &value) > 0 ? value : nil
        }
        switch type {
        case UInt8(ascii: "y"): return basic(UInt8(0)).map(DBusValue.byte)
        case UInt8(ascii: "b"): return basic(Int32(0)).map { .bool($0 != 0) }
        case UInt8(ascii: "n"): return basic(Int16(0)).map(DBusValue.int16)
        case UInt8(ascii: "q"): return basic(UInt16(0)).map(DBusValue.uint16)
        case UInt8(ascii: "i"): return basic(Int32(0)).map(DBusValue.int32)
        case UInt8(ascii: "u"): return basic(UInt32(0)).map(DBusValue.uint32)
        case UInt8(ascii: "x"): return basic(Int64(0)).map(DBusValue.int64)
        case UInt8(ascii: "t"): return basic(UInt64(0)).map(DBusValue.uint64)
        case UInt8(ascii: "d"): return basic(Double(0)).map(DBusValue.double)
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var text: UnsafePointer<CChar>?
            guard cdbus_read_basic(m, code, &text) > 0, let text else { return nil }
            let value = String(cString: text)
            return type == UInt8(ascii: "s") ? .string(value) : type == UInt8(ascii: "o") ? .objectPath(value) : .signature(value)
        case UInt8(ascii: "a"), UInt8(ascii: "v"), UInt8(ascii: "r"), UInt8(ascii: "e"):
            guard cdbus_enter_container(m, code, contents) > 0, let inner = read(m), cdbus_exit_container(m) >= 0 else { return nil }
            switch type {
            case UInt8(ascii: "a"): return .array(element: contents, inner)
            case UInt8(ascii: "v"): return inner.count == 1 ? .variant(inner[0]) : nil
            case UInt8(ascii: "r"): return .structure(inner)
            default: return inner.count == 2 ? .dictEntry(inner[0], inner[1]) : nil
            }
        default:
            // A Unix file descriptor (h): nothing here passes them.
            return nil
        }
    }

    /// Appends `values` to the message's body; sd-bus's first failure (negative), else 0.
    private static func append(_ values: [DBusValue], to m: OpaquePointer) -> Int32 {
        for value in values {
            let r = append(value, to: m)
            if r < 0 { return r }
        }
        return 0
    }

    private static func append(_ value: DBusValue, to m: OpaquePointer) -> Int32 {
        func basic<T: BitwiseCopyable>(_ type: Character, _ value: T) -> Int32 {
            var copy = value
            return cdbus_append_basic(m, CChar(type.asciiValue!), &copy)
        }
        func text(_ type: Character, _ value: String) -> Int32 {
            value.withCString { cdbus_append_basic(m, CChar(type.asciiValue!), $0) }
        }
        func container(_ type: Character, _ contents: String, _ inner: [DBusValue]) -> Int32 {
            var r = cdbus_open_container(m, CChar(type.asciiValue!), contents)
            if r < 0 { return r }
            r = append(inner, to: m)
            if r < 0 { return r }
            return cdbus_close_container(m)
        }
        switch value {
        case .byte(let v): return basic("y", v)
        case .bool(let v): return basic("b", Int32(v ? 1 : 0))
        case .int16(let v): return basic("n", v)
        case .uint16(let v): return basic("q", v)
        case .int32(let v): return basic("i", v)
        case .uint32(let v): return basic("u", v)
        case .int64(let v): return basic("x", v)
        case .uint64(let v): return basic("t", v)
        case .double(let v): return basic("d", v)
        case .string(let v): return text("s", v)
        case .objectPath(let v): return text("o", v)
        case .signature(let v): return text("g", v)
        case .variant(let inner): return container("v", inner.signature, [inner])
        case .array(let element, let inner):
            // Every element must have the array's signature (sd-bus checks only the first).
            if inner.contains(where: { $0.signature != element }) { return -EINVAL }
            return container("a", element, inner)
        case .dictEntry(let key, let value): return container("e", key.signature + value.signature, [key, value])
        case .structure(let fields): return container("r", fields.map(\.signature).joined(), fields)
        }
    }

    // MARK: Words

    private static func method(_ destination: String?, _ interface: String?, _ member: String) -> String {
        (interface.map { $0 + "." } ?? "") + member + (destination.map { " on " + $0 } ?? "")
    }

    /// A negative errno of sd-bus in words.
    static func reason(_ r: Int32) -> String {
        String(cString: strerror(r < 0 ? -r : r))
    }
}

private func withOptionalCString<R>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}
