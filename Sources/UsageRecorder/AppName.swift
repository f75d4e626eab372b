// AppName.swift — an application's name as the recorder keeps it: a window class (or Wayland app_id) repaired to valid UTF-8, capped, else the process's name from /proc/PID/comm; never a title.
#if canImport(Glibc)
    import Glibc
#endif
import UsageCore

/// The name an app is recorded under.
public enum AppName {
    /// The longest name kept, in bytes (a 10 kB class is cut, at a character's boundary).
    public static let maxBytes = 256

    /// A window class's bytes as a name: invalid UTF-8 repaired (U+FFFD), cut to `maxBytes`,
    /// nil when empty. Control characters stay: the store keeps names exact, and everything that
    /// shows them sanitises them (TerminalText).
    public static func fromClass<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
        let text = String(decoding: bytes, as: UTF8.self)
        return capped(text)
    }

    /// A name trimmed (docs/DATA.md §2) and cut to `maxBytes` of UTF-8 at a character's
    /// boundary; nil when empty or blank.
    public static func capped(_ raw: String) -> String? {
        let text = Normalise.trim(raw)
        var out = ""
        var bytes = 0
        for c in text {
            let n = c.utf8.count
            if bytes + n > maxBytes { break }
            out.append(c)
            bytes += n
        }
        return out.isEmpty ? nil : out
    }

    /// The process's name (`/proc/PID/comm`), the fallback for a window without a class.
    public static func ofProcess(_ pid: Int32) -> String? {
        guard pid > 0 else { return nil }
        let fd = open("/proc/\(pid)/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return nil }
        var bytes = buffer[0..<n]
        if bytes.last == 10 { bytes = bytes.dropLast() }
        return fromClass(bytes)
    }
}
