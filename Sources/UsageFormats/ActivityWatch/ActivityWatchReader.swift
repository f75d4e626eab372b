// ActivityWatchReader.swift — ActivityWatch JSON (an export, the server's bucket listing, a bucket's events) read byte by byte, chunk by chunk, into buckets of event columns: the reader's state machine over members, buckets and events.
import UsageCore
import Foundation

/// Reads ActivityWatch documents into buckets. Feed it the input's bytes chunk after chunk:
/// it consumes whole units (a member of the top object, of `buckets` or of a bucket, or one
/// event) and says where the first unit cut by the chunk's end begins, to be fed again with
/// more bytes. It validates the whole document as the sessions scanner does (the same errors
/// at the same places), keeps Foundation's rules for what it reads (the first of repeated keys
/// wins; an id is an integer's or a number's text), reads a duration as the nearest Double
/// (docs/DATA.md §9.3), and counts the strings anywhere that needed repair, as the Foundation-based
/// reader did.
struct ActivityWatchReader: Sendable {
    let document: ActivityWatchDocument
    private(set) var buckets: [ActivityWatchBucket] = []
    /// App names of the events (`(unknown)` for null or absent).
    private(set) var apps = NameTable(normalise: Normalise.appName)
    /// Host names of the events' `data.url` (the authority's bytes only are ever kept:
    /// `ActivityWatchWeb.authority`).
    private(set) var sites = ActivityWatchWeb.siteTable()
    /// The first place where the document is valid JSON but not of the shape it must have.
    private(set) var shapeProblem: String?
    private(set) var finished = false

    private enum Level { case start, top, buckets, bucket, events, end }
    private var level = Level.start
    /// No member or element yet at this level.
    private var first = true
    private var seenBuckets = false
    /// Fields of the current bucket read already (the first of repeated keys wins).
    private var seenFields: Set<String> = []
    /// Bucket keys seen (a repeated one is read and dropped).
    private var keys: Set<String> = []
    private var current: ActivityWatchBucket?
    private var dates = RFC3339.DateCache()
    private var events = 0
    /// A run of events (`eventRun()`): it stops before the events array's `]`.
    private var isRun = false

    init(
        document: ActivityWatchDocument, apps: NameTable = NameTable(normalise: Normalise.appName),
        sites: NameTable = ActivityWatchWeb.siteTable()
    ) {
        self.document = document
        self.apps = apps
        self.sites = sites
        if document == .events {
            current = ActivityWatchBucket(key: "")
            current?.hasEvents = true
        }
    }

    /// A reader of a run of events, as another thread reads a segment of a document from where
    /// an event probably begins: it reads events (the first without a `,` before it) until the
    /// events array's `]`, which it leaves unread, or until the bytes end. Its app names are
    /// normalised as the document reader's (`normalise`).
    static func eventRun(normalise: @escaping @Sendable (String?) -> String) -> ActivityWatchReader {
        var run = ActivityWatchReader(document: .events, apps: NameTable(normalise: normalise))
        run.level = .events
        run.first = true
        run.isRun = true
        return run
    }

    /// Whether this reader's next events would be a run read from after `rest`: it stands
    /// between two events of an events array, and `rest`, the unit its bytes' end cut, is the
    /// `,` between them and nothing but white space.
    func awaitsEvent(after rest: UnsafeBufferPointer<UInt8>) -> Bool {
        guard level == .events, !first, !finished, !isRun, current != nil else { return false }
        var commas = 0
        for c in rest {
            if c == UInt8(ascii: ",") {
                commas += 1
            } else if !ArraySegments.isSpace(c) {
                return false
            }
        }
        return commas == 1
    }

    /// Takes the events a run read from where this reader stands (see `awaitsEvent`), as if it
    /// had read them itself: their app and site names are interned here in the order they come. False,
    /// and nothing taken, when the run read no event (it stopped where an event begins, not
    /// between two) or the reader is not in a bucket's events.
    mutating func absorb(_ run: ActivityWatchReader) -> Bool {
        guard let read = run.current?.events, read.count > 0, current != nil, level == .events, !first else { return false }
        var map: [Int32] = []
        apps.extend(&map, for: read.apps, names: run.apps.names)
        var siteMap: [Int32] = []
        sites.extend(&siteMap, for: read.sites, names: run.sites.names)
        current!.events.append(
            contentsOf: read, apps: read.apps.map { $0 < 0 ? $0 : map[Int($0)] }, sites: read.sites.map { $0 < 0 ? $0 : siteMap[Int($0)] })
        events += read.count
        return true
    }

    /// The buckets read (an events document: one, keyed ""), in document order.
    var result: [ActivityWatchBucket] {
        if document == .events, let current { return [current] }
        return buckets
    }

