// ImportHold.swift — the end-to-end tests' one hook into a running import: with USAGE_SHELL_TEST_IMPORT_HOLD=STAGE:FILE in the environment, an import stops once at STAGE (`reading`: before its first source is read; `writing`: rows sent inside its transaction), makes FILE, and waits there until it is cancelled, so that a test signals it at a known point instead of racing a large import.
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where a test may hold an import (docs/TESTING.md, "Cancelling an import at a known point").
public enum ImportHold {
    public enum Stage: String, Sendable {
        case reading, writing
    }

    static let variable = "USAGE_SHELL_TEST_IMPORT_HOLD"
    /// A process holds once: the first stage named that is reached.
    private static let held = Atomic<Bool>(false)
    /// The longest a hold waits for its cancellation, in seconds: a test that never signals
    /// gets its import back rather than a hung run.
    static let ceiling = 120

    /// Waits at `stage` when the environment names it (else returns at once): FILE is made,
    /// then the import waits until `cancellation` is cancelled (its next check then stops it).
    public static func wait(at stage: Stage, _ cancellation: CancellationToken) {
        guard let raw = getenv(variable) else { return }
        let value = String(cString: raw)
        guard let colon = value.firstIndex(of: ":"), value[..<colon] == stage.rawValue, !held.exchange(true, ordering: .relaxed) else { return }
        let fd = open(String(value[value.index(after: colon)...]), O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
        for _ in 0..<(ceiling * 200) where !cancellation.isCancelled {
            usleep(5_000)
        }
    }
}
