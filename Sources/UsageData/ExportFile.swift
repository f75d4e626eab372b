// ExportFile.swift — writes what `export` made to the user's path: atomically, and never over an existing file without --force.
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
    public static func write(
        to path: String, force: Bool, produce: (_ sink: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(ExportError) {
        do {
            try AtomicFile.write(to: path, replace: force, mode: 0o666, createFolder: false, produce: produce)
        } catch {
            if error.code == EEXIST { throw .exists(path: path) }
            throw .failed(path: path, reason: error.reason)
        }
    }
}