    /// Reads the units `scanner`'s bytes hold whole. Returns where the first one cut by their
    /// end begins (their count when none is): the caller feeds the bytes from there again,
    /// with more after them. A syntax error throws.
    mutating func read(_ s: inout JSONScanner, cancellation: CancellationToken?) throws(ScanStop) -> Int {
        while !finished {
            let (start, newlines, repaired) = (s.offset, s.newlines, s.repairedStrings)
            do throws(ScanStop) {
                try unit(&s)
            } catch .needMore {
                (s.offset, s.newlines, s.repairedStrings) = (start, newlines, repaired)
                return start
            }
            events += 1
            if events & 0xFFF == 0, cancellation?.isCancelled == true { throw .cancelled }
        }
        return s.offset
    }

    // MARK: Units

    /// One unit. State changes only once the unit's bytes are all read (a unit cut by the
    /// chunk's end is read again whole), so every change comes after the last `try` that can
    /// ask for more bytes.
    private mutating func unit(_ s: inout JSONScanner) throws(ScanStop) {
        switch level {
        case .start: try documentStart(&s)
        case .top:
            guard let key = try memberName(&s, closer: UInt8(ascii: "}")) else { return close(to: .end) }
            if key == "buckets", !seenBuckets {
                let entered = try containerValue(&s, open: UInt8(ascii: "{"), path: ["buckets"])
                seenBuckets = true
                enter(entered ? .buckets : nil)
            } else {
                try s.skipValue()
                enter(nil)
            }
        case .buckets:
            guard let key = try memberName(&s, closer: UInt8(ascii: "}")) else {
                return close(to: document == .listing ? .end : .top)
            }
            let path = document == .listing ? [key] : ["buckets", key]
            let entered = try containerValue(&s, open: UInt8(ascii: "{"), path: path)
            let repeated = !keys.insert(key).inserted
            enter(entered ? .bucket : nil)
            if entered {
                current = ActivityWatchBucket(key: key)
                seenFields = repeated ? ["id", "type", "hostname", "last_updated", "events", "(repeated)"] : []
            }
        case .bucket:
            guard let key = try memberName(&s, closer: UInt8(ascii: "}")) else {
                if let bucket = current, !seenFields.contains("(repeated)") { buckets.append(bucket) }
                current = nil
                return close(to: .buckets)
            }
            try bucketField(&s, key)
        case .events:
            try event(&s)
        case .end:
            try s.expectEnd()
            guard s.isFinal else { throw ScanStop.needMore }
            // An export without a `buckets` key (after a `{` that began like one) is not an export.
            if document == .export, !seenBuckets { noteShape([]) }
            finished = true
        }
    }

    private mutating func close(to parent: Level) {
        level = parent
        first = false
    }

    /// After a member: into the container it opened (at its first member), or on to the next member.
    private mutating func enter(_ child: Level?) {
        if let child { level = child }
        first = child != nil
    }

    /// A byte order mark, white space, and the top-level value's opening.
    private mutating func documentStart(_ s: inout JSONScanner) throws(ScanStop) {
        if s.bytes.count < 3, !s.isFinal { throw .needMore }
        if s.bytes.count >= 3, s.bytes[0] == 0xEF, s.bytes[1] == 0xBB, s.bytes[2] == 0xBF { s.offset = 3 }
        s.skipWhitespace()
        if s.offset == s.bytes.count { throw s.isFinal ? .empty : .needMore }
        let open = document == .events ? UInt8(ascii: "[") : UInt8(ascii: "{")
        let entered = try containerValue(&s, open: open, path: [])
        // Not the container the document must be: its JSON is still read to the end.
        level = !entered ? .end : document == .export ? .top : document == .listing ? .buckets : .events
        first = true
    }

    /// At a member of an object: `,` unless it is the first, then `"key" :`, and returns the key;
    /// or the object's `}` (nil).
    private mutating func memberName(_ s: inout JSONScanner, closer: UInt8) throws(ScanStop) -> String? {
        s.skipWhitespace()
        if !first {
            guard s.offset < s.bytes.count else { throw s.error("unexpected end of input: expected ',' or '}'") }
            if s.bytes[s.offset] == closer {
                s.offset += 1
                return nil
            }
            guard s.bytes[s.offset] == UInt8(ascii: ",") else { throw s.error("expected ',' or '}' after an object member") }
            s.offset += 1
            s.skipWhitespace()
        } else if s.peek() == closer {
            s.offset += 1
            return nil
        }
        guard s.peek() == UInt8(ascii: "\"") else { throw s.error("expected a string key in the object") }
        let key = try s.scanString(slot: 5)
        s.countRepair(key)
        let text = String(decoding: key.bytes, as: UTF8.self)
        s.skipWhitespace()
        guard s.peek() == UInt8(ascii: ":") else { throw s.error("expected ':' after the key") }
        s.offset += 1
        return text
    }

