// LimitsSession.swift — the limits of one shell session: read anew from the limits file by every limits command, changed under its lock, and kept in memory once the file cannot be used (each problem said once).
import UsageCore

/// The daily limits as a session sees them. Another shell may change the file at any time, so
/// every use reads it anew. A corrupt file is set aside (one warning) and limits start empty; a
/// file that cannot be used is reported once, and the session goes on with its limits in
/// memory, never writing the file (`limits check` then refuses to answer: `fault`).
public final class LimitsSession {
    /// Where limits are kept (nil: in memory only, as in tests).
    public let file: LimitsFile?
    /// The limits when there is no file, or once it cannot be used (`fault`).
    private var memoryLimits: [UsageLimit] = []
    /// Why the limits file is not used this session (reported once, when it happened).
    public private(set) var fault: OwnedFileError?

    public init(file: LimitsFile?) {
        self.file = file
    }

    /// The limits now; a warning about the file (set aside, or no longer used) goes to `warn`.
    public func current(warn: (String) -> Void) -> [UsageLimit] {
        guard let file, fault == nil else { return memoryLimits }
        do {
            let loaded = try file.load()
            if let aside = loaded.setAside { warn(aside.description) }
            return loaded.limits
        } catch {
            keepInMemory(error, limits: [], warn: warn)
            return memoryLimits
        }
    }

    /// Changes the limits: read, changed and written under the file's lock; in memory once the
    /// file cannot be used (the change then lives as long as the session). When `change`
    /// fails, its error is thrown and the limits stay as they were.
    public func update<Failure: Error>(
        warn: (String) -> Void, _ change: ([UsageLimit]) throws(Failure) -> [UsageLimit]
    ) throws(Failure) {
        guard let file, fault == nil else {
            memoryLimits = try change(memoryLimits)
            return
        }
        var failure: Failure?
        var read: [UsageLimit]?
        var changed: [UsageLimit]?
        do {
            let written = try file.update { limits in
                read = limits
                do throws(Failure) {
                    let result = try change(limits)
                    changed = result
                    return result
                } catch {
                    failure = error
                    return limits
                }
            }
            if let aside = written.setAside { warn(aside.description) }
        } catch {
            var problem = error
            if read == nil, case .unwritable = error {
                // The lock could not be taken (a read-only folder): the limits as they stand.
                do {
                    let loaded = try file.load()
                    if let aside = loaded.setAside { warn(aside.description) }
                    read = loaded.limits
                } catch {
                    problem = error
                }
            }
            keepInMemory(problem, limits: read ?? [], warn: warn)
            if let changed {
                memoryLimits = changed
            } else if failure == nil {
                memoryLimits = try change(memoryLimits)
            }
        }
        if let failure { throw failure }
    }

    /// The limits for completion, without reporting or moving a bad file.
    public var forCompletion: [UsageLimit] {
        guard let file, fault == nil else { return memoryLimits }
        return file.peek()
    }

    /// Stops using the file for the session, with one warning; limits go on in memory.
    private func keepInMemory(_ problem: OwnedFileError, limits: [UsageLimit], warn: (String) -> Void) {
        fault = problem
        memoryLimits = limits
        warn(problem.description)
    }
}
