// ScratchBuffers.swift — the growable byte buffers the scanner unescapes strings into, one per field, reused row after row.

/// Growable byte buffers the scanner unescapes strings into, one per field so that a row's
/// fields stay valid together until the next row.
final class ScratchBuffers {
    private var storage: [UnsafeMutablePointer<UInt8>]
    private var counts: [Int]
    private var capacities: [Int]

    init(count: Int) {
        storage = (0..<count).map { _ in UnsafeMutablePointer<UInt8>.allocate(capacity: 256) }
        counts = Array(repeating: 0, count: count)
        capacities = Array(repeating: 256, count: count)
    }

    deinit {
        for p in storage { p.deallocate() }
    }

    func bytes(_ slot: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage[slot], count: counts[slot])
    }

    func reset(_ slot: Int, with bytes: UnsafeBufferPointer<UInt8>) {
        counts[slot] = 0
        for byte in bytes { append(slot, byte) }
    }

    @inline(__always) func append(_ slot: Int, _ byte: UInt8) {
        if counts[slot] == capacities[slot] { grow(slot) }
        storage[slot][counts[slot]] = byte
        counts[slot] += 1
    }

    func append(_ slot: Int, scalar: UInt32) {
        let s = UnicodeScalar(scalar) ?? "\u{FFFD}"
        UTF8.encode(s) { append(slot, $0) }
    }

    private func grow(_ slot: Int) {
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacities[slot] * 2)
        bigger.update(from: storage[slot], count: counts[slot])
        storage[slot].deallocate()
        storage[slot] = bigger
        capacities[slot] *= 2
    }
}
