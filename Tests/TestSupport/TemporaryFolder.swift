// TemporaryFolder.swift — a folder of a test's own under the temporary directory (named usage-shell-…, as scripts/test's leftover check expects), removed when the value goes; the one folder type every suite uses.
import Foundation

/// A new, empty folder, removed with everything in it when this goes.
public final class TemporaryFolder: @unchecked Sendable {
    public let path: String
    public var url: URL { URL(fileURLWithPath: path) }

    /// `usage-shell-<kind>-<UUID>` under the temporary directory.
    public init(_ kind: String = "test") throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-\(kind)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A SQLite store's path in the folder (not made).
    public var store: String { path + "/usage.sqlite" }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` (its folders made); returns the file's path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let file = path(name)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The text of `name`.
    public func text(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }

    /// The names in the folder, sorted.
    public var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
}
