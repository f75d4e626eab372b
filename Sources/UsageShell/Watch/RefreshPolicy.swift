// RefreshPolicy.swift — what a refresh does with each source, decided from what was seen at the last read and what is seen now, without reading anything: keep it, read it whole, ask for what is new, or count a running interval up to now.
import UsageCore
import UsageData

/// What a refresh does with one source.
public enum RefreshAction: Equatable, Sendable {
    /// Nothing changed: no read, no parse, the history kept as it is.
    case keep
    /// Read it whole again.
    case read
    /// Ask only for what is new (ActivityWatch: the events since the newest one known).
    case readNew
    /// Read nothing, but count the running interval up to the new now (tracked time).
    case recount
    /// The source cannot be read now: the refresh fails with this, and everything stays.
    case fail(LoadError)
}

/// How each kind of source is refreshed (docs: README, "watch").
public enum RefreshPolicy {
    /// The kinds of sources, by how they change.
    public enum Kind: Equatable, Sendable {
        /// A file: compared by `stat` (identity, size, modification time).
        case file
        /// An ActivityWatch server: asked for the events since the newest one known.
        case activityWatch
        /// A URL: nothing tells it changed without reading it, so it is read anew.
        case url
        /// The store: read again when its change token says a change was committed.
        case store
        /// Tracked time (in the store): read again when the store changed, else a running
        /// interval counted up to now.
        case tracked
        /// Read once at the load: the bundled sample, standard input, a refused argument.
        case once
    }

    /// The kind of one source (not a merge: its parts are refreshed one by one).
    public static func kind(of source: SourceRef) -> Kind {
        switch source {
        case .file: return .file
        case .activityWatch: return .activityWatch
        case .url: return .url
        case .store, .storeAt: return .store
        case .tracked: return .tracked
        case .sample, .stdin, .refused, .merged: return .once
        }
    }

    /// A file: read again when `stat` says it changed since the last read, when the last
    /// read's fingerprint was taken too soon after a change to vouch for it (`racy`), or when it
    /// holds a running interval (a Timewarrior export's, counted up to the moment of each read);
    /// a stream (a FIFO, a device) was read once; a file that cannot be seen fails the refresh.
    public static func file(known: FileFingerprint.Probe, now: FileFingerprint.Probe, holdsRunning: Bool) -> RefreshAction {
        switch now {
        case .failed(let error): return .fail(error)
        case .stream: return known == .stream ? .keep : .read
        case .file:
            if case .file(let seen) = known, seen.racy { return .read }
            return now != known || holdsRunning ? .read : .keep
        }
    }

    /// The store: read again only when its data version moved.
    public static func store(known: Int64, now: Int64) -> RefreshAction {
        known == now ? .keep : .read
    }

    /// Tracked time: read again when the store changed; else, while an interval runs, counted
    /// up to now without reading.
    public static func tracked(known: Int64?, now: Int64?, running: Bool) -> RefreshAction {
        if known != now { return .read }
        return running ? .recount : .keep
    }

    /// The action for a source of `kind` that needs no probe (the probes are the caller's).
    public static func unprobed(_ kind: Kind) -> RefreshAction {
        switch kind {
        case .activityWatch: return .readNew
        case .url: return .read
        case .once: return .keep
        case .file, .store, .tracked: return .read
        }
    }
}

extension SourceRef {
    /// Whether the source is live or stored (ActivityWatch, a URL, the store, tracked time, or
    /// a merge holding one): with no day chosen, its day follows the clock past midnight.
    public var isLive: Bool {
        parts.contains { [.activityWatch, .url, .store, .tracked].contains(RefreshPolicy.kind(of: $0)) }
    }
}
