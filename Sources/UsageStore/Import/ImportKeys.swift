// ImportKeys.swift — every session's identity key made at once, on every core, for the usual load whose identities are all distinct: the keys the import's general rule would give, found without a dictionary of identities or a set of keys.
import Dispatch
import UsageCore

/// The identity keys of a load's sessions (`IdentityHash`), when no two of its identities
/// repeat: then every session's key is its identity's first occurrence at the first probe,
/// which is what the general rule in `Store.importOne` gives too (it counts occurrences and
/// probes past keys it gave already, neither of which then happens). A load with a repeated
/// identity, or two identities whose keys meet (64-bit hashes), gets nil and takes the
/// general rule.
enum ImportKeys {
    /// How a device's sessions tell session `k` apart, whatever file it came in: its kind (0 its
    /// own id, 1 its app and start, 2 its start) and the identity's hash. `apps` are the store's
    /// ids of the load's apps. Neither the category nor the length is part of it: a session
    /// that grew, or was put in another category, is the same session changed.
    @inline(__always)
    static func identity(
        _ sessions: SessionColumns, _ k: Int, byStart: Bool, apps: UnsafeBufferPointer<Int64>
    ) -> (kind: Int64, hash: IdentityHash) {
        var hash = IdentityHash()
        let (start, _, app, _) = sessions.core(k)
        if byStart {
            hash.add(start)
            return (2, hash)
        }
        return sessions.withID(at: k) { id in
            if let id {
                hash.add(id)
                return (0, hash)
            }
            hash.add(apps[Int(app)])
            hash.add(start)
            return (1, hash)
        }
    }

    /// Every session's key, in the sessions' order; nil when two sessions' identities are the
    /// same or their keys meet below the kind's bits (see the type's note).
    static func distinct(_ dataset: Dataset, apps: [Int64]) -> [Int64]? {
        let sessions = dataset.sessions
        let count = sessions.count
        guard count > 0 else { return [] }
        let byStart = dataset.identity == .byStart
        let threads = count >= 1 << 14 ? 2 : 1
        // Each key, and its low 62 bits (the kind left out) to sort: equal identities, of any
        // kind, have equal low bits, so distinct low bits mean distinct identities and keys.
        var keys = [Int64](repeating: 0, count: count)
        var low = [Int64](repeating: 0, count: count)
        keys.withUnsafeMutableBufferPointer { keyBuffer in
            low.withUnsafeMutableBufferPointer { lowBuffer in
                apps.withUnsafeBufferPointer { appIDs in
                    let shared = Shared(keys: keyBuffer, low: lowBuffer, apps: appIDs)
                    DispatchQueue.concurrentPerform(iterations: threads) { part in
                        for k in (count * part / threads)..<(count * (part + 1) / threads) {
                            let (kind, hash) = identity(sessions, k, byStart: byStart, apps: shared.apps)
                            let key = hash.key(kind: kind, occurrence: 0, probe: 0)
                            shared.keys[k] = key
                            shared.low[k] = key & 0x3FFF_FFFF_FFFF_FFFF
                        }
                    }
                }
            }
        }
        low.sort()
        for k in 1..<count where low[k] == low[k - 1] { return nil }
        return keys
    }

    /// A copy's keys in the store it goes to: a key made from a session's app and start (kind 1)
    /// holds the id the other store gave the app's name, so it is made again with this one's
    /// (the n-th session of the same app and start its n-th occurrence); a key of an id or a
    /// start is the same in any store.
    static func rekeyed(_ keys: [Int64], _ dataset: Dataset, apps: [Int64]) -> [Int64] {
        var out = keys
        var occurrences: [UInt64: Int] = [:]
        let sessions = dataset.sessions
        for k in sessions.indices where UInt64(bitPattern: keys[k]) >> 62 == 1 {
            let (start, _, app, _) = sessions.core(k)
            var hash = IdentityHash()
            hash.add(apps[Int(app)])
            hash.add(start)
            let occurrence = occurrences[hash.value, default: 0]
            occurrences[hash.value] = occurrence + 1
            out[k] = hash.key(kind: 1, occurrence: occurrence, probe: 0)
        }
        return out
    }

    /// The buffers the threads of `concurrentPerform` write (each its own range) and read.
    private struct Shared: @unchecked Sendable {
        let keys: UnsafeMutableBufferPointer<Int64>
        let low: UnsafeMutableBufferPointer<Int64>
        let apps: UnsafeBufferPointer<Int64>
    }
}
