// TemporaryFolders.swift — the folders this target's tests make in the temporary directory: each named usage-shell-NAME-UUID, and all of them removed when the test process exits.
import Foundation
import Synchronization

enum TemporaryFolders {
    private static let made = Mutex<[String]>([])

    /// A new, empty folder `usage-shell-NAME-UUID` in the temporary directory, removed at exit.
    static func make(_ name: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-\(name)-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        made.withLock { paths in
            if paths.isEmpty { atexit { TemporaryFolders.removeAll() } }
            paths.append(path)
        }
        return path
    }

    private static func removeAll() {
        for path in made.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
