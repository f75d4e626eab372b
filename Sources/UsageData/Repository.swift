// Repository.swift — the SessionRepository protocol, source references and the load errors every source reports.
import UsageCore
import UsageFormats

/// Where a load's sessions come from, as the view model sees it: sources are swappable, as in
/// the original app's repository. A source read whole gives a `Dataset`; a history that reads
/// only the windows asked for (a database) is another `SessionHistory`.
public protocol HistoryRepository: Sendable {
    /// The source as shown to people (`data.json`, `:sample:`).
    var name: String { get }

    /// Opens the source's history; polls `cancellation`; reports bytes read to `progress`.
    func openHistory(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError)
        -> any SessionHistory
}

/// A source read and decoded whole into memory: a file, a stream, a URL, a server's API.
public protocol SessionRepository: HistoryRepository {
    /// Reads and decodes the whole source; polls `cancellation`; reports bytes read to `progress`.
    func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset

    /// Reads the source as `load` does, its sessions by the device the source names for them
    /// (ActivityWatch buckets' hosts); for `import`, which keeps each session's device.
    func loadByDevice(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> [DevicePart]
}

extension SessionRepository {
    /// A source that names no device: one part, the importing machine's.
    public func loadByDevice(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> [DevicePart] {
        [DevicePart(device: nil, dataset: try load(cancellation: cancellation, progress: progress))]
    }

    public func openHistory(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError)
        -> any SessionHistory
    {
        try load(cancellation: cancellation, progress: progress)
    }
}

/// A source as the user names it on the command line or after `load`.
public enum SourceRef: Hashable, Sendable, CustomStringConvertible {
    /// The sample embedded in the binary (no argument, or `:sample:`).
    case sample
    /// A file path.
    case file(String)
    /// Standard input (`-`), read once.
    case stdin
    /// An `http://` or `https://` URL.
    case url(String)
    /// An ActivityWatch server's REST API (`aw://HOST:PORT`, `activitywatch`).
    case activityWatch(host: String, port: Int)
    /// The store: what `import` kept (`store`, `:store:`), read by window.
    case store
    /// The tracker's time: each task's sessions, the task's name as the app (`tracked`, `:tracked:`).
    case tracked
    /// Another store (`store:PATH`, `store:postgresql://…`): loaded to look at, or copied in by
    /// `import` (sessions with their devices, and tracked time).
    case storeAt(String)
    /// Several sources loaded as one (`load A B`): sessions merged, skipped rows kept apart.
    indirect case merged([SourceRef])
    /// An argument that names no source we can read as written (`aw://HOST:PORT/path`): its
    /// load fails at once with `problem`, like any source that cannot be read.
    case refused(argument: String, problem: String)

    /// The name that selects the bundled sample explicitly, like sqlite's `:memory:`.
    public static let sampleName = ":sample:"
    /// The word for the store (also `:store:`).
    public static let storeName = "store"
    /// The word for tracked time (also `:tracked:`).
    public static let trackedName = "tracked"
    /// What names another store: `store:PATH`.
    public static let storePrefix = "store:"
    /// The name standard input goes by in reports and errors.
    public static let stdinName = "<stdin>"
    /// The word for the local ActivityWatch server, `aw://localhost:5600`.
    public static let activityWatchName = "activitywatch"
    /// ActivityWatch's default port.
    public static let activityWatchPort = 5600

