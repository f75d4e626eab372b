// ActivityWatchBucket.swift — what the ActivityWatch reader reads into: the documents it takes, a bucket (its key, metadata and events) and its events as compact columns.
import UsageCore

/// The ActivityWatch documents the reader takes.
public enum ActivityWatchDocument: Sendable {
    /// An export file: `{"buckets": {ID: {"id","type","hostname",…,"events":[…]}}}`.
    case export
    /// The server's `GET /api/0/buckets/`: `{ID: {"id","type","hostname",…}}`.
    case listing
    /// The server's `GET /api/0/buckets/ID/events`: `[event, …]`.
    case events
}

/// One bucket as read: its key in the export or listing, its metadata, and its events.
public struct ActivityWatchBucket: Sendable {
    /// The key it had in the `buckets` object (or listing).
    public var key: String
    public var id: String?
    public var type: String?
    public var hostname: String?
    /// When the bucket last changed, as the server's bucket list says (`last_updated`; not in
    /// exports): a bucket whose value is the same as at the last read has no new events.
    public var lastUpdated: String?
    /// Its events, when it had an `events` array.
    var events = ActivityWatchEvents()
    var hasEvents = false
    /// Strings of its events document that needed repair (a bucket read on its own, as the
    /// server sends it; an export's are counted for the whole document).
    var repaired = 0
    /// Where each event id sits in `events`, and the events without one (by what they hold):
    /// made by the first merge (`ActivityWatchRead.mergeEvents`), kept up to date by the next.
    var index: ActivityWatchEventIndex?

    /// The number of events read.
    public var eventCount: Int { events.count }

    init(key: String) {
        self.key = key
    }
}

/// A bucket's events as columns: what each one is (a span, or why it cannot be one), its app,
/// its site (an aw-watcher-web event's host name) and its id. 26 bytes an event and its id's bytes.
struct ActivityWatchEvents: Sendable {
    var starts: [Micros] = []
    var ends: [Micros] = []
    /// `Outcome` bits.
    var outcomes: [UInt8] = []
    /// App name ids in the reader's app table (null and absent names included: `(unknown)`).
    var apps: [Int32] = []
    /// Site ids in the reader's site table (`data.url`'s host name, `ActivityWatchWeb`); -1:
    /// no `url`, or one that names no web site.
    var sites: [Int32] = []
    var ids = InputOrderColumns()

    /// What an event is, as bits: the low bits a skip reason (0: a span), then flags.
    enum Outcome {
        static let span: UInt8 = 0
        static let missingTimestamp: UInt8 = 1
        static let badTimestamp: UInt8 = 2
        static let badDuration: UInt8 = 3
        static let negativeDuration: UInt8 = 4
        static let notAnObject: UInt8 = 5
        static let reasonMask: UInt8 = 0x0F
        /// `data.incognito` is `true` (a private window's tab: never a visit).
        static let incognito: UInt8 = 0x10
        /// `data.app` is there but not a string or null.
        /// The timestamp was read (`starts` holds it), whatever else is wrong.
        static let started: UInt8 = 0x20
        static let appWrongType: UInt8 = 0x40
        /// `data.status` is `"not-afk"`.
        static let notAFK: UInt8 = 0x80
    }

    var count: Int { outcomes.count }

    static func reason(_ outcome: UInt8) -> SkipReason? {
        switch outcome & Outcome.reasonMask {
        case Outcome.missingTimestamp: return .missingTimestamp
        case Outcome.badTimestamp: return .badTimestamp
        case Outcome.badDuration: return .badFieldType
        case Outcome.negativeDuration: return .endNotAfterStart
        case Outcome.notAnObject: return .notAnObject
        default: return nil
        }
    }
}

extension ActivityWatchEvents {
    mutating func append(start: Micros, end: Micros, outcome: UInt8, app: Int32, site: Int32 = -1, id: String?) {
        guard var id else { return append(start: start, end: end, outcome: outcome, app: app, site: site, idBytes: nil) }
        id.withUTF8 { append(start: start, end: end, outcome: outcome, app: app, site: site, idBytes: $0) }
    }

    /// Appends another reader's events, their app and site ids already made this reader's
    /// (`apps`, `sites`).
    mutating func append(contentsOf other: ActivityWatchEvents, apps otherApps: [Int32], sites otherSites: [Int32]) {
        starts += other.starts
        ends += other.ends
        outcomes += other.outcomes
        apps += otherApps
        sites += otherSites
        ids.append(contentsOf: other.ids)
    }

    mutating func append(start: Micros, end: Micros, outcome: UInt8, app: Int32, site: Int32 = -1, idBytes: UnsafeBufferPointer<UInt8>?) {
        starts.append(start)
        ends.append(end)
        outcomes.append(outcome)
        apps.append(app)
        sites.append(site)
        ids.append(idBytes)
    }
}
