// DevicePart.swift — a source's sessions (and site visits) by the device they came from, where the source names one (an ActivityWatch bucket's host); what an import stores each session's device by.
import UsageCore

/// The sessions of one device a source holds. `device` is nil when the source does not say
/// (a sessions file, a CSV, a Timewarrior export): they are then the importing machine's.
public struct DevicePart: Sendable {
    public let device: String?
    public let dataset: Dataset
    /// The device's site visits (an ActivityWatch export's aw-watcher-web buckets).
    public let visits: [BrowserVisit]

    public init(device: String?, dataset: Dataset, visits: [BrowserVisit] = []) {
        self.device = device
        self.dataset = dataset
        self.visits = visits
    }
}

extension ActivityWatchRead {
    /// The sessions and site visits of each host's buckets, hosts in the order of their first
    /// bucket's key (a bucket without a host: nil). One host, as most exports have, gives
    /// `dataset` and `visits` whole. A web bucket whose host is missing, empty or `unknown` (as
    /// aw-watcher-web names it until told otherwise) is the host's whose window buckets the
    /// export holds, when they are one host's.
    public func datasetsByHost(source: String, cancellation: CancellationToken? = nil) throws(IngestError) -> [DevicePart] {
        let ordered = buckets.sorted { $0.key < $1.key }
        let windowHosts = Set(ordered.filter { $0.type == Self.windowType }.map { Self.host(of: $0) })
        let hostOf: (ActivityWatchBucket) -> String? = { bucket in
            let host = Self.host(of: bucket)
            guard ActivityWatchWeb.isWeb(bucket), host == nil || host == "unknown", windowHosts.count == 1 else { return host }
            return windowHosts.first ?? nil
        }
        let hosts = ordered.reduce(into: [String?]()) { hosts, bucket in
            let host = hostOf(bucket)
            if !hosts.contains(host) { hosts.append(host) }
        }
        guard hosts.count > 1 else {
            return [DevicePart(device: hosts.first ?? nil, dataset: try dataset(source: source, cancellation: cancellation), visits: visits)]
        }
        var parts: [DevicePart] = []
        for (k, host) in hosts.enumerated() {
            var one = self
            one.buckets = buckets.filter { hostOf($0) == host }
            // Strings repaired outside the buckets (the export's own keys) count once.
            if k > 0 { one.repairedStrings = 0 }
            parts.append(DevicePart(device: host, dataset: try one.dataset(source: source, cancellation: cancellation), visits: one.visits))
        }
        return parts
    }

    /// A bucket's host, nil when it has none (or an empty one).
    static func host(of bucket: ActivityWatchBucket) -> String? {
        bucket.hostname.flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension SourceFormat {
    /// Reads a stream as `decode` does (through `read`, the one dispatch over formats), its
    /// sessions by the device the source names for them.
    public static func decodeByDevice<Source: ByteSource>(
        _ reader: ChunkReader<Source>, source: String, options: ReadOptions = ReadOptions(),
        cancellation: CancellationToken? = nil, expectedRows: Int = 0
    ) throws(StreamError<Source.Failure>) -> [DevicePart] {
        try read(reader, source: source, options: options, cancellation: cancellation, expectedRows: expectedRows, byDevice: true)
    }

    /// Decodes bytes in memory by device (`decodeByDevice` of a stream).
    public static func decodeByDevice(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, options: ReadOptions = ReadOptions(),
        cancellation: CancellationToken? = nil
    ) throws(IngestError) -> [DevicePart] {
        do {
            return try decodeByDevice(ChunkReader(MemorySource(bytes)), source: source, options: options, cancellation: cancellation)
        } catch {
            switch error {
            case .ingest(let e): throw e
            }
        }
    }
}
