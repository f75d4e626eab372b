// ReadOptions.swift — what a reader is given besides the bytes: the load's clock, the zone for times without an offset, the user's CSV column names.
import UsageCore

/// What readers need beyond a source's bytes. Readers never ask the system: the clock and
/// the zone are given here, so every reader can be tested with any of them.
public struct ReadOptions: Sendable, Equatable {
    /// The load's clock: a Timewarrior interval still running (no end) counts up to it. Without
    /// one (nil) such an interval cannot be counted and is skipped as `missing_timestamp`.
    public var now: Micros?
    /// The zone a CSV's times without a UTC offset are read in (`--data-tz`, else the selected
    /// zone). Without one (nil) they are skipped as `bad_timestamp`.
    public var localZone: Zone?
    /// Which CSV column holds which field, for headers whose names do not say (`--columns`).
    public var columns: ColumnMapping

    public init(now: Micros? = nil, localZone: Zone? = nil, columns: ColumnMapping = ColumnMapping()) {
        self.now = now
        self.localZone = localZone
        self.columns = columns
    }
}
