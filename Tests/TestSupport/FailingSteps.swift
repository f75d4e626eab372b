// FailingSteps.swift — AtomicFile's system calls made to fail (a full disk, a read-only folder), for the tests of the files the program owns: limits, rules, history.
import Foundation
import UsageData

/// System calls for a save that fail: `write` after `bytes` bytes (0: at once), or `rename`,
/// or `link`, with `code`.
public enum Failing {
    public static func write(after limit: Int, code: Int32 = ENOSPC) -> AtomicFile.Steps {
        var steps = AtomicFile.Steps()
        steps.write = { fd, buffer, count in
            var info = stat()
            fstat(fd, &info)
            let room = limit - Int(info.st_size)
            if room <= 0 {
                errno = code
                return -1
            }
            return Glibc.write(fd, buffer, min(count, room))
        }
        return steps
    }

    public static func rename(code: Int32 = EACCES) -> AtomicFile.Steps {
        var steps = AtomicFile.Steps()
        steps.rename = { _, _ in
            errno = code
            return -1
        }
        return steps
    }

    /// A folder where nothing can be renamed or linked (as a read-only one, for root too).
    public static func move(code: Int32 = EACCES) -> AtomicFile.Steps {
        var steps = rename(code: code)
        steps.link = { _, _ in
            errno = code
            return -1
        }
        return steps
    }
}
