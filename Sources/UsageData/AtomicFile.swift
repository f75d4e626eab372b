// AtomicFile.swift — the files we own (history, limits) written whole or not at all: a temporary file, fsync, rename; folders made as needed.
import Foundation

/// Why a file of ours could not be written: the system's reason (`Permission denied`).
struct FileFailure: Error {
    let reason: String

    static var current: FileFailure { FileFailure(reason: String(cString: strerror(errno))) }
}

enum AtomicFile {
    /// Replaces the file at `path` with `bytes` atomically: a reader sees the old file or the new
    /// one, never a part. Creates the file's folder and its parents.
    static func write(_ bytes: [UInt8], to path: String) throws(FileFailure) {
        try ensureDirectory(of: path)
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .current }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let failure = FileFailure.current
                close(fd)
                unlink(temporary)
                throw failure
            }
            offset += n
        }
        guard fsync(fd) == 0, close(fd) == 0, rename(temporary, path) == 0 else {
            let failure = FileFailure.current
            unlink(temporary)
            throw failure
        }
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
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw FileFailure(reason: String(cString: strerror(ENOTDIR))) }
    }
}