    /// A value that must be an object or array (`open`): true when it is one (the scan stands
    /// after its opening); `null` or anything else is a shape problem at `path` (and is read past).
    private mutating func containerValue(_ s: inout JSONScanner, open: UInt8, path: [String]) throws(ScanStop) -> Bool {
        s.skipWhitespace()
        guard s.offset < s.bytes.count else { throw s.error("unexpected end of input: expected a value") }
        if s.bytes[s.offset] == open {
            s.offset += 1
            return true
        }
        try s.skipValue()
        noteShape(path)
        return false
    }

    private mutating func noteShape(_ path: [String]) {
        guard shapeProblem == nil else { return }
        shapeProblem = path.isEmpty
            ? "the top level is not what it should be"
            : path.map { "\"\($0)\"" }.joined(separator: " ") + " is missing or of the wrong type"
    }

    /// One member of a bucket: its id, type and hostname (strings or null), its events.
    private mutating func bucketField(_ s: inout JSONScanner, _ key: String) throws(ScanStop) {
        let path = (document == .listing ? [] : ["buckets"]) + [current?.key ?? "", key]
        switch key {
        case "id", "type", "hostname":
            let value = try Self.field(&s, slot: 0)
            enter(nil)
            guard seenFields.insert(key).inserted else { return }
            switch value.kind {
            case .string:
                let text = String(decoding: value.bytes, as: UTF8.self)
                if key == "id" { current?.id = text } else if key == "type" { current?.type = text } else { current?.hostname = text }
            case .null, .absent: break
            case .number, .other: noteShape(path)
            }
        case "last_updated":
            // Only the server's listing has it; a value that is no string is no date (and no error).
            let value = try Self.field(&s, slot: 0)
            enter(nil)
            guard seenFields.insert(key).inserted, value.kind == .string else { return }
            current?.lastUpdated = String(decoding: value.bytes, as: UTF8.self)
        case "events":
            guard !seenFields.contains(key) else {
                try s.skipValue()
                return enter(nil)
            }
            s.skipWhitespace()
            if s.peek() == UInt8(ascii: "n") {
                try s.scanLiteral("null")
                seenFields.insert(key)
                return enter(nil)
            }
            let entered = try containerValue(&s, open: UInt8(ascii: "["), path: path)
            seenFields.insert(key)
            enter(entered ? .events : nil)
            if entered { current?.hasEvents = true }
        default:
            try s.skipValue()
            enter(nil)
        }
    }

    /// A value of any kind, its strings counted for repair.
    private static func field(_ s: inout JSONScanner, slot: Int) throws(ScanStop) -> FieldValue {
        s.skipWhitespace()
        let value = try s.scanField(slot: slot)
        if value.kind == .string { s.countRepair(value) }
        return value
    }

    // MARK: Events

    /// The fields of an event that matter.
    private struct EventFields {
        var id = FieldValue()
        var timestamp = FieldValue()
        var duration = FieldValue()
        var app = FieldValue()
        var status = FieldValue()
        /// `data.url`: only its authority's bytes go on (to the site table), and not even
        /// those of an incognito tab's.
        var url = FieldValue()
        var incognito = false
    }

