// OwnedFile.swift — a file of ours (history, limits) as one type: read and checked, set aside whole when corrupt, changed under its lock and written atomically; one error enum for every such file.

/// Which file of ours, and what the shell does when it cannot be used: the words of its warnings.
public enum OwnedFileKind: Sendable, Equatable {
    case history
    case limits

    /// `history file`, `limits file`.
    var noun: String {
        switch self {
        case .history: return "history file"
        case .limits: return "limits file"
        }
    }

    /// How a file we could not have written is described.
    var badly: String {
        switch self {
        case .history: return "is corrupt"
        case .limits: return "is not valid"
        }
    }

    /// What happens when the file is left alone (unreadable, or corrupt and unmovable).
    var leftAlone: String {
        switch self {
        case .history: return "it is left as it is and history is not saved this session"
        case .limits: return "it is left as it is, and limits are kept in memory for this session only"
        }
    }

    /// What happens once a corrupt file was set aside.
    var startsEmpty: String {
        switch self {
        case .history: return "history starts empty"
        case .limits: return "limits start empty"
        }
    }

    /// A failed save, and what follows from it.
    func unwritable(_ path: String, _ reason: String) -> String {
        switch self {
        case .history: return "cannot save the history file '\(path)': \(reason); history is not saved from now on"
        case .limits: return "cannot write the limits file '\(path)': \(reason); limits are kept in memory for this session only"
        }
    }
}

/// Why a file of ours could not be used, and what the shell did about it: each is one warning.
public enum OwnedFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// It exists but cannot be read (permissions, a folder in its place, an I/O error): it is
    /// left as it is and not written this session.
    case unreadable(OwnedFileKind, path: String, reason: String)
    /// It is not a file we could have written (`problem`); it was renamed to `keptAs`, and the
    /// file starts empty and is saved as usual.
    case corrupt(OwnedFileKind, path: String, problem: String, keptAs: String)
    /// It is not a file we could have written and could not be renamed (`reason`: a read-only
    /// folder): it is left as it is and not written this session.
    case corruptInPlace(OwnedFileKind, path: String, problem: String, reason: String)
    /// It cannot be written (a read-only folder, a full disk): not saved from now on.
    case unwritable(OwnedFileKind, path: String, reason: String)

    /// The file it is about.
    public var path: String {
        switch self {
        case .unreadable(_, let path, _), .corrupt(_, let path, _, _), .corruptInPlace(_, let path, _, _),
            .unwritable(_, let path, _):
            return path
        }
    }

    /// Whether the file must not be written any more this session (all but a file set aside).
    public var stopsSaving: Bool {
        if case .corrupt = self { return false }
        return true
    }

    /// Whether what the file holds is unknown after this (not read, or not understood and still there).
    public var contentsUnknown: Bool {
        switch self {
        case .unreadable, .corruptInPlace: return true
        case .corrupt, .unwritable: return false
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let kind, let path, let reason):
            return "cannot read the \(kind.noun) '\(path)': \(reason); \(kind.leftAlone)"
        case .corrupt(let kind, let path, let problem, let keptAs):
            return "the \(kind.noun) '\(path)' \(kind.badly) (\(problem)); it was kept aside as '\(keptAs)' and \(kind.startsEmpty)"
        case .corruptInPlace(let kind, let path, let problem, let reason):
            return "the \(kind.noun) '\(path)' \(kind.badly) (\(problem)) and could not be moved aside (\(reason)); \(kind.leftAlone)"
        case .unwritable(let kind, let path, let reason):
            return kind.unwritable(path, reason)
        }
    }
}

/// A file of ours holding a `Value`: what is absent reads as `empty`; bytes that we cannot
/// have written (`decode` names the problem) are corrupt. A corrupt file is never repaired —
/// its bytes would be lost at the next save — but renamed aside whole (`NAME.corrupt`,
/// `.corrupt-2`, …) under the lock; one that cannot be read or moved is left exactly as it is.
struct OwnedFile<Value>: Sendable {
    let kind: OwnedFileKind
    let path: String
    /// What an absent file holds.
    let empty: @Sendable () -> Value
    /// The value of the file's bytes, or the problem that makes them not a file of ours.
    let decode: @Sendable ([UInt8]) -> Result<Value, Problem>
    let encode: @Sendable (Value) -> [UInt8]
    /// Larger than this is no file of ours (checked before anything else).
    var maximumBytes = Int.max
    /// The system calls of a save (tests make one fail).
    var steps: AtomicFile.Steps = .system