    /// Parses a source argument; `nil` means the bundled sample. A leading `~/` is the home
    /// directory, as a shell would expand it (`load ~/export.json` at the prompt). `-` is
    /// standard input; `http://`, `https://` and `aw://` are network sources (a file whose
    /// name starts so is written `./http:…`).
    public init(_ argument: String?, home: String? = nil) {
        guard let argument, argument != SourceRef.sampleName else {
            self = .sample
            return
        }
        let lower = argument.lowercased()
        if argument == "-" {
            self = .stdin
        } else if lower == SourceRef.storeName || argument == ":store:" {
            self = .store
        } else if lower == SourceRef.trackedName || argument == ":tracked:" {
            self = .tracked
        } else if lower.hasPrefix(SourceRef.storePrefix), argument.count > SourceRef.storePrefix.count {
            // `store:~/…` as a file's `~/…`: the shell does not expand a tilde after `store:`.
            let location = String(argument.dropFirst(SourceRef.storePrefix.count))
            if let home, location == "~" || location.hasPrefix("~/") {
                self = .storeAt(home + location.dropFirst())
            } else {
                self = .storeAt(location)
            }
        } else if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            self = .url(argument)
        } else if lower == SourceRef.activityWatchName {
            self = .activityWatch(host: "localhost", port: SourceRef.activityWatchPort)
        } else if lower.hasPrefix("aw://") {
            let rest = argument.dropFirst(5)
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let path = rest.dropFirst(authority.count)
            // A trailing `/` is no path; anything more would be silently dropped, so it is refused.
            guard path.isEmpty || path == "/" else {
                self = .refused(
                    argument: argument,
                    problem: "a path is not used: aw:// names an ActivityWatch server, aw://HOST:PORT, whose events are "
                        + "read through its API; drop '\(path)' (aw://\(authority))")
                return
            }
            self = SourceRef.activityWatch(authority: String(authority))
        } else if let home, argument == "~" || argument.hasPrefix("~/") {
            self = .file(home + argument.dropFirst())
        } else {
            self = .file(argument)
        }
    }

    /// Several arguments: one source, or the merge of them.
    public init(_ arguments: [String], home: String? = nil) {
        let refs = arguments.map { SourceRef($0, home: home) }
        self = refs.count == 1 ? refs[0] : .merged(refs)
    }

    /// A URL as shown: a password in it (`https://ann:secret@host/…`) becomes `***`.
    public static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else { return url }
        let authority = url[scheme.upperBound..<at]
        guard !authority.contains("/"), let colon = authority.firstIndex(of: ":") else { return url }
        return String(url[..<authority.index(after: colon)]) + "***" + String(url[at...])
    }

    /// A store's name as shown: a URL's password, or a `password=` value, becomes `***`.
    public static func redactedConnection(_ name: String) -> String {
        var text = name
        if let scheme = text.range(of: "://") {
            let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        // `password=…` as a key=value pair or a URI parameter (a quoted value whole).
        var out = ""
        var rest = Substring(text)
        while let hit = rest.range(of: "password=") {
            let before = rest[..<hit.lowerBound]
            let isKey = before.isEmpty || before.last == " " || before.last == "?" || before.last == "&"
            out += rest[..<hit.upperBound]
            rest = rest[hit.upperBound...]
            guard isKey else { continue }
            if rest.first == "'" {
                var k = rest.index(after: rest.startIndex)
                while k < rest.endIndex, rest[k] != "'" {
                    k = rest[k] == "\\" ? rest.index(k, offsetBy: 2, limitedBy: rest.endIndex) ?? rest.endIndex : rest.index(after: k)
                }
                rest = k < rest.endIndex ? rest[rest.index(after: k)...] : ""
            } else {
                rest = rest.drop { $0 != " " && $0 != "&" }
            }
            out += "***"
        }
        return out + rest
    }

    /// `HOST:PORT`, `HOST` (port 5600), `[::1]:PORT`.
    private static func activityWatch(authority: String) -> SourceRef {
        var host = authority.isEmpty ? "localhost" : authority
        var port = activityWatchPort
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]"),
            let number = Int(authority[authority.index(after: colon)...])
        {
            host = String(authority[..<colon])
            port = number
        }
        return .activityWatch(host: host.isEmpty ? "localhost" : host, port: port)
    }

    public var description: String {
        switch self {
        case .sample: return SourceRef.sampleName
        case .file(let path): return path
        case .stdin: return SourceRef.stdinName
        case .url(let url): return SourceRef.redacted(url)
        case .activityWatch(let host, let port): return "aw://\(host):\(port)"
        case .store: return SourceRef.storeName
        case .tracked: return SourceRef.trackedName
        case .storeAt(let name): return SourceRef.storePrefix + SourceRef.redactedConnection(name)
        case .merged(let refs): return refs.map(\.description).joined(separator: " + ")
        case .refused(let argument, _): return argument
        }
    }

    /// The first source named twice (its data would count twice), or nil.
    public static func repeated(_ refs: [SourceRef]) -> SourceRef? {
        var seen: Set<SourceRef> = []
        return refs.first { !seen.insert($0).inserted }
    }

    /// The sources, one by one (a merged source's parts; else itself).
    public var parts: [SourceRef] {
        if case .merged(let refs) = self { return refs }
        return [self]
    }

    /// Whether reading this source reads standard input.
    public var readsStdin: Bool { parts.contains(.stdin) }
}

