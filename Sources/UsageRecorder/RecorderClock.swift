// RecorderClock.swift — the recorder's three clocks: wall time for what it stores, the monotonic clock for how long it waits, and the boot clock's lead over the monotonic one (it grows only while the machine is suspended) to notice a suspend.
#if canImport(Glibc)
    import Glibc
#endif
import UsageCore

/// Readings of the system's clocks.
public enum RecorderClock {
    /// Now, µs since 1970 UTC (CLOCK_REALTIME).
    public static func wall() -> Micros { read(CLOCK_REALTIME) }
    /// µs on the monotonic clock (stops while suspended).
    public static func monotonic() -> Micros { read(CLOCK_MONOTONIC) }
    /// How long the machine has been suspended since boot, µs (CLOCK_BOOTTIME − CLOCK_MONOTONIC).
    public static func suspended() -> Micros { read(CLOCK_BOOTTIME) - read(CLOCK_MONOTONIC) }

    private static func read(_ clock: clockid_t) -> Micros {
        var t = timespec()
        clock_gettime(clock, &t)
        return Micros(t.tv_sec) * 1_000_000 + Micros(t.tv_nsec) / 1000
    }
}

/// Tells a suspend from the boot clock's lead: a jump of more than `threshold` between two
/// wakeups means the machine slept in between.
public struct SuspendDetector: Sendable {
    public static let threshold: Micros = 2_000_000
    private var lastLead: Micros

    public init(lead: Micros) { lastLead = lead }

    /// The time slept since the last reading, when it is a suspend; nil otherwise.
    public mutating func slept(lead: Micros) -> Micros? {
        defer { lastLead = lead }
        let grown = lead - lastLead
        return grown > Self.threshold ? grown : nil
    }
}
