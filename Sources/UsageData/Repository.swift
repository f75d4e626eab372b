// Repository.swift — the SessionRepository protocol, source references and the load errors every source reports.
import UsageCore

/// Where sessions come from. Sources are swappable, as in the original app's repository.
public protocol SessionRepository: Sendable {
    /// The source as shown to people (`data.json`, `:sample:`).
    var name: String { get }

    /// Reads and decodes the whole source; polls `cancellation`; reports bytes read to `progress`.
    func load(cancellation: CancellationToken, progress: @escaping @Sendable (Int) -> Void) throws(LoadError) -> Dataset
}

/// A source as the user names it on the command line or after `load`.
public enum SourceRef: Hashable, Sendable, CustomStringConvertible {
    /// The sample embedded in the binary (no argument, or `:sample:`).
    case sample
    /// A file path.
    case file(String)

    /// The name that selects the bundled sample explicitly, like sqlite's `:memory:`.
    public static let sampleName = ":sample:"

    /// Parses a source argument; `nil` means the bundled sample. A leading `~/` is the home
    /// directory, as a shell would expand it (`load ~/export.json` at the prompt).
    public init(_ argument: String?, home: String? = nil) {
        guard let argument, argument != SourceRef.sampleName else {
            self = .sample
            return
        }
        if let home, argument == "~" || argument.hasPrefix("~/") {
            self = .file(home + argument.dropFirst())
        } else {
            self = .file(argument)
        }
    }

    public var description: String {
        switch self {
        case .sample: return SourceRef.sampleName
        case .file(let path): return path
        }
    }

    /// The repository that reads this source; the zone places the bundled sample.
    public func repository(zone: Zone) -> any SessionRepository {
        switch self {
        case .sample: return BundledSampleRepository(zone: zone)
        case .file(let path): return FileRepository(path: path)
        }
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

    /// The source the error is about.
    public var source: String {
        switch self {
        case .notFound(let s), .isDirectory(let s), .permissionDenied(let s), .unreadable(let s, _),
            .invalid(let s, _), .cancelled(let s):
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
        }
    }
}
