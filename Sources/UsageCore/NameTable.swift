// NameTable.swift — names interned: the raw bytes of each spelling seen → the id of its normalised name, so a name is decoded and normalised once and later rows cost one hash lookup (ByteTable) and no String.
import Glibc

/// Interns names: the raw bytes seen → the id of their normalised form, so each raw spelling
/// is decoded and normalised once, and later rows cost one hash lookup and no `String`.
package struct NameTable: Sendable {
    package private(set) var names: [String] = []
    private var ids: [ExactName: Int32] = [:]
    private var raw = ByteTable()
    private var nullID: Int32?
    package let normalise: @Sendable (String?) -> String

    package init(normalise: @escaping @Sendable (String?) -> String) {
        self.normalise = normalise
    }

    /// The id of a name given as UTF-8 bytes (decoded, repairing invalid UTF-8, and normalised
    /// the first time these bytes are seen).
    package mutating func id(forBytes bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        if let id = raw.value(for: bytes) { return id }
        let id = intern(normalise(String(decoding: bytes, as: UTF8.self)))
        raw.insert(bytes, value: id)
        return id
    }

    /// The id of a name given as text (null included).
    package mutating func id(for text: String?) -> Int32 {
        guard var text else { return idForNull() }
        return text.withUTF8 { id(forBytes: $0) }
    }

    /// The id of a null or absent name's normalised form.
    package mutating func idForNull() -> Int32 {
        if let nullID { return nullID }
        let id = intern(normalise(nil))
        nullID = id
        return id
    }

    /// Extends `map` (another table's ids → ours, -1: not seen yet) to every id `ids` use
    /// (negative ids: none), interning the names of `names` not seen before in the order their
    /// ids come: what another table's rows, taken after these, need.
    package mutating func extend(_ map: inout [Int32], for ids: [Int32], names: [String]) {
        if map.count < names.count { map += [Int32](repeating: -1, count: names.count - map.count) }
        map.withUnsafeMutableBufferPointer { map in
            for id in ids where id >= 0 && map[Int(id)] < 0 { map[Int(id)] = intern(names[Int(id)]) }
        }
    }

    /// The id of an already normalised name.
    package mutating func intern(_ name: String) -> Int32 {
        if let id = ids[ExactName(name)] { return id }
        let id = Int32(names.count)
        names.append(name)
        ids[ExactName(name)] = id
        return id
    }
}

/// An open-addressing hash table from byte strings to ids (names are few and short).
struct ByteTable: Sendable {
    private var arena: [UInt8] = []
    private var entries: [(offset: Int32, count: Int32, hash: UInt32, value: Int32)] = []
    private var slots = [Int32](repeating: -1, count: 64)

    func value(for key: UnsafeBufferPointer<UInt8>) -> Int32? {
        let hash = Self.hash(key)
        var slot = Int(hash) & (slots.count - 1)
        while true {
            let e = slots[slot]
            if e < 0 { return nil }
            let entry = entries[Int(e)]
            if entry.hash == hash, Int(entry.count) == key.count, equal(entry.offset, key) { return entry.value }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    mutating func insert(_ key: UnsafeBufferPointer<UInt8>, value: Int32) {
        if (entries.count + 1) * 2 > slots.count { grow() }
        let hash = Self.hash(key)
        entries.append((Int32(arena.count), Int32(key.count), hash, value))
        arena.append(contentsOf: key)
        place(Int32(entries.count - 1), hash: hash)
    }

    private func equal(_ offset: Int32, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let keyBase = key.baseAddress else { return true }
        return arena.withUnsafeBufferPointer { a in memcmp(a.baseAddress! + Int(offset), keyBase, key.count) == 0 }
    }

    private mutating func place(_ entry: Int32, hash: UInt32) {
        var slot = Int(hash) & (slots.count - 1)
        while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = entry
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        for k in entries.indices { place(Int32(k), hash: entries[k].hash) }
    }

    /// A multiply-mix hash over 8 bytes a step (names are short: one or two steps).
    @inline(__always) static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        guard let base = key.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var h = UInt64(key.count) &* 0x9E37_79B9_7F4A_7C15
        var i = 0
        while i + 8 <= key.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 29
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < key.count {
            tail |= UInt64(base[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }
}

