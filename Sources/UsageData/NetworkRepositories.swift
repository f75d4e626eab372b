// NetworkRepositories.swift — the sources read over HTTP: a URL of any format, and an ActivityWatch server's REST API.
import Foundation
import UsageCore
import UsageFormats

/// A data file at an `http://` or `https://` URL, in any format `SourceFormat` knows.
public struct URLRepository: SessionRepository {
    public let url: String
    public var client = HTTPClient()
    /// The clock, zone and column names the readers are given.
    public var options: ReadOptions
    /// The URL as shown: a password in it is `***`.
    public var name: String { SourceRef.redacted(url) }

    public init(url: String, options: ReadOptions = ReadOptions()) {
        self.url = url
        self.options = options
    }

    public func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        let body = try client.get(url, source: name, cancellation: cancellation, progress: progress)
        return try body.withUnsafeBufferPointer { bytes throws(LoadError) in
            try SourceFormat.load(bytes, source: name, options: options, cancellation: cancellation)
        }
    }

    public func loadByDevice(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> [DevicePart] {
        let body = try client.get(url, source: name, cancellation: cancellation, progress: progress)
        do {
            return try body.withUnsafeBufferPointer { bytes throws(IngestError) in
                try SourceFormat.decodeByDevice(bytes, source: name, options: options, cancellation: cancellation)
            }
        } catch {
            throw LoadError(error, source: name)
        }
    }
}

/// A running ActivityWatch server: `GET /api/0/buckets/`, then the events of every window,
/// AFK and aw-watcher-web bucket (`GET /api/0/buckets/ID/events?limit=-1`, all of them), read by the same rules as
/// an export file (`ActivityWatchRead`). `ActivityWatchFollow` keeps them to read only what
/// is new later (`watch`).
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
        var follow = ActivityWatchFollow()
        _ = try follow.update(from: self, cancellation: cancellation, progress: progress)
        return try follow.dataset(source: name, cancellation: cancellation)
    }

    /// Each host's buckets apart (a server that aw-sync fills holds other machines' too).
    public func loadByDevice(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> [DevicePart] {
        var follow = ActivityWatchFollow()
        _ = try follow.update(from: self, cancellation: cancellation, progress: progress)
        return try follow.datasetsByHost(source: name, cancellation: cancellation)
    }

    /// `GET /api/0/buckets/`: every bucket's metadata (id, type, host, `last_updated`), in
    /// the listing's order, without events.
    func bucketList(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> ActivityWatchRead {
        do {
            let body = try client.get(base + "/buckets/", source: name, cancellation: cancellation, progress: progress)
            return try decode(body) { bytes throws(IngestError) in
                try ActivityWatchRead.read(bytes, document: .listing, cancellation: cancellation)
            }
        } catch .unreadable(let source, let reason) where reason.hasPrefix("could not connect") {
            throw .unreadable(source: source, reason: reason + " (is ActivityWatch running there?)")
        } catch .httpStatus(let source, let status, let reason) {
            throw .unreadable(source: source, reason: "HTTP \(status) \(reason) for /api/0/buckets/ (is it an ActivityWatch server?)")
        }
    }

    /// A bucket's events, as the server sends them: all of them (`limit=-1`), or with `since`
    /// only those that end at or after it (`&start=…`, the server trimming any that began before).
    func events(bucket id: String, since: Micros?, cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void)
        throws(LoadError) -> [UInt8]
    {
        let path = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
        let start = since.map { "&start=" + ActivityWatchFollow.apiTime($0) } ?? ""
        return try client.get(base + "/buckets/\(path)/events?limit=-1" + start, source: name, cancellation: cancellation, progress: progress)
    }

    /// Reads one API answer with the byte-level reader; errors name the server, not the endpoint's URL.
    func decode<T>(_ body: [UInt8], _ read: (UnsafeBufferPointer<UInt8>) throws(IngestError) -> T) throws(LoadError) -> T {
        do {
            return try body.withUnsafeBufferPointer { bytes throws(IngestError) in try read(bytes) }
        } catch {
            throw LoadError(error, source: name)
        }
    }
}
