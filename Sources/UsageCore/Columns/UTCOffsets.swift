// UTCOffsets.swift — the UTC offsets a session's timestamps were written with, kept so nothing of a timestamp is lost.

/// The UTC offsets a session's start and end were written with (`+01:00` is 60), when its
/// source wrote them in its text; kept so that nothing of a timestamp is lost.
public struct UTCOffsets: Sendable, Hashable {
    /// Minutes east of UTC, or `Int16.min` when unknown.
    public let startMinutes: Int16
    public let endMinutes: Int16

    public init(startMinutes: Int16, endMinutes: Int16) {
        self.startMinutes = startMinutes
        self.endMinutes = endMinutes
    }

    public static let unknown = UTCOffsets(startMinutes: .min, endMinutes: .min)

    /// The start's offset in minutes, or nil when the source did not say.
    public var start: Int? { startMinutes == .min ? nil : Int(startMinutes) }
    public var end: Int? { endMinutes == .min ? nil : Int(endMinutes) }

    package var packed: UInt32 { UInt32(UInt16(bitPattern: startMinutes)) << 16 | UInt32(UInt16(bitPattern: endMinutes)) }
    @usableFromInline package init(packed: UInt32) {
        self.init(startMinutes: Int16(bitPattern: UInt16(packed >> 16)), endMinutes: Int16(bitPattern: UInt16(packed & 0xFFFF)))
    }
}
