// AtomicFile.swift — the files we own (history, limits): where they live (XDG), read when present, written whole or not at all (temporary file, fsync, rename).
import Foundation

/// Why a file of ours could not be written: the system's reason (`Permission denied`).
struct FileFailure: Error {
    let reason: String
    /// The system's error number (0 when the failure has none).
    var code: Int32 = 0

    static var current: FileFailure { FileFailure(reason: String(cString: strerror(errno)), code: errno) }
}

enum AtomicFile {
    /// Whether a file (not a folder) stands where the folder of `path` should be: the file
    /// cannot exist, but neither can it be written.
    static func folderIsBlocked(_ path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        var info = stat()
        return !directory.isEmpty && stat(directory, &info) == 0 && (info.st_mode & S_IFMT) != S_IFDIR
    }

    /// The file's bytes, or nil when it does not exist.
    static func contentsIfPresent(of path: String) throws(FileFailure) -> [UInt8]? {
        do {
            return try FileRepository.contents(of: path)
        } catch .notFound {
            return nil
        } catch {
            throw FileFailure(reason: error.reason)
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
    /// one, never a part. Creates the file's folder and its parents unless `createFolder` is
    /// false. With `replace` false an existing file is kept and the write fails with `EEXIST`
    /// (the new file is linked into place, which never overwrites). `mode` is before the umask.
    static func write(
        _ bytes: [UInt8], to path: String, replace: Bool = true, mode: mode_t = 0o600, createFolder: Bool = true
    ) throws(FileFailure) {
        if createFolder { try ensureDirectory(of: path) }
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
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
        guard fsync(fd) == 0, close(fd) == 0 else {
            let failure = FileFailure.current
            unlink(temporary)
            throw failure
        }
        let placed = replace ? rename(temporary, path) : link(temporary, path)
        let failure = placed == 0 ? nil : FileFailure.current
        if !replace || placed != 0 { unlink(temporary) }
        if let failure { throw failure }
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
