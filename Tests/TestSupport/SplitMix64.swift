// SplitMix64.swift — the seeded random generator every test target shares (every random test is reproducible from its seed).

/// SplitMix64: small, fast, and the same numbers on every platform for a seed.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public init(_ seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    public mutating func int(_ r: ClosedRange<Int>) -> Int { r.lowerBound + below(r.count) }
    public mutating func int64(_ r: ClosedRange<Int64>) -> Int64 { r.lowerBound + Int64(next() % UInt64(r.upperBound - r.lowerBound + 1)) }
    public mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / 9_007_199_254_740_992.0 < p }
    public mutating func pick<T>(_ a: [T]) -> T { a[below(a.count)] }
    public mutating func shuffle<T>(_ a: inout [T]) {
        guard a.count > 1 else { return }
        for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, below(i + 1)) }
    }
    /// Picks an index by weight.
    public mutating func weighted(_ weights: [Int]) -> Int {
        var r = below(weights.reduce(0, +))
        for (i, w) in weights.enumerated() {
            if r < w { return i }
            r -= w
        }
        return weights.count - 1
    }
}
