// ProcessRun.swift — the tests' one way to run a program to its end: its standard input given, what it wrote on stdout and stderr read at once (a full pipe never blocks it), and its exit status.
import Foundation

/// What one run of a program wrote, and how it ended.
public struct RunResult: Sendable {
    public let stdout: String
    public let stderr: String
    public let status: Int32

    public init(stdout: String, stderr: String, status: Int32) {
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
    }
}

public enum ProcessRun {
    /// Runs `program` with `arguments` and waits for its end.
    /// - Parameters:
    ///   - environment: its whole environment (`nil`: the test run's own).
    ///   - directory: its working directory (`nil`: the test run's).
    ///   - stdin: what it reads on standard input, which is then closed (`nil`: an empty input).
    /// - Throws: what `Process.run` throws when the program cannot be started.
    public static func run(
        _ program: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil, stdin: Data? = nil
    ) throws -> RunResult {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()

        // Both pipes read at once, so that a child filling one never waits on the other.
        final class Box: @unchecked Sendable { var data = Data() }
        let errorBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorBox.data = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return RunResult(
            stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: errorBox.data, as: UTF8.self),
            status: process.terminationStatus)
    }

    /// Runs `command` (a program found on `PATH`, then its arguments) through `/usr/bin/env`.
    public static func run(
        _ command: [String], environment: [String: String]? = nil, directory: URL? = nil, stdin: Data? = nil
    ) throws -> RunResult {
        try run(URL(fileURLWithPath: "/usr/bin/env"), command, environment: environment, directory: directory, stdin: stdin)
    }
}
