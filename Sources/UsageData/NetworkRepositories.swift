// NetworkRepositories.swift — the sources read over HTTP: a URL of any format, and an ActivityWatch server's REST API.
import Foundation
import UsageCore

/// A data file at an `http://` or `https://` URL, in any format `SourceFormat` knows.
public struct URLRepository: SessionRepository {
    public let url: String
    public var client = HTTPClient()
    public var name: String { url }

    public init(url: String) {
        self.url = url
    }

    public func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        let body = try client.get(url, source: url, cancellation: cancellation, progress: progress)
        return try body.withUnsafeBufferPointer { bytes throws(LoadError) in
            try SourceFormat.decode(bytes, source: url, cancellation: cancellation)
        }
    }
}

/// A running ActivityWatch server: `GET /api/0/buckets/`, then the events of every window and
/// AFK bucket (`GET /api/0/buckets/ID/events?limit=-1`, all of them), read by the same rules as
/// an export file (`ActivityWatchFormat`).
public struct ActivityWatchRepository: SessionRepository {
    public let host: String
    public let port: Int
    public var client = HTTPClient()
    public var name: String { SourceRef.activityWatch(host: host, port: port).description }

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `http://HOST:PORT/api/0` (an IPv6 host in brackets).
    var base: String {
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "http://\(bracketed):\(port)/api/0"
    }

    public func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        let format = "ActivityWatch server"
        let listing: Any
        do {
            listing = try json(base + "/buckets/", cancellation: cancellation, progress: progress)
        } catch .unreadable(let source, let reason) where reason.hasPrefix("could not connect") {
            throw .unreadable(source: source, reason: reason + " (is ActivityWatch running there?)")
        }
        guard let buckets = listing as? [String: Any] else {
            throw .invalid(source: name, .malformed(format: format, problem: "/api/0/buckets/ is not an object"))
        }
        var read: [ActivityWatchBucket] = []
        for (key, value) in buckets.sorted(by: { $0.key < $1.key }) {
            guard let meta = value as? [String: Any], let type = meta["type"] as? String,
                type == ActivityWatchFormat.windowType || type == ActivityWatchFormat.afkType
            else { continue }
            let id = meta["id"] as? String ?? key
            let path = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
            let events = try json(base + "/buckets/\(path)/events?limit=-1", cancellation: cancellation, progress: progress)
            guard let list = events as? [Any] else {
                throw .invalid(source: name, .malformed(format: format, problem: "the events of \"\(id)\" are not a list"))
            }
            read.append(ActivityWatchBucket(id: id, type: type, hostname: meta["hostname"] as? String ?? "", events: list))
        }
        do {
            return try ActivityWatchFormat.sessions(from: read, source: name, cancellation: cancellation)
        } catch .cancelled {
            throw .cancelled(source: name)
        } catch {
            throw .invalid(source: name, error)
        }
    }

    /// One API answer as JSON; errors name the server, not the endpoint's URL.
    private func json(
        _ url: String, cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void
    ) throws(LoadError) -> Any {
        let body = try client.get(url, source: name, cancellation: cancellation, progress: progress)
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) else {
            throw .invalid(source: name, .malformed(format: "ActivityWatch server", problem: "an answer is not JSON"))
        }
        return object
    }
}
