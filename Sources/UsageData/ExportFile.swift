// ExportFile.swift — writes what `export` and `save` made to the user's path: atomically, never over an existing file without --force, and through a symbolic link to the file it points at.
#if canImport(Glibc)
    import Glibc
#endif

/// Why an export could not be written.
public enum ExportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file is already there and `--force` was not given.
    case exists(path: String)
    /// The system refused (no such folder, permission denied…).
    case failed(path: String, reason: String)

    public var description: String {
        switch self {
        case .exists(let path): return "'\(path)' already exists: add --force to replace it"
        case .failed(let path, let reason): return "cannot write '\(path)': \(reason)"
        }
    }
}

/// The export's file on disk.
public enum ExportFile {
    /// Writes `bytes` to `path` whole or not at all (a temporary file beside it, then a rename,
    /// or a link that fails when a file is there). The folder must exist: a typo in it is an
    /// error, not a new folder.
    public static func write(_ bytes: [UInt8], to path: String, force: Bool) throws(ExportError) {
        try write(to: path, force: force) { sink in bytes.withUnsafeBytes(sink) }
    }

    /// `write(_:to:force:)` for contents made in pieces, each handed to the sink in order (an
    /// export of a million sessions is never whole in memory).
    /// With `force`, a symbolic link at `path` is kept and the file it points at is replaced
    /// (as `cp` or a shell's `>` write through a link), not the link by a file.
    public static func write(
        to path: String, force: Bool, produce: (_ sink: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(ExportError) {
        do {
            let target = force ? try linkTarget(of: path) : path
            try AtomicFile.write(to: target, replace: force, mode: 0o666, createFolder: false, produce: produce)
        } catch {
            if error.code == EEXIST { throw .exists(path: path) }
            throw .failed(path: path, reason: error.reason)
        }
    }

    /// The path a chain of symbolic links at `path` ends at (the links' own folders resolve a
    /// relative target; the end need not exist yet); `path` itself when it is no link. Too
    /// many links (a loop) fail as the system's `ELOOP`.
    static func linkTarget(of path: String) throws(FileFailure) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n >= 0 else { throw .current }
            let target = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") {
                current = target
            } else if let slash = current.lastIndex(of: "/") {
                current = String(current[...slash]) + target
            } else {
                current = target
            }
        }
        throw FileFailure(code: ELOOP)
    }
}
