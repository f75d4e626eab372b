// AtomicFile.swift — the files we own (history, limits): where they live (XDG), read when present, checked for being text, written whole or not at all (temporary file, fsync, rename), locked while changed, and set aside under a unique name when corrupt.
import Foundation

/// Why a file of ours could not be read, written or moved: the system's reason (`Permission denied`).
struct FileFailure: Error {
    let reason: String
    /// The system's error number (0 when the failure has none).
    var code: Int32 = 0

    static var current: FileFailure { FileFailure(reason: String(cString: strerror(errno)), code: errno) }
    init(reason: String, code: Int32 = 0) {
        self.reason = reason
        self.code = code
    }
    init(code: Int32) { self.init(reason: String(cString: strerror(code)), code: code) }
}

/// Which version of a file is at a path (device, inode, size, modification time): a file
/// edited or replaced gets another stamp. Lets the shell report a bad file once per version.
public struct FileStamp: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Int64

    /// The stamp of the file at `path`, or nil when nothing is there.
    public init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}

public enum AtomicFile {
    /// The system calls a write makes, replaceable so that tests can make one fail midway
    /// (as a full disk or a read-only folder would) and check that the old file is intact.
    /// Public (its namespace too, nothing else of it) for the tests' one failing fake in
    /// Tests/TestSupport, which two test targets share.
    public struct Steps: Sendable {
        /// `write(2)`: bytes written, or -1 with `errno` set.
        public var write: @Sendable (Int32, UnsafeRawPointer, Int) -> Int = { Glibc.write($0, $1, $2) }
        /// `rename(2)`: 0, or -1 with `errno` set.
        public var rename: @Sendable (String, String) -> Int32 = { Glibc.rename($0, $1) }
        /// `link(2)` (setting a corrupt file aside): 0, or -1 with `errno` set.
        public var link: @Sendable (String, String) -> Int32 = { Glibc.link($0, $1) }

        public init() {}

        static let system = Steps()
    }

