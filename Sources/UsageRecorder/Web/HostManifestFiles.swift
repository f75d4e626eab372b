// HostManifestFiles.swift — `record --enable`'s and `--disable`'s browser part: the host manifest written into, and removed from, each browser's per-user folder.
import Foundation

public enum HostManifestFiles {
    /// Writes each family's manifest (naming `executable`) into its per-user folder, the folders
    /// made when missing: the lines that say what was written, or why a browser's could not be.
    public static func install(environment: [String: String], executable: String) -> [String] {
        let files = FileManager.default
        return BrowserFamily.allCases.compactMap { family in
            guard let folder = HostManifest.userFolder(for: family, environment: environment) else { return nil }
            let path = folder + "/" + HostManifest.fileName
            do {
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try Data(HostManifest.text(for: family, executable: executable).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                return "\(family.rawValue)'s native-messaging host: \(path)"
            } catch {
                return "\(family.rawValue)'s native-messaging host: cannot write \(path) (\(error.localizedDescription))"
            }
        }
    }

    /// Removes each family's manifest from its per-user folder: the lines that say which were removed.
    public static func remove(environment: [String: String]) -> [String] {
        let files = FileManager.default
        return BrowserFamily.allCases.compactMap { family in
            guard let folder = HostManifest.userFolder(for: family, environment: environment) else { return nil }
            let path = folder + "/" + HostManifest.fileName
            guard files.fileExists(atPath: path) else { return nil }
            return (try? files.removeItem(atPath: path)) != nil
                ? "removed \(family.rawValue)'s native-messaging host: \(path)"
                : "cannot remove \(path)"
        }
    }
}