    /// What makes a file's bytes not a file of ours.
    struct Problem: Error, Equatable {
        let text: String
        init(_ text: String) { self.text = text }
    }

    /// A value read, and the corrupt file set aside on the way (`.corrupt`), if any.
    typealias Loaded = (value: Value, setAside: OwnedFileError?)

    /// The stored value; a corrupt file is set aside (under the lock) and the value starts
    /// empty; when it cannot be moved it is left in place and this fails. Never writes the file.
    func load() throws(OwnedFileError) -> Loaded {
        let problem: String
        switch try read() {
        case .value(let value): return (value, nil)
        case .corrupt(let found): problem = found
        }
        let lock: Int32
        do {
            lock = try AtomicFile.lock(path)
        } catch {
            throw .corruptInPlace(kind, path: path, problem: problem, reason: error.reason)
        }
        defer { AtomicFile.unlock(lock) }
        // Another run may have set it aside (and saved a new one) meanwhile: read it again.
        return try loadLocked()
    }

    /// Reads, changes and writes the value under the exclusive lock (`PATH.lock`), so two runs
    /// changing it at once both keep their change. `change` may fail: nothing is written then.
    /// Returns the value written (and a corrupt file set aside before, if any).
    func update<Failure: Error>(_ change: (Value) throws(Failure) -> Value) throws(UpdateFailure<Failure>) -> Loaded {
        let lock: Int32
        do {
            lock = try AtomicFile.lock(path)
        } catch {
            throw .file(.unwritable(kind, path: path, reason: error.reason))
        }
        defer { AtomicFile.unlock(lock) }
        let loaded: Loaded
        do {
            loaded = try loadLocked()
        } catch {
            throw .file(error)
        }
        let changed: Value
        do {
            changed = try change(loaded.value)
        } catch {
            throw .change(error)
        }
        do {
            try save(changed)
        } catch {
            throw .file(error)
        }
        return (changed, loaded.setAside)
    }

    /// Why `update` failed: the file, or the change itself.
    enum UpdateFailure<Failure: Error>: Error {
        case file(OwnedFileError)
        case change(Failure)
    }

    /// The stored value as it is, for a glance (completion): nil when the file is missing, bad
    /// or unreadable (it is left as it is; the next real use reports it).
    func peek() -> Value? {
        guard let bytes = try? AtomicFile.contentsIfPresent(of: path), case .success(let value) = decode(bytes) else {
            return nil
        }
        return value
    }

    /// Writes the value atomically (a temporary file, fsync, rename; mode 0600).
    func save(_ value: Value) throws(OwnedFileError) {
        do {
            try AtomicFile.write(encode(value), to: path, steps: steps)
        } catch {
            throw .unwritable(kind, path: path, reason: error.reason)
        }
    }

    /// Reads the file, setting a corrupt one aside: call it holding the lock.
    private func loadLocked() throws(OwnedFileError) -> Loaded {
        switch try read() {
        case .value(let value): return (value, nil)
        case .corrupt(let problem):
            switch AtomicFile.setAside(path, steps: steps) {
            case .moved(let keptAs): return (empty(), .corrupt(kind, path: path, problem: problem, keptAs: keptAs))
            case .gone: return (empty(), nil)
            case .failed(let reason): throw .corruptInPlace(kind, path: path, problem: problem, reason: reason)
            }
        }
    }

    /// What the file holds.
    private enum Contents {
        case value(Value)
        case corrupt(problem: String)
    }

    private func read() throws(OwnedFileError) -> Contents {
        let bytes: [UInt8]
        do {
            guard let contents = try AtomicFile.contentsIfPresent(of: path) else { return .value(empty()) }
            bytes = contents
        } catch {
            throw .unreadable(kind, path: path, reason: error.reason)
        }
        if bytes.count > maximumBytes { return .corrupt(problem: "larger than \(maximumBytes >> 20) MiB") }
        if let problem = AtomicFile.textProblem(bytes) { return .corrupt(problem: problem) }
        switch decode(bytes) {
        case .success(let value): return .value(value)
        case .failure(let problem): return .corrupt(problem: problem.text)
        }
    }
}
