// DirectoryListing.swift — the entries of a directory, for completing file paths after `load`.
import Foundation

/// One entry of a directory.
public struct DirectoryEntry: Hashable, Sendable {
    public let name: String
    /// A directory (or a link to one): completion appends `/` and keeps going.
    public let isDirectory: Bool

    public init(name: String, isDirectory: Bool) {
        self.name = name
        self.isDirectory = isDirectory
    }
}

/// Lists directories for completion.
public enum DirectoryListing {
    /// The entries of `path` (`""` is the working directory), sorted by name; `nil` when it
    /// cannot be read. Hidden entries are included only when `hidden` is true.
    public static func entries(of path: String, hidden: Bool) -> [DirectoryEntry]? {
        let directory = path.isEmpty ? "." : path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        return names.filter { hidden || !$0.hasPrefix(".") }.sorted().map { name in
            var isDirectory: ObjCBool = false
            let full = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            return DirectoryEntry(name: name, isDirectory: isDirectory.boolValue)
        }
    }
}
