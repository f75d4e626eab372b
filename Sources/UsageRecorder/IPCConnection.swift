// IPCConnection.swift — the i3/sway IPC protocol (i3wm.org/docs/ipc): a Unix socket, frames of "i3-ipc", length and type in native byte order, then JSON; queries answered in turn, events read as they come. Invalid UTF-8 (a hostile window class) is repaired before JSON reads it.
#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// One connection to an i3 or sway IPC socket.
final class IPCConnection {
    static let runCommand: UInt32 = 0
    static let subscribe: UInt32 = 2
    static let getTree: UInt32 = 4
    static let getVersion: UInt32 = 7
    static let eventWorkspace: UInt32 = 0x8000_0000
    static let eventWindow: UInt32 = 0x8000_0003
    static let eventShutdown: UInt32 = 0x8000_0006

    let path: String
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws(RecorderError) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .ipc(socket: path, reason: String(cString: strerror(errno))) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw .ipc(socket: path, reason: "the path is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (k, b) in bytes.enumerated() { raw[k] = b }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .ipc(socket: path, reason: reason)
        }
    }

    deinit { close(fd) }

    /// Sends a message.
    func send(_ type: UInt32, _ payload: String = "") throws(RecorderError) {
        var frame = Array("i3-ipc".utf8)
        let body = Array(payload.utf8)
        withUnsafeBytes(of: UInt32(body.count)) { frame.append(contentsOf: $0) }
        withUnsafeBytes(of: type) { frame.append(contentsOf: $0) }
        frame.append(contentsOf: body)
        var sent = 0
        while sent < frame.count {
            let n = frame[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw .ipc(socket: path, reason: "cannot write: \(String(cString: strerror(errno)))") }
            sent += n
        }
    }

    /// A query's answer (waits for it; events that come first are kept for `events`).
    func ask(_ type: UInt32, _ payload: String = "") throws(RecorderError) -> Any {
        try send(type, payload)
        while true {
            if let (kind, body) = takeFrame(), kind == type { return try json(body) }
            try fill(blocking: true)
        }
    }

    /// Reads what the socket holds (after poll said it is readable) and returns the whole
    /// frames received: (type, JSON).
    func events() throws(RecorderError) -> [(UInt32, Any)] {
        try fill(blocking: false)
        var out: [(UInt32, Any)] = []
        while let (kind, body) = takeFrame() { out.append((kind, try json(body))) }
        return out
    }

    private func fill(blocking: Bool) throws(RecorderError) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &chunk, chunk.count, blocking ? 0 : Int32(MSG_DONTWAIT))
            if n < 0, errno == EINTR { continue }
            if n < 0, !blocking, errno == EAGAIN || errno == EWOULDBLOCK { return }
            guard n > 0 else { throw .ipc(socket: path, reason: n == 0 ? "the window manager closed it" : String(cString: strerror(errno))) }
            buffer.append(contentsOf: chunk[0..<n])
            return
        }
    }

    private func takeFrame() -> (UInt32, [UInt8])? {
        guard buffer.count >= 14 else { return nil }
        let length = buffer[6..<10].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        let type = buffer[10..<14].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        guard buffer.count >= 14 + Int(length) else { return nil }
        let body = Array(buffer[14..<(14 + Int(length))])
        buffer.removeFirst(14 + Int(length))
        return (type, body)
    }

    /// JSON, its invalid UTF-8 repaired first (JSONSerialization refuses a whole message for one bad byte).
    private func json(_ body: [UInt8]) throws(RecorderError) -> Any {
        let repaired = Data(String(decoding: body, as: UTF8.self).utf8)
        do {
            return try JSONSerialization.jsonObject(with: repaired, options: [.fragmentsAllowed])
        } catch {
            throw .ipc(socket: path, reason: "a message that is not JSON")
        }
    }
}
