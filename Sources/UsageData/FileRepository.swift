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
    /// How long a pipe or FIFO may stay silent before the load gives up, in seconds.
    public var timeout: Double
    /// The clock, zone and column names the readers are given.
    public var options: ReadOptions
    public var name: String { path }

    public init(path: String, timeout: Double = StreamLimits.defaultTimeout, options: ReadOptions = ReadOptions()) {
        self.path = path
        self.timeout = timeout
        self.options = options
    }

    public func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        try Self.decode(
            readInput(cancellation: cancellation, progress: progress), source: path, options: options, cancellation: cancellation)
    }

    /// Decodes a whole input in whatever format it is in. The sessions JSON, by far the largest
    /// inputs, is scanned and then the input freed before the rows are sorted and merged.
    static func decode(
        _ buffer: InputBuffer, source: String, options: ReadOptions = ReadOptions(), cancellation: CancellationToken
    ) throws(LoadError) -> Dataset {
        var input: InputBuffer? = buffer
        if cancellation.isCancelled { throw .cancelled(source: source) }
        // Everything but plain sessions JSON (other formats, and bytes no format can be) takes
        // the one general path; the format is detected once, here.
        let format = SourceFormat.detect(buffer.bytes, columns: options.columns)
        guard format == .sessionsJSON, SourceFormat.unreadableEncoding(buffer.bytes) == nil else {
            return try withExtendedLifetime(buffer) { () throws(LoadError) in
                try SourceFormat.decode(buffer.bytes, as: format, source: source, options: options, cancellation: cancellation)
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
        // Non-blocking, so that opening a FIFO with no writer returns at once (reading then
        // waits in `poll`, where the timeout and Ctrl-C are seen).
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Self.error(errno, source: path) }
        defer { close(fd) }
        return try Self.readInput(
            fd: fd, source: path, limits: StreamLimits(timeout: timeout), cancellation: cancellation, progress: progress)
    }

    /// Reads an open descriptor to its end (a file, a pipe, a FIFO, a device, standard input).
    /// A regular file is read at full speed; anything else is a stream, which may stay silent
    /// for at most `limits.timeout` seconds and bring at most `limits.maxBytes` bytes (so
    /// `/dev/zero` or a FIFO nobody writes to ends with an error, not a hang).
    static func readInput(
        fd: Int32, source: String, limits: StreamLimits, cancellation: CancellationToken,
        progress: @Sendable (Int) -> Void
    ) throws(LoadError) -> InputBuffer {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw error(errno, source: source) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(source: source) }
        let isStream = (info.st_mode & S_IFMT) != S_IFREG
        // A regular file fits in one buffer of its size (+1 to see the end); a stream grows it.
        var buffer = try InputBuffer(capacity: max(Int(info.st_size) + 1, 1 << 16), source: source)
        let clock = ContinuousClock()
        var lastData = clock.now
        while true {
            if cancellation.isCancelled { throw .cancelled(source: source) }
            if isStream {
                // Waits for data in slices of 100 ms, to see cancellation and the timeout.
                var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&pending, 1, 100)
                if ready < 0, errno != EINTR { throw error(errno, source: source) }
                if ready <= 0 {
                    if clock.now - lastData >= .seconds(limits.timeout) {
                        throw .stalled(source: source, seconds: limits.timeout, received: buffer.count)
                    }
                    continue
                }
                if buffer.count >= limits.maxBytes { throw .tooLarge(source: source, limit: limits.maxBytes) }
            }
            if buffer.count == buffer.capacity { buffer = try buffer.grown(source: source) }
            let n = read(fd, buffer.base + buffer.count, min(buffer.capacity - buffer.count, 4 << 20))
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw error(errno, source: source)
            }
            if n == 0 { return buffer }
            buffer.count += n
            lastData = clock.now
            progress(buffer.count)
        }
    }

    /// Reads the whole file (a script, a history file) into an array.
    func readAll(cancellation: CancellationToken, progress: @Sendable (Int) -> Void) throws(LoadError) -> [UInt8] {
        let input = try readInput(cancellation: cancellation, progress: progress)
        return withExtendedLifetime(input) { Array(input.bytes) }
    }

    /// The load's error for a failed system call on `path`.
    static func error(_ code: Int32, source path: String) -> LoadError {
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
    /// How long a pipe may stay silent before the load gives up, in seconds.
    public var timeout: Double
    /// The clock, zone and column names the readers are given.
    public var options: ReadOptions

    public init(timeout: Double = StreamLimits.defaultTimeout, options: ReadOptions = ReadOptions()) {
        self.timeout = timeout
        self.options = options
    }

    public func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        let input = try FileRepository.readInput(
            fd: 0, source: name, limits: StreamLimits(timeout: timeout), cancellation: cancellation, progress: progress)
        return try FileRepository.decode(input, source: name, options: options, cancellation: cancellation)
    }
}

/// What a load takes from a stream (a pipe, a FIFO, a device, an HTTP body): a file's size is
/// known, a stream's is not, and it may never end.
public struct StreamLimits: Sendable {
    /// How long a stream may stay silent (no byte arrives) before the load gives up, in seconds.
    public var timeout: Double
    /// The most bytes a stream may bring.
    public var maxBytes: Int

    /// 30 seconds without a byte: long enough for a slow producer, short enough to notice.
    public static let defaultTimeout: Double = 30
    /// The most a stream brings: 1 GiB, some five million sessions.
    public static let defaultMaxBytes = 1 << 30

    public init(timeout: Double = defaultTimeout, maxBytes: Int = defaultMaxBytes) {
        self.timeout = timeout
        self.maxBytes = maxBytes
    }

    /// `30 s`, `2.5 s`: a timeout as shown.
    public static func text(seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e9 ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// A stream timeout: `90`, `90s`, `2m` or `1h` (1 s to 24 h), in seconds.
    public static func seconds(_ text: String) -> Double? {
        var number = Substring(text.lowercased())
        var unit = 1.0
        if let last = number.last, let scale = ["s": 1.0, "m": 60, "h": 3600][String(last)] {
            number = number.dropLast()
            unit = scale
        }
        guard let value = Double(number), value.isFinite else { return nil }
        let seconds = value * unit
        return (1...86_400).contains(seconds) ? seconds : nil
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
