// IdentityHash.swift — the 64-bit key a session is stored under: a stable hash (FNV-1a over text, SplitMix64's mix over numbers) of what tells it apart among its device's sessions, so importing the same data again, from any file, finds it.

/// Stable across runs and machines (Swift's `Hasher` is seeded per process): the keys are stored.
struct IdentityHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    @inline(__always) mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        for b in bytes { add(b) }
        add(UInt8(0xFF))  // a separator no UTF-8 text holds
    }

    /// Mixes in a whole number at once (the finaliser of SplitMix64: every input bit moves
    /// every output bit), rather than eight bytes one by one.
    @inline(__always) mutating func add(_ number: Int64) {
        var z = value ^ UInt64(bitPattern: number) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        value = z ^ (z >> 31)
    }

    /// The key of a session whose identity this hash holds: its kind in the top two bits (0 an
    /// id, 1 its app and start, 2 its start), below them the hash with the occurrence of that identity
    /// in the source (repeated ids stay apart) and the probe (> 0 after a collision).
    func key(kind: Int64, occurrence: Int, probe: Int) -> Int64 {
        var h = self
        h.add(Int64(occurrence))
        h.add(Int64(probe))
        return (kind << 62) | Int64(bitPattern: h.value & 0x3FFF_FFFF_FFFF_FFFF)
    }
}
