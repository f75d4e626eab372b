// Micros.swift — the program's one unit of time: microseconds since the epoch, as every instant and length is kept.

/// Microseconds since 1970-01-01T00:00:00Z: every instant in the program is one of these.
public typealias Micros = Int64
