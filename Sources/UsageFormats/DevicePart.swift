// DevicePart.swift — a source's sessions by the device they came from, where the source names one (an ActivityWatch bucket's host); what an import stores each session's device by.
import UsageCore

/// The sessions of one device a source holds. `device` is nil when the source does not say
/// (a sessions file, a CSV, a Timewarrior export): they are then the importing machine's.
public struct DevicePart: Sendable {
    public let device: String?
    public let dataset: Dataset

    public init(device: String?, dataset: Dataset) {
        self.device = device
        self.dataset = dataset
    }
}

extension ActivityWatchRead {
    /// The sessions of each host's buckets, hosts in the order of their first bucket's key
    /// (a bucket without a host: nil). One host, as most exports have, gives `dataset` whole.
    public func datasetsByHost(source: String, cancellation: CancellationToken? = nil) throws(IngestError) -> [DevicePart] {
        let hosts = buckets.sorted { $0.key < $1.key }.reduce(into: [String?]()) { hosts, bucket in
            let host = bucket.hostname.flatMap { $0.isEmpty ? nil : $0 }
            if !hosts.contains(host) { hosts.append(host) }
        }
        guard hosts.count > 1 else { return [DevicePart(device: hosts.first ?? nil, dataset: try dataset(source: source, cancellation: cancellation))] }
        var parts: [DevicePart] = []
        for (k, host) in hosts.enumerated() {
            var one = self
            one.buckets = buckets.filter { $0.hostname.flatMap { $0.isEmpty ? nil : $0 } == host }
            // Strings repaired outside the buckets (the export's own keys) count once.
            if k > 0 { one.repairedStrings = 0 }
            parts.append(DevicePart(device: host, dataset: try one.dataset(source: source, cancellation: cancellation)))
        }
        return parts
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
