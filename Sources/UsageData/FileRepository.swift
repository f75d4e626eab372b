// FileRepository.swift — reads a file or standard input with POSIX calls, so every failure has a precise reason, and decodes it in whatever format it is.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import UsageCore
import UsageFormats

/// A sessions file on disk.
public struct FileRepository: SessionRepository {
    public let path: String
    /// How long a pipe or FIFO may stay silent before the load gives up, in seconds.
    public var timeout: Double
    /// The clock, zone and column names the readers are given.
    public var options: ReadOptions
    /// How the input is cut into segments (tests use tiny ones).
    public var chunking: Chunking
    public var name: String { path }

    public init(
        path: String, timeout: Double = StreamLimits.defaultTimeout, options: ReadOptions = ReadOptions(),
        chunking: Chunking = .standard
    ) {
        self.path = path
        self.timeout = timeout
        self.options = options
        self.chunking = chunking
    }

    public func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        let fd = try Self.open(path)
        defer { close(fd) }
        let input = try DescriptorSource(
            fd: fd, source: path, limits: StreamLimits(timeout: timeout), cancellation: cancellation, progress: progress)
        return try Self.decode(input, source: path, options: options, cancellation: cancellation, chunking: chunking)
    }

    public func loadByDevice(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> [DevicePart] {
        let fd = try Self.open(path)
        defer { close(fd) }
        let input = try DescriptorSource(
            fd: fd, source: path, limits: StreamLimits(timeout: timeout), cancellation: cancellation, progress: progress)
        return try Self.decodeByDevice(input, source: path, options: options, cancellation: cancellation, chunking: chunking)
    }

    /// Opens a file for reading. Non-blocking, so that opening a FIFO with no writer returns at
    /// once (reading then waits in `poll`, where the timeout and Ctrl-C are seen).
    static func open(_ path: String) throws(LoadError) -> Int32 {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw error(errno, source: path) }
        return fd
    }

    /// Reads and decodes an input in whatever format it is in (`SourceFormat.decode`).
    static func decode(
        _ input: DescriptorSource, source: String, options: ReadOptions = ReadOptions(), cancellation: CancellationToken,
        chunking: Chunking = .standard
    ) throws(LoadError) -> Dataset {
        do {
            return try SourceFormat.decode(
                ChunkReader(input, chunking: chunking), source: source, options: options, cancellation: cancellation,
                expectedRows: input.expectedRows)
        } catch {
            throw LoadError(error, source: source)
        }
    }

    /// Reads and decodes an input by device (`SourceFormat.decodeByDevice`).
    static func decodeByDevice(
        _ input: DescriptorSource, source: String, options: ReadOptions, cancellation: CancellationToken, chunking: Chunking = .standard
    ) throws(LoadError) -> [DevicePart] {
        do {
            return try SourceFormat.decodeByDevice(
                ChunkReader(input, chunking: chunking), source: source, options: options, cancellation: cancellation,
                expectedRows: input.expectedRows)
        } catch {
            throw LoadError(error, source: source)
        }
    }

    /// Reads a whole file (a script, say) with the same precise errors as a load.
    public static func contents(of path: String) throws(LoadError) -> [UInt8] {
        let fd = try open(path)
        defer { close(fd) }
        return try readInput(fd: fd, source: path, limits: StreamLimits(), cancellation: CancellationToken(), progress: { _ in })
    }

    /// Reads an open descriptor to its end (a file, a pipe, a FIFO, a device, standard input)
    /// into memory, with the limits of a load.
    static func readInput(
        fd: Int32, source: String, limits: StreamLimits, cancellation: CancellationToken,
        progress: @escaping @Sendable (Int) -> Void
    ) throws(LoadError) -> [UInt8] {
        let input = try DescriptorSource(fd: fd, source: source, limits: limits, cancellation: cancellation, progress: progress)
        let reader = ChunkReader(input)
        try reader.readAll()
        return Array(reader.lookahead)
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

extension SourceFormat {
    /// Decodes bytes in memory as a load does: a reader's failure is the load's error of `source`.
    public static func load(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, options: ReadOptions = ReadOptions(), cancellation: CancellationToken
    ) throws(LoadError) -> Dataset {
        do {
            return try decode(bytes, source: source, options: options, cancellation: cancellation)
        } catch {
            throw LoadError(error, source: source)
        }
    }
}

extension LoadError {
    /// A stream's failure as a load error of `source`.
    init(_ error: StreamError<LoadError>, source: String) {
        switch error {
        case .read(let e): self = e
        case .ingest(let e): self = LoadError(e, source: source)
        }
    }

    /// A reader's failure as a load error of `source`.
    init(_ error: IngestError, source: String) {
        if case .cancelled = error {
            self = .cancelled(source: source)
        } else {
            self = .invalid(source: source, error)
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
        let input = try DescriptorSource(
            fd: 0, source: name, limits: StreamLimits(timeout: timeout), cancellation: cancellation, progress: progress)
        return try FileRepository.decode(input, source: name, options: options, cancellation: cancellation)
    }

    public func loadByDevice(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> [DevicePart] {
        let input = try DescriptorSource(
            fd: 0, source: name, limits: StreamLimits(timeout: timeout), cancellation: cancellation, progress: progress)
        return try FileRepository.decodeByDevice(input, source: name, options: options, cancellation: cancellation)
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

    /// A stream timeout: `90`, `90s`, `2m` or `1h` (1 s to 24 h), in seconds; `1e3` and `+5` are not.
    public static func seconds(_ text: String) -> Double? {
        TimeAmount.seconds(text).flatMap { (1...86_400).contains($0) ? $0 : nil }
    }
}

/// An open descriptor read as a `ByteSource` (a file, a pipe, a FIFO, a device, standard input).
///
/// A regular file is read at full speed; anything else is a stream, which may stay silent for
/// at most `limits.timeout` seconds and bring at most `limits.maxBytes` bytes (so `/dev/zero` or
/// a FIFO nobody writes to ends with an error, not a hang). It is read, never `mmap`ed: a file
/// truncated while mapped would kill the process with `SIGBUS`; a regular file whose size or
/// modification time changed while it was read is an error (its bytes may be half old, half new).
struct DescriptorSource: ByteSource {
    let fd: Int32
    let source: String
    let limits: StreamLimits
    let cancellation: CancellationToken
    let progress: @Sendable (Int) -> Void
    let isStream: Bool
    /// A regular file's size and modification time when opened.
    private let opened: (size: Int, modified: timespec)?
    private(set) var received = 0
    private var lastData: ContinuousClock.Instant
    private let clock = ContinuousClock()

    init(
        fd: Int32, source: String, limits: StreamLimits, cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void
    ) throws(LoadError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileRepository.error(errno, source: source) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(source: source) }
        self.fd = fd
        self.source = source
        self.limits = limits
        self.cancellation = cancellation
        self.progress = progress
        isStream = (info.st_mode & S_IFMT) != S_IFREG
        opened = isStream ? nil : (Int(info.st_size), info.st_mtim)
        lastData = clock.now
    }

    /// Rows a file of this size probably holds (sessions JSON rows are 100–200 bytes), to
    /// reserve columns once; 0 for a stream.
    var expectedRows: Int { (opened?.size ?? 0) / 100 }

    mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(LoadError) -> Int {
        while true {
            if cancellation.isCancelled { throw .cancelled(source: source) }
            if isStream {
                // Waits for data in slices of 100 ms, to see cancellation and the timeout.
                var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&pending, 1, 100)
                if ready < 0, errno != EINTR { throw FileRepository.error(errno, source: source) }
                if ready <= 0 {
                    if clock.now - lastData >= .seconds(limits.timeout) {
                        throw .stalled(source: source, seconds: limits.timeout, received: received)
                    }
                    continue
                }
                if received >= limits.maxBytes { throw .tooLarge(source: source, limit: limits.maxBytes) }
            }
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw FileRepository.error(errno, source: source)
            }
            if n == 0 {
                try checkUnchanged()
                return 0
            }
            received += n
            lastData = clock.now
            progress(received)
            return n
        }
    }

    /// At the end of a regular file: it must still be the file that was opened.
    private func checkUnchanged() throws(LoadError) {
        guard let opened, opened.size > 0 else { return }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FileRepository.error(errno, source: source) }
        let sameTime = info.st_mtim.tv_sec == opened.modified.tv_sec && info.st_mtim.tv_nsec == opened.modified.tv_nsec
        if !sameTime || Int(info.st_size) != received || received != opened.size {
            throw .changedWhileRead(source: source)
        }
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