    /// Whether a file (not a folder) stands where the folder of `path` should be: the file
    /// cannot exist, but neither can it be written.
    static func folderIsBlocked(_ path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        var info = stat()
        return !directory.isEmpty && stat(directory, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR
    }

    /// The file's bytes, or nil when it does not exist (a file where its folder should be is a
    /// failure, `Not a directory`: the file can neither be there nor be written).
    static func contentsIfPresent(of path: String) throws(FileFailure) -> [UInt8]? {
        do {
            return try FileRepository.contents(of: path)
        } catch .notFound {
            if folderIsBlocked(path) { throw FileFailure(code: ENOTDIR) }
            return nil
        } catch {
            throw FileFailure(reason: error.reason)
        }
    }

    /// What makes `bytes` not a text file we could have written, or nil when they are UTF-8
    /// text: a NUL byte, or bytes that are not UTF-8 (with the offset of the first).
    static func textProblem(_ bytes: [UInt8]) -> String? {
        if let nul = bytes.firstIndex(of: 0) { return "a NUL byte at offset \(nul): not a text file" }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return "bytes that are not UTF-8 at offset \(offset)"
            }
        }
    }

    /// `$VARIABLE/usage-shell/NAME` when the variable holds an absolute path (the XDG rule),
    /// else `~/FALLBACK/usage-shell/NAME`; nil without a home.
    static func xdgPath(_ name: String, variable: String, fallback: String, environment: [String: String]) -> String? {
        if let base = environment[variable], base.hasPrefix("/") { return base + "/usage-shell/" + name }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/" + fallback + "/usage-shell/" + name
    }

    /// Replaces the file at `path` with `bytes` atomically: a reader sees the old file or the new
    /// one, never a part, and a failure at any step leaves the old file as it was and no
    /// temporary file behind. The new file is flushed to disk (fsync) before it is renamed into
    /// place, and the folder after. Creates the file's folder and its parents unless
    /// `createFolder` is false. With `replace` false an existing file is kept and the write
    /// fails with `EEXIST` (the new file is linked into place, which never overwrites). `mode`
    /// is before the umask.
    static func write(
        _ bytes: [UInt8], to path: String, replace: Bool = true, mode: mode_t = 0o600, createFolder: Bool = true,
        steps: Steps = .system
    ) throws(FileFailure) {
        try write(to: path, replace: replace, mode: mode, createFolder: createFolder, steps: steps) { sink in
            bytes.withUnsafeBytes(sink)
        }
    }

    /// `write(_:to:…)` for contents made in pieces: `produce` hands each piece to the sink it is
    /// given, in order, and the file is the pieces back to back (the whole never in memory).
    /// After a failed write the sink takes nothing more, and the failure is thrown once
    /// `produce` returns.
    static func write(
        to path: String, replace: Bool = true, mode: mode_t = 0o600, createFolder: Bool = true, steps: Steps = .system,
        produce: (_ sink: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(FileFailure) {
        if createFolder { try ensureDirectory(of: path) }
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .current }
        var failure: FileFailure?
        var written = 0
        produce { piece in
            guard failure == nil, let base = piece.baseAddress else { return }
            var offset = 0
            while offset < piece.count {
                let n = steps.write(fd, base + offset, piece.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = .current
                    return
                }
                offset += n
            }
            // Start writing large contents to disk as they come (not waiting for it), so that
            // the fsync at the end has little left to do.
            if piece.count >= 1 << 16, let start = syncFileRange {
                _ = start(fd, Int64(written), Int64(piece.count), 2)  // SYNC_FILE_RANGE_WRITE
            }
            written += piece.count
        }
        if let failure {
            close(fd)
            unlink(temporary)
            throw failure
        }
        guard fsync(fd) == 0, close(fd) == 0 else {
            let failure = FileFailure.current
            unlink(temporary)
            throw failure
        }
        let placed = replace ? steps.rename(temporary, path) : link(temporary, path)
        let placeFailure = placed == 0 ? nil : FileFailure.current
        if !replace || placed != 0 { unlink(temporary) }
        if let placeFailure { throw placeFailure }
        syncFolder(of: path)
    }

    /// Linux's `sync_file_range` (not in Swift's Glibc module), when the C library has it.
    private static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }()

    /// Flushes the folder of `path`, so a rename in it survives a power cut (best effort).
    private static func syncFolder(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// Creates the folder of `path` and its parents (`mkdir -p`, mode 700).
    static func ensureDirectory(of path: String) throws(FileFailure) {
        let directory = (path as NSString).deletingLastPathComponent
        guard !directory.isEmpty else { return }
        var prefix = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { throw .current }
        }
        var info = stat()
        guard stat(directory, &info) == 0 else { throw .current }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw FileFailure(code: ENOTDIR) }
    }

    /// Takes the exclusive lock `PATH.lock` (created in the file's folder, which is created
    /// first), waiting for another run that holds it. Returns the descriptor for `unlock`.
    static func lock(_ path: String) throws(FileFailure) -> Int32 {
        try ensureDirectory(of: path)
        let fd = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .current }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let failure = FileFailure.current
                close(fd)
                throw failure
            }
        }
        return fd
    }

    static func unlock(_ fd: Int32) {
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// What became of a file that was to be set aside.
    enum SetAside: Equatable {
        /// Renamed to this path.
        case moved(to: String)
        /// It was no longer there (another run moved or replaced it first).
        case gone
        /// It could not be moved (a read-only folder): the reason; the file is where it was.
        case failed(reason: String)
    }

    /// Renames the file at `path` to the first free name of `PATH.corrupt`, `PATH.corrupt-2`, …
    /// (up to 100): never over an existing file, so nothing kept aside earlier is lost. Call it
    /// under the file's lock, so no other run of ours moves or replaces the file meanwhile.
    static func setAside(_ path: String, steps: Steps = .system) -> SetAside {
        for k in 1...100 {
            let candidate = path + (k == 1 ? ".corrupt" : ".corrupt-\(k)")
            // A hard link never replaces an existing name, unlike rename; where links are not
            // supported, rename to a name that is free now.
            if steps.link(path, candidate) == 0 {
                if unlink(path) == 0 { return .moved(to: candidate) }
                let failure = FileFailure.current
                unlink(candidate)
                return .failed(reason: failure.reason)
            }
            switch errno {
            case EEXIST: continue
            case ENOENT: return .gone
            case EPERM, EOPNOTSUPP, EMLINK:
                if access(candidate, F_OK) == 0 { continue }
                if steps.rename(path, candidate) == 0 { return .moved(to: candidate) }
                return errno == ENOENT ? .gone : .failed(reason: FileFailure.current.reason)
            default:
                return .failed(reason: FileFailure.current.reason)
            }
        }
        return .failed(reason: "\(path).corrupt to .corrupt-100 are all taken")
    }
}
