// Fuzz/Support/FuzzInputs.swift — what the reader-comparing fuzz targets do to an input: a chunking chosen from its bytes, and the two checks each makes (chunks as whole, reader as reference).

/// Segment and read sizes from 1 to 64 bytes and one to three workers, drawn from the input
/// (the same input always gets the same, so a find replays); one input in four is read in
/// 256-byte reads instead.
func fuzzChunking(for bytes: [UInt8]) -> Chunking {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
    let workers = 1 + Int((h >> 16) % 3)
    if h >> 60 < 4 { return Chunking(segmentBytes: 4096, readBytes: 256, workers: workers) }
    return Chunking(segmentBytes: 1 + Int(h % 64), readBytes: 1 + Int((h >> 8) % 64), workers: workers)
}

/// The two checks every reader's target makes of one input: read in `chunking`, the reader
/// gives exactly what it gives read whole; read whole, it gives what its reference gives
/// (`RefFacts`, strictly both ways). `reference` names the reference in the failure's message.
func fuzzCheckReader(
    _ bytes: [UInt8], chunking: Chunking, read: (Chunking) -> Result<Dataset, IngestError>, reference: String,
    _ expected: () -> RefFacts
) {
    let whole = read(.standard)
    let chunked = LoadFacts(read(chunking))
    if chunked != LoadFacts(whole) {
        fuzzFailure("read in chunks (\(chunking)) differs from read whole:\n  chunks: \(chunked)\n  whole: \(LoadFacts(whole))", input: bytes)
    }
    let reader = RefFacts(whole)
    let wanted = expected()
    if reader != wanted {
        fuzzFailure("the reader differs from the reference (\(reference)):\n  reader:    \(reader)\n  reference: \(wanted)", input: bytes)
    }
}
