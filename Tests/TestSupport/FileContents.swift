// FileContents.swift — what the owned-file suites read back from the disk: a folder's names and a file's bytes, one definition for every suite.
import Foundation

/// The names in a folder, sorted (none when it is missing).
public func listing(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// The bytes of a file (nil when it is missing).
public func bytes(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map(Array.init)
}
