// NativeMessaging.swift — the browsers' native-messaging framing: each message a 4-byte length in the machine's byte order, then that many bytes of UTF-8 JSON; frames cut from bytes as they arrive, and made for the reply.
import Foundation

/// What makes a conversation with the browser end: each said in one line on stderr.
public enum NativeMessagingError: Error, Equatable, CustomStringConvertible {
    /// A frame's length over what this host takes from a browser.
    case tooLong(UInt32)
    /// A frame that is not one JSON object.
    case notJSON
    /// Standard input ended inside a frame.
    case truncated(Int)
    /// Standard input or output failed.
    case io(String)

    public var description: String {
        switch self {
        case .tooLong(let length):
            "a message of \(length) bytes from the browser; this host takes at most \(NativeMessaging.incomingLimit)"
        case .notJSON: "a message from the browser that is not a JSON object"
        case .truncated(let count): "standard input ended \(count) byte\(count == 1 ? "" : "s") into a message"
        case .io(let what): what
        }
    }
}

public enum NativeMessaging {
    /// The most a browser takes from a host in one message (Chromium's and Firefox's limit: 1 MB).
    public static let outgoingLimit = 1024 * 1024
    /// The most this host takes from a browser in one message. Browsers may send up to 4 GB; the
    /// extension's messages are under 300 bytes, so anything past 64 KiB is not ours and is refused
    /// before it is read.
    public static let incomingLimit: UInt32 = 64 * 1024

    /// A message as the browser reads it: the length in the machine's byte order, then the bytes.
    public static func frame(_ payload: [UInt8]) -> [UInt8] {
        precondition(payload.count <= outgoingLimit, "a native-messaging reply over 1 MB")
        return withUnsafeBytes(of: UInt32(payload.count)) { Array($0) } + payload
    }

    /// A JSON object's bytes as a frame.
    public static func frame(json object: [String: Any]) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return frame(Array(data))
    }
}

/// Cuts the bytes read from standard input into messages, however the reads split them.
public struct FrameReader {
    private var pending: [UInt8] = []

    public init() {}

    /// Bytes read: the whole messages they complete, each a JSON object, in order, and what broke
    /// the protocol after them, if anything did (the messages before it still count).
    public mutating func feed(_ bytes: some Collection<UInt8>) -> (messages: [[String: Any]], error: NativeMessagingError?) {
        pending.append(contentsOf: bytes)
        var messages: [[String: Any]] = []
        while pending.count >= 4 {
            let length = pending.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            guard length <= NativeMessaging.incomingLimit else { return (messages, .tooLong(length)) }
            guard pending.count >= 4 + Int(length) else { break }
            let body = Data(pending[4..<(4 + Int(length))])
            pending.removeFirst(4 + Int(length))
            guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return (messages, .notJSON) }
            messages.append(object)
        }
        return (messages, nil)
    }

    /// Standard input ended: fine between messages, an error inside one.
    public func finish() throws(NativeMessagingError) {
        if !pending.isEmpty { throw .truncated(pending.count) }
    }
}
