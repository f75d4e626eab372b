// FileRepository.swift — reads a file or standard input with POSIX calls, so every failure has a precise reason, and decodes it in whatever format it is.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import UsageCore

/// A sessions file on disk.
public struct FileRepository: SessionRepository {
    public let path: String
    public var name: String { path }

    public init(path: String) {
        self.path = path
    }

    public func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        try Self.decode(readInput(cancellation: cancellation, progress: progress), source: path, cancellation: cancellation)
    }

    /// Decodes a whole input in whatever format it is in. The sessions JSON, by far the largest
    /// inputs, is scanned and then the input freed before the rows are sorted and merged.
    static func decode(_ buffer: InputBuffer, source: String, cancellation: CancellationToken) throws(LoadError) -> Dataset {
        var input: InputBuffer? = buffer
        if cancellation.isCancelled { throw .cancelled(source: source) }
        // Everything but plain sessions JSON (other formats, and bytes no format can be) takes
        // the one general path.
        guard SourceFormat.detect(buffer.bytes) == .sessionsJSON, SourceFormat.unreadableEncoding(buffer.bytes) == nil else {
            return try withExtendedLifetime(buffer) { () throws(LoadError) in
                try SourceFormat.decode(buffer.bytes, source: source, cancellation: cancellation)
            }
        }
        do {
            // The buffer must outlive the scan of its bytes.
            let scanned = try withExtendedLifetime(input) { () throws(IngestError) in
                try SessionsJSON.scan(input!.bytes, cancellation: cancellation)
            }
            input = nil  // the input is no longer needed: free it before sorting and merging
            return scanned.dataset(source: source)
        } catch .cancelled {
            throw .cancelled(source: source)
        } catch {
            throw .invalid(source: source, error)
        }
    }

    /// Reads a whole file (a script, say) with the same precise errors as a load.
    public static func contents(of path: String) throws(LoadError) -> [UInt8] {
        try FileRepository(path: path).readAll(cancellation: CancellationToken(), progress: { _ in })
    }

    /// Reads the whole file into memory taken from the kernel directly, in huge pages where the
    /// system allows (a 165 MB file then costs 80 page faults, not 40,000); chunk by chunk, so
    /// a pipe or FIFO works and cancellation is honoured.
    func readInput(cancellation: CancellationToken, progress: @Sendable (Int) -> Void) throws(LoadError) -> InputBuffer {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error(errno, source: path) }
        defer { close(fd) }
        return try Self.readInput(fd: fd, source: path, cancellation: cancellation, progress: progress)
    }

    /// Reads an open descriptor to its end (a file, a pipe, standard input).
    static func readInput(
        fd: Int32, source: String, cancellation: CancellationToken, progress: @Sendable (Int) -> Void
    ) throws(LoadError) -> InputBuffer {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw error(errno, source: source) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(source: source) }
        // A regular file fits in one buffer of its size (+1 to see the end); a pipe grows it.
        var buffer = try InputBuffer(capacity: max(Int(info.st_size) + 1, 1 << 16), source: source)
        while true {
            if cancellation.isCancelled { throw .cancelled(source: source) }
            if buffer.count == buffer.capacity { buffer = try buffer.grown(source: source) }
            let n = read(fd, buffer.base + buffer.count, min(buffer.capacity - buffer.count, 4 << 20))
            if n < 0 {
                if errno == EINTR { continue }
                throw error(errno, source: source)
            }
            if n == 0 { return buffer }
            buffer.count += n
            progress(buffer.count)
        }
    }

    /// Reads the whole file (a script, a history file) into an array.
    func readAll(cancellation: CancellationToken, progress: @Sendable (Int) -> Void) throws(LoadError) -> [UInt8] {
        let input = try readInput(cancellation: cancellation, progress: progress)
        return withExtendedLifetime(input) { Array(input.bytes) }
    }

    private static func error(_ code: Int32, source path: String) -> LoadError {
        switch code {
        case ENOENT, ENOTDIR: return .notFound(source: path)
        case EACCES, EPERM: return .permissionDenied(source: path)
        case EISDIR: return .isDirectory(source: path)
        default: return .unreadable(source: path, reason: String(cString: strerror(code)))
        }
    }
}

/// The data piped to standard input (`usage-shell - -c show`), read once.
public struct StdinRepository: SessionRepository {
    public var name: String { SourceRef.stdinName }

    public init() {}

    public func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        let input = try FileRepository.readInput(fd: 0, source: name, cancellation: cancellation, progress: progress)
        return try FileRepository.decode(input, source: name, cancellation: cancellation)
    }
}

/// A file's bytes in anonymous memory mapped for them (freed when the buffer goes).
final class InputBuffer {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var count = 0

    /// Memory for `capacity` bytes, asking for huge pages (`MADV_HUGEPAGE`; only a hint).
    init(capacity: Int, source: String) throws(LoadError) {
        let mapped = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != MAP_FAILED else {
            throw .unreadable(source: source, reason: "out of memory for \(capacity) bytes")
        }
        _ = madvise(mapped, capacity, MADV_HUGEPAGE)
        self.base = mapped.assumingMemoryBound(to: UInt8.self)
        self.capacity = capacity
    }

    deinit {
        munmap(base, capacity)
    }

    /// The bytes read so far; valid only while the buffer lives (keep it with `withExtendedLifetime`).
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// A buffer twice as large holding the same bytes.
    func grown(source: String) throws(LoadError) -> InputBuffer {
        let bigger = try InputBuffer(capacity: capacity * 2, source: source)
        bigger.base.update(from: base, count: count)
        bigger.count = count
        return bigger
    }
}

/// The sample embedded in the binary, so the first run needs nothing.
///
/// The sample is written in wall-clock time (its timestamps say `Z`, its person lived in UTC):
/// loading places it in the selected zone, so that everyone sees the same week, Tuesday
/// 2026-02-17 to Monday 2026-02-23, with the same clock times.
public struct BundledSampleRepository: SessionRepository {
    public var name: String { SourceRef.sampleName }
    /// The zone whose wall clock the sample's times are read on.
    public let zone: Zone

    public init(zone: Zone) {
        self.zone = zone
    }

    public func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        var text = BundledSampleData.json
        let result = text.withUTF8 { buffer in
            Result { () throws(IngestError) in
                try SessionsJSON.decode(buffer, source: name, cancellation: cancellation)
            }
        }
        switch result {
        case .success(let dataset): return dataset.mappingTimes(zone.instant(showingWallTimeOfUTC:))
        case .failure(.cancelled): throw .cancelled(source: name)
        case .failure(let error): throw .invalid(source: name, error)
        }
    }

    /// The sample's bytes, as written to `Resources/sample-sessions.json` (plus its final newline).
    public static var bytes: [UInt8] { Array((BundledSampleData.json + "\n").utf8) }
}
