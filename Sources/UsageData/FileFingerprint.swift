// FileFingerprint.swift — what tells a file changed without reading it: its identity (device, inode), size and modification time, from one stat call; what `watch` compares before re-reading a file.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file as `stat` sees it. Two equal fingerprints mean the file was neither rewritten
/// in place (size or modification time, to the nanosecond), nor replaced by another (a rename
/// over it gives another inode). Taken before a read, so a change during the read shows at the
/// next comparison and is read then.
///
/// The file system stamps modification times from a clock that moves in steps of a few
/// milliseconds, and a freed inode number is soon given again: two rewrites of the same size
/// within one step can look the same. So a fingerprint taken less than `settling` seconds after
/// the file was modified is `racy` (as git calls its index entries then): it does not vouch for
/// the file, which is read again next time.
public struct FileFingerprint: Equatable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modifiedSeconds: Int64
    public let modifiedNanoseconds: Int64
    /// Taken so soon after the modification that another one might not show (see above).
    public let racy: Bool

    /// How long after its modification a fingerprint vouches for a file.
    public static let settling: Int64 = 2

    public init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64, racy: Bool = false) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.racy = racy
    }

    /// What `stat` says of the file at `path`.
    public enum Probe: Equatable, Sendable {
        /// A regular file, and its fingerprint.
        case file(FileFingerprint)
        /// Something that is not a regular file (a FIFO, a device): a stream, read once.
        case stream
        /// `stat` failed: the load's error for it (no such file, permission denied, …).
        case failed(LoadError)
    }

    /// One `stat` of `path` (links followed, as a load follows them).
    public static func probe(_ path: String) -> Probe {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failed(FileRepository.error(errno, source: path)) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .failed(.isDirectory(source: path)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .stream }
        // The file system's own clock, not the shell's (which tests may set anywhere).
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let modified = Int64(info.st_mtim.tv_sec)
        return .file(
            FileFingerprint(
                device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), modifiedSeconds: modified,
                modifiedNanoseconds: Int64(info.st_mtim.tv_nsec), racy: Int64(now.tv_sec) - modified < settling))
    }
}