    /// `,` unless first, then one element of an events array; or the array's `]`.
    private mutating func event(_ s: inout JSONScanner) throws(ScanStop) {
        s.skipWhitespace()
        if !first {
            guard s.offset < s.bytes.count else { throw s.error("unexpected end of input: expected ',' or ']'") }
            if s.bytes[s.offset] == UInt8(ascii: "]") {
                if isRun { return finished = true }
                s.offset += 1
                return close(to: document == .events ? .end : .bucket)
            }
            guard s.bytes[s.offset] == UInt8(ascii: ",") else { throw s.error("expected ',' or ']' after an array element") }
            s.offset += 1
            s.skipWhitespace()
        } else if s.peek() == UInt8(ascii: "]") {
            if isRun { return finished = true }
            s.offset += 1
            return close(to: document == .events ? .end : .bucket)
        }
        guard s.peek() == UInt8(ascii: "{") else {
            try s.skipValue()
            first = false
            return record(nil)
        }
        var fields = EventFields()
        var seen: UInt8 = 0
        try JSONScanner.scanObject(&s) { (s, key) throws(ScanStop) in
            let bit: UInt8
            switch key.count {
            case 2 where Self.matches(key, "id"): bit = 1
            case 9 where Self.matches(key, "timestamp"): bit = 2
            case 8 where Self.matches(key, "duration"): bit = 4
            case 4 where Self.matches(key, "data"): bit = 8
            default: return try s.skipValue()
            }
            guard seen & bit == 0 else { return try s.skipValue() }
            seen |= bit
            switch bit {
            case 1: fields.id = try Self.field(&s, slot: 0)
            case 2: fields.timestamp = try Self.field(&s, slot: 1)
            case 4: fields.duration = try Self.field(&s, slot: 2)
            default:
                s.skipWhitespace()
                guard s.peek() == UInt8(ascii: "{") else { return _ = try Self.field(&s, slot: 3) }
                var seenData: UInt8 = 0
                try JSONScanner.scanObject(&s) { (s, key) throws(ScanStop) in
                    if key.count == 3, Self.matches(key, "app"), seenData & 1 == 0 {
                        seenData |= 1
                        fields.app = try Self.field(&s, slot: 3)
                    } else if key.count == 6, Self.matches(key, "status"), seenData & 2 == 0 {
                        seenData |= 2
                        fields.status = try Self.field(&s, slot: 4)
                    } else if key.count == 3, Self.matches(key, "url"), seenData & 4 == 0 {
                        seenData |= 4
                        fields.url = try Self.field(&s, slot: 6)
                    } else if key.count == 9, Self.matches(key, "incognito"), seenData & 8 == 0 {
                        seenData |= 8
                        s.skipWhitespace()
                        if s.peek() == UInt8(ascii: "t") {
                            try s.scanLiteral("true")
                            fields.incognito = true
                        } else {
                            try s.skipValue()
                        }
                    } else {
                        try s.skipValue()
                    }
                }
            }
        }
        first = false
        var site: Int32 = -1
        if fields.url.kind == .string, !fields.incognito, let authority = ActivityWatchWeb.authority(ofURL: fields.url.bytes) {
            site = sites.id(forBytes: authority)
        }
        record(fields, site: site)
    }

    private static func matches(_ k: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        let p = name.utf8Start
        for j in 0..<k.count where k[j] != p[j] { return false }
        return true
    }

    /// Stores an event (nil: an element that is not an object) in the current bucket, with its
    /// site's id (-1: none).
    private mutating func record(_ fields: EventFields?, site: Int32 = -1) {
        guard current != nil else { return }
        guard let f = fields else {
            current!.events.append(start: 0, end: 0, outcome: ActivityWatchEvents.Outcome.notAnObject, app: -1, site: -1, id: nil)
            return
        }
        var outcome = ActivityWatchEvents.Outcome.span
        var start: Micros = 0
        var end: Micros = 0
        let missing: (FieldValue) -> Bool = { $0.kind == .absent || $0.kind == .null }
        if missing(f.timestamp) || missing(f.duration) {
            outcome = ActivityWatchEvents.Outcome.missingTimestamp
            // Its start still tells a follow where the bucket's newest event begins.
            if f.timestamp.kind == .string, let t = RFC3339.parse(f.timestamp.bytes, cache: &dates) {
                start = t
                outcome |= ActivityWatchEvents.Outcome.started
            }
        } else if f.timestamp.kind != .string {
            outcome = ActivityWatchEvents.Outcome.badTimestamp
        } else if let t = RFC3339.parse(f.timestamp.bytes, cache: &dates) {
            start = t
            outcome |= ActivityWatchEvents.Outcome.started
            if f.duration.kind != .number {
                outcome = ActivityWatchEvents.Outcome.badDuration
            } else if let seconds = Self.double(f.duration.bytes), seconds.isFinite {
                if seconds < 0 {
                    outcome = ActivityWatchEvents.Outcome.negativeDuration
                } else if seconds >= 1e9 {
                    outcome = ActivityWatchEvents.Outcome.badDuration
                } else {
                    end = t + Micros((seconds * 1e6).rounded())
                }
            } else {
                outcome = ActivityWatchEvents.Outcome.badDuration
            }
        } else {
            outcome = ActivityWatchEvents.Outcome.badTimestamp
        }
        var app: Int32
        switch f.app.kind {
        case .string, .null, .absent: app = apps.id(for: f.app)
        case .number, .other:
            app = -1
            outcome |= ActivityWatchEvents.Outcome.appWrongType
        }
        if f.status.kind == .string, f.status.bytes.elementsEqual("not-afk".utf8) {
            outcome |= ActivityWatchEvents.Outcome.notAFK
        }
        if f.incognito { outcome |= ActivityWatchEvents.Outcome.incognito }
        if f.id.kind == .string || Self.isPlainInteger(f.id) {
            // A string's bytes, or an integer's digits: its text already (JSON has no `+1`, no `01`).
            current!.events.append(start: start, end: end, outcome: outcome, app: app, site: site, idBytes: f.id.bytes)
        } else {
            current!.events.append(start: start, end: end, outcome: outcome, app: app, site: site, id: Self.idText(f.id))
        }
    }
}
