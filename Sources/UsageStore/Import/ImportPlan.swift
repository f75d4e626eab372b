// ImportPlan.swift — what an import does with each session of a load, decided before anything is written: insert it under its key, update a stored one in place (a grown ActivityWatch event), or leave it as it is; by the general rule (repeated identities, 64-bit collisions) or its fast path for identities that are all distinct.
import Dispatch
import UsageCore

/// A stored session, as far as the import compares it.
struct StoredSession {
    let row: Int64
    let app: Int64
    let category: Int64
    let start: Int64
    let length: Int64
}

/// Per session of the load (in its order): what to do and the key it is stored under.
struct ImportPlan {
    static let insert: UInt8 = 0
    static let update: UInt8 = 1
    static let unchanged: UInt8 = 2

    var actions: [UInt8]
    var keys: [Int64]
    /// The stored row each updated session replaces.
    var updates: [Int: Int64] = [:]
    /// What each updated session's stored row held before (the kept totals take it away).
    var replaced: [Int: StoredSession] = [:]
    private(set) var added = 0
    private(set) var updated = 0
    private(set) var unchanged = 0

    init(count: Int) {
        actions = [UInt8](repeating: Self.unchanged, count: count)
        keys = [Int64](repeating: 0, count: count)
    }

    /// A copy's plan: each session under the key it was stored with elsewhere, inserted unless
    /// the store holds that key already.
    mutating func insertMissing(keys: [Int64], stored: [Int64: StoredSession]) {
        self.keys = keys
        for k in actions.indices where stored[keys[k]] == nil {
            actions[k] = Self.insert
            added += 1
        }
        unchanged = actions.count - added
    }

    /// Whether a stored session the key found is this session changed (an update) rather
    /// than another session (a collision of keys): for an id, the stored id is the same
    /// (`storedIDEquals` reads it); for an app and start, both are; for a start, the start is.
    private static func isUpdate(
        kind: Int64, stored: StoredSession, start: Int64, app: Int64, id: UnsafeBufferPointer<UInt8>?,
        storedIDEquals: (Int64, UnsafeBufferPointer<UInt8>) throws -> Bool
    ) throws -> Bool {
        switch kind {
        case 2: return stored.start == start
        case 1: return stored.start == start && stored.app == app
        case 0: return try id.map { try storedIDEquals(stored.row, $0) } ?? false
        default: return false
        }
    }

    /// The fast path: `keys` are distinct (`ImportKeys.distinct`), so each session's key is
    /// final unless it meets a stored session that is another one (a collision): then it
    /// returns false, having decided nothing that counts, and the general rule decides all.
    mutating func decideDistinct(
        _ dataset: Dataset, keys: [Int64], apps: [Int64], categories: [Int64], stored: [Int64: StoredSession],
        storedIDEquals: (Int64, UnsafeBufferPointer<UInt8>) throws -> Bool
    ) throws -> Bool {
        self.keys = keys
        let sessions = dataset.sessions
        guard !stored.isEmpty else {
            for k in actions.indices { actions[k] = Self.insert }
            added = actions.count
            return true
        }
        for k in sessions.indices {
            guard let old = stored[keys[k]] else {
                actions[k] = Self.insert
                added += 1
                continue
            }
            let (start, end, app, category) = sessions.core(k)
            if old.app == apps[Int(app)] && old.category == categories[Int(category)] && old.start == start && old.length == end - start {
                actions[k] = Self.unchanged
                unchanged += 1
                continue
            }
            let kind = (keys[k] >> 62) & 3  // the key's top two bits (an arithmetic shift keeps the sign)
            let isUpdate = try sessions.withID(at: k) { id in
                try Self.isUpdate(kind: kind, stored: old, start: start, app: apps[Int(app)], id: id, storedIDEquals: storedIDEquals)
            }
            guard isUpdate else { return false }
            actions[k] = Self.update
            updates[k] = old.row
            replaced[k] = old
            updated += 1
        }
        return true
    }

    /// The general rule, session by session: a repeated identity is another session (its
    /// occurrence counted into its key); a key that meets another session's, stored or given
    /// by this import, is probed further. A stored session is matched once (it leaves `stored`).
    mutating func decideEach(
        _ dataset: Dataset, apps: [Int64], categories: [Int64], stored: inout [Int64: StoredSession],
        storedIDEquals: (Int64, UnsafeBufferPointer<UInt8>) throws -> Bool
    ) throws {
        let sessions = dataset.sessions
        let byStart = dataset.identity == .byStart
        // Keys given new by this import, and how often each identity came so far.
        var given = Set<Int64>(minimumCapacity: max(0, sessions.count - stored.count))
        var occurrences: [UInt64: Int32] = [:]
        occurrences.reserveCapacity(sessions.count)
        try apps.withUnsafeBufferPointer { appIDs in
            try categories.withUnsafeBufferPointer { categoryIDs in
                for k in sessions.indices {
                    let (kind, base) = ImportKeys.identity(sessions, k, byStart: byStart, apps: appIDs)
                    let (start, end, app, category) = sessions.core(k)
                    let occurrence = occurrences[base.value, default: 0]
                    occurrences[base.value] = occurrence + 1
                    var probe = 0
                    while true {
                        let key = base.key(kind: kind, occurrence: Int(occurrence), probe: probe)
                        if let old = stored.removeValue(forKey: key) {
                            if old.app == appIDs[Int(app)] && old.category == categoryIDs[Int(category)] && old.start == start
                                && old.length == end - start
                            {
                                actions[k] = Self.unchanged
                                unchanged += 1
                            } else if try sessions.withID(at: k, { id in
                                try Self.isUpdate(kind: kind, stored: old, start: start, app: appIDs[Int(app)], id: id, storedIDEquals: storedIDEquals)
                            }) {
                                actions[k] = Self.update
                                updates[k] = old.row
                                replaced[k] = old
                                updated += 1
                            } else {
                                // Another session's key (a collision of 64-bit hashes): look further.
                                stored[key] = old
                                probe += 1
                                continue
                            }
                        } else if given.insert(key).inserted {
                            actions[k] = Self.insert
                            added += 1
                        } else {
                            probe += 1
                            continue
                        }
                        keys[k] = key
                        break
                    }
                }
            }
        }
    }
}

/// A value made on another thread while this one goes on; `value` waits for it.
final class Background<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var made: T?

    init(_ make: @escaping () -> T) {
        let work = UncheckedSendable { [self] in
            made = make()
            done.signal()
        }
        DispatchQueue.global(qos: .userInitiated).async { work.value() }
    }

    var value: T {
        done.wait()
        done.signal()  // a second read does not wait forever
        return made!
    }
}

/// A closure handed to another thread, which alone runs it.
private struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
