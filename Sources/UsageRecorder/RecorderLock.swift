// RecorderLock.swift — one recorder per store and device: an flock on a file named after both (in XDG_RUNTIME_DIR, else TMPDIR, else /tmp) holding the PID, which the kernel releases when the recorder dies, even by kill -9.
#if canImport(Glibc)
    import Glibc
#endif

/// The lock a running recorder holds.
public final class RecorderLock {
    public let path: String
    private let fd: Int32

    /// Takes the lock of `store` (its identity) and `device`.
    /// - Throws: `.alreadyRunning` naming the holder's PID, or `.lock`.
    public init(store: String, shownStore: String, device: String, environment: [String: String]) throws(RecorderError) {
        let directory = ["XDG_RUNTIME_DIR", "TMPDIR"].lazy.compactMap { environment[$0] }.first { $0.hasPrefix("/") } ?? "/tmp"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in (store + "\u{0}" + device).utf8 { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        path = directory + "/usage-shell-record-" + String(hash, radix: 16) + ".lock"
        while true {
            let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .lock(path: path, reason: String(cString: strerror(errno))) }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let holder = Self.pid(in: fd)
                close(fd)
                throw .alreadyRunning(pid: holder, device: device, store: shownStore)
            }
            // The file may have been removed by a recorder that ended meanwhile: lock the one there.
            var held = stat()
            var named = stat()
            if fstat(fd, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                self.fd = fd
                break
            }
            close(fd)
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, text, text.count, 0)
    }

    /// Gives the lock up and removes its file.
    public func release() {
        unlink(path)
        close(fd)
    }

    private static func pid(in fd: Int32) -> Int {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return 0 }
        return Int(String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: [" ", "\n"])) ?? 0
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
