// RecorderValues.swift — what the desktop recorder hands the store (a session as it stands: closed, or open up to its last write) and what the store keeps of a running recorder (its device, PID and last write) for `status`.

/// A session the recorder saw: one app focused without a break while the person was active.
/// Written again, grown, at every heartbeat while it is open (the same start is the same session).
public struct RecordedSession: Equatable, Sendable {
    public let app: String
    public let category: String
    public let start: Micros
    public let end: Micros
    /// The UTC offsets in minutes at start and end (the zone it was recorded in).
    public let startOffset: Int
    public let endOffset: Int

    public init(app: String, category: String, start: Micros, end: Micros, startOffset: Int, endOffset: Int) {
        self.app = app
        self.category = category
        self.start = start
        self.end = end
        self.startOffset = startOffset
        self.endOffset = endOffset
    }
}

/// A recorder as the store knows it: which device it records, its process, its last write.
public struct RecorderMark: Equatable, Sendable {
    public let device: String
    public let pid: Int
    /// When it last wrote (µs since 1970, UTC).
    public let seen: Micros

    public init(device: String, pid: Int, seen: Micros) {
        self.device = device
        self.pid = pid
        self.seen = seen
    }
}

/// The source the recorder's sessions belong to (one per device, as every source).
public enum RecorderSource {
    public static let identity = "usage-shell record"
}
