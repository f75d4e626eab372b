// WebHost.swift — `usage-shell web-host`'s loop: the extension's messages read from standard input, each site written as it comes and again every 5 s, a reply for each message, and "no site" when standard input ends.
import Foundation
import UsageCore

#if canImport(Glibc)
    import Glibc
#endif

/// What the extension says: the host name in front in its browser, or nil for "no site".
public enum WebMessage {
    /// The site a message names: `.site(host)` (lowercased), `.none` for null, or nil when the
    /// message says no site or names something that is not a host name (a URL, a path, a title).
    public static func site(of message: [String: Any]) -> WebSite? {
        guard let value = message["site"] else { return nil }
        if value is NSNull { return WebSite.none }
        guard let text = value as? String, let host = hostName(text) else { return nil }
        return .site(host)
    }

    /// `text` as a host name (letters, digits, `-` and `.`, or an IPv6 address in brackets; at
    /// most 253 characters), lowercased, a final dot dropped; nil for anything else.
    public static func hostName(_ text: String) -> String? {
        var host = text.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty, host.utf8.count <= 253 else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") {
            let inner = host.dropFirst().dropLast()
            return !inner.isEmpty && inner.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) ? host : nil
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 && $0.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) })
        else { return nil }
        return host
    }
}

/// A site as the host keeps it between messages.
public enum WebSite: Equatable, Sendable {
    case none
    case site(String)

    public var host: String? {
        if case .site(let host) = self { return host }
        return nil
    }
}

/// The host's conversation with one browser, over two descriptors.
public final class WebHost {
    /// How often the site in front is written again while no message comes.
    public static let heartbeat: Micros = 5_000_000

    private let heartbeat: Micros
    private let input: Int32
    private let output: Int32
    private let now: () -> Micros
    private let write: (String?, Micros) throws -> Void
    private let warn: (String) -> Void
    private var current: WebSite?
    private var lastWrite: Micros = 0

    /// `heartbeat`: how often the site is written again (5 s but in tests). `write` is the store's `siteSeen` for this browser and device; `warn` says a line on stderr
    /// (a store that refuses a write does not end the conversation).
    public init(
        input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, heartbeat: Micros = WebHost.heartbeat, now: @escaping () -> Micros,
        write: @escaping (String?, Micros) throws -> Void, warn: @escaping (String) -> Void
    ) {
        self.heartbeat = heartbeat
        self.input = input
        self.output = output
        self.now = now
        self.write = write
        self.warn = warn
    }

    /// Reads until standard input ends (then writes "no site") or a message breaks the protocol
    /// (then writes "no site" and throws).
    public func run() throws(NativeMessagingError) {
        var reader = FrameReader()
        var buffer = [UInt8](repeating: 0, count: 4096)
        defer { if current != nil { store(.none) } }
        while true {
            let wait = current == nil ? -1 : Int32(max(0, min(heartbeat, lastWrite + heartbeat - now())) / 1000)
            var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, wait)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .io("standard input cannot be waited on: " + String(cString: strerror(errno)))
            }
            if ready == 0 {
                if let current { store(current) }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .io("standard input cannot be read: " + String(cString: strerror(errno)))
            }
            if count == 0 {
                try reader.finish()
                return
            }
            let (messages, broken) = reader.feed(buffer[0..<count])
            for message in messages {
                guard let site = WebMessage.site(of: message) else {
                    reply(["ok": false, "error": "the message names no host name"])
                    continue
                }
                current = site
                let error = store(site)
                reply(error.map { ["ok": false, "error": $0] } ?? ["ok": true])
            }
            if let broken { throw broken }
        }
    }

    /// Writes `site` now; the store's refusal, said on stderr and returned.
    @discardableResult
    private func store(_ site: WebSite) -> String? {
        let at = now()
        lastWrite = at
        do {
            try write(site.host, at)
            return nil
        } catch {
            let line = "the store refused the site: \(error)"
            warn(line)
            return line
        }
    }

    private func reply(_ object: [String: Any]) {
        let bytes = NativeMessaging.frame(json: object)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            // The browser has gone: standard input's end follows and ends the loop.
            if written <= 0 { return }
            offset += written
        }
    }
}
