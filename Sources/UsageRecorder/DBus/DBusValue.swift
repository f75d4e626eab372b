// DBusValue.swift — a D-Bus value as Swift holds it (every type of the wire format but Unix file descriptors) with its signature, and what a method or signal carried (DBusMessage) and an exported method answers (DBusReply); DBusConnection writes and reads them.
/// One D-Bus value.
public indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case variant(DBusValue)
    /// An array whose elements have the signature `element` (given, since an empty array has
    /// no element to tell it): `.array("s", [.string("a")])` is an `as`.
    case array(element: String, [DBusValue])
    /// An entry of a dictionary, only inside an array: `a{sv}` is `.array(element: "{sv}", [.dictEntry(.string(k), .variant(v))…])`.
    case dictEntry(DBusValue, DBusValue)
    case structure([DBusValue])

    /// Its type signature (`s`, `as`, `a{sv}`, `(ii)`…).
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// A dictionary (`a{KV}`) of `entries`.
    public static func dictionary(key: String, value: String, _ entries: [(DBusValue, DBusValue)]) -> DBusValue {
        .array(element: "{" + key + value + "}", entries.map { .dictEntry($0.0, $0.1) })
    }

    /// The value a variant holds (through nested variants); itself when it is no variant.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// A string, an object path or a signature's text.
    public var stringValue: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = unwrapped { return value }
        return nil
    }

    /// Any integer type's value (a uint64 above Int64.max: nil).
    public var integerValue: Int64? {
        switch unwrapped {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): Int64(exactly: v)
        default: nil
        }
    }

    public var doubleValue: Double? {
        if case .double(let value) = unwrapped { return value }
        return nil
    }

    /// An array's elements, or a structure's fields.
    public var elements: [DBusValue]? {
        switch unwrapped {
        case .array(_, let values), .structure(let values): values
        default: nil
        }
    }

    /// A dictionary's entries, in their order.
    public var entries: [(key: DBusValue, value: DBusValue)]? {
        guard case .array(let element, let values) = unwrapped, element.hasPrefix("{") else { return nil }
        return values.compactMap { entry in
            if case .dictEntry(let key, let value) = entry { return (key, value) }
            return nil
        }
    }

    /// In a dictionary with string keys (`a{sv}`), the value of `key` (a variant unwrapped).
    public subscript(key: String) -> DBusValue? {
        entries?.first { $0.key.stringValue == key }.map(\.value.unwrapped)
    }
}

/// A method call or a signal as it arrived.
public struct DBusMessage: Equatable, Sendable {
    /// The unique name of its sender (`:1.42`), nil when the bus did not say.
    public var sender: String?
    public var path: String?
    public var interface: String?
    public var member: String?
    /// Its body.
    public var values: [DBusValue]

    public init(sender: String?, path: String?, interface: String?, member: String?, values: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.values = values
    }
}

/// What an exported object answers a method call.
public enum DBusReply: Equatable, Sendable {
    /// A method return carrying these values.
    case values([DBusValue])
    /// An error reply: its D-Bus name (`org.freedesktop.DBus.Error.UnknownMethod`) and text.
    case error(name: String, message: String)
}