/// A source refused as written (`SourceRef.refused`): its load fails at once, naming why.
public struct RefusedRepository: SessionRepository {
    public let name: String
    public let problem: String

    public init(name: String, problem: String) {
        self.name = name
        self.problem = problem
    }

    public func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset {
        throw .unreadable(source: name, reason: problem)
    }
}

/// Several repositories read one after the other and merged (`load A B`); the first failure
/// fails the whole load, so nothing half-merged is ever shown. Sources read whole merge into
/// one dataset; a history read by window (the store) stays one, inside a `MergedHistory`.
public struct MergedRepository: HistoryRepository {
    public let name: String
    public let parts: [any HistoryRepository]

    public init(name: String, parts: [any HistoryRepository]) {
        self.name = name
        self.parts = parts
    }

    public func openHistory(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError)
        -> any SessionHistory
    {
        var histories: [any SessionHistory] = []
        for part in parts {
            histories.append(try part.openHistory(cancellation: cancellation, progress: progress))
            if cancellation.isCancelled { throw .cancelled(source: name) }
        }
        return Self.combine(histories, source: name)
    }

    /// The histories of several sources as one, named `source`: datasets merged into one
    /// dataset; with a history read by window among them, a `MergedHistory`.
    public static func combine(_ histories: [any SessionHistory], source: String) -> any SessionHistory {
        let datasets = histories.compactMap { $0 as? Dataset }
        if datasets.count == histories.count { return Dataset.merging(datasets, source: source) }
        return MergedHistory(histories, source: source)
    }
}

/// Why a load failed. The previous data stays loaded whatever the case.
public enum LoadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No file at the path.
    case notFound(source: String)
    /// The path names a directory.
    case isDirectory(source: String)
    /// The file exists but may not be read.
    case permissionDenied(source: String)
    /// Any other failure to read, with the system's reason.
    case unreadable(source: String, reason: String)
    /// The bytes were read but are not a sessions file.
    case invalid(source: String, IngestError)
    /// The user or a newer load cancelled this one.
    case cancelled(source: String)
    /// An HTTP server answered with a status other than 2xx (`reason` is its phrase: `Not Found`).
    case httpStatus(source: String, status: Int, reason: String)
    /// The source is larger than the most a load reads.
    case tooLarge(source: String, limit: Int)
    /// A stream (a pipe, a FIFO) brought nothing for `seconds`, after `received` bytes.
    case stalled(source: String, seconds: Double, received: Int)
    /// A file's size or modification time changed while it was read (truncated, rewritten,
    /// appended to): what was read may be half old, half new.
    case changedWhileRead(source: String)

    /// The source the error is about.
    public var source: String {
        switch self {
        case .notFound(let s), .isDirectory(let s), .permissionDenied(let s), .unreadable(let s, _),
            .invalid(let s, _), .cancelled(let s), .httpStatus(let s, _, _), .tooLarge(let s, _), .stalled(let s, _, _),
            .changedWhileRead(let s):
            return s
        }
    }

    /// One line for the user, naming the source.
    public var description: String {
        if case .cancelled(let s) = self { return "load of '\(s)' cancelled" }
        return "cannot load '\(source)': \(reason)"
    }

    /// What went wrong, without the source (`no such file`).
    public var reason: String {
        switch self {
        case .notFound: return "no such file"
        case .isDirectory: return "it is a directory"
        case .permissionDenied: return "permission denied"
        case .unreadable(_, let reason): return reason
        case .invalid(_, let error): return error.description
        case .cancelled: return "cancelled"
        case .httpStatus(_, let status, let reason): return "HTTP \(status) \(reason)"
        case .tooLarge(_, let limit):
            let size = limit >= 1 << 30 && limit % (1 << 30) == 0 ? "\(limit >> 30) GiB"
                : limit >= 1 << 20 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            return "larger than the \(size) a load reads"
        case .stalled(_, let seconds, let received):
            let wait = StreamLimits.text(seconds: seconds)
            return received == 0
                ? "nothing arrived in \(wait); is anything writing to it? (--timeout or 'set timeout' waits longer)"
                : "nothing more arrived in \(wait) after \(received) bytes (--timeout or 'set timeout' waits longer)"
        case .changedWhileRead:
            return "the file changed while it was read (truncated, rewritten or appended to); load it again"
        }
    }
}
