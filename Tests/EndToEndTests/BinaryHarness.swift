// BinaryHarness.swift — runs the built usage-shell binary isolated from the user and captures stdout, stderr and status.
import Foundation

/// The result of one run of the binary.
struct RunResult {
    let stdout: String
    let stderr: String
    let status: Int32
}

/// Runs the built `usage-shell` with a temporary HOME and XDG dirs, a fixed TZ and no colour
/// (and the sanitizer options of the test run, if any).
enum Binary {
    /// `<scratch>/<config>/usage-shell`, next to the test bundle: `.build/asan/debug/usage-shell` under scripts/test-asan.
    static var url: URL {
        let products = Bundle.main.bundleURL
        let candidate = products.appendingPathComponent("usage-shell")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return products.deletingLastPathComponent().appendingPathComponent("usage-shell")
    }

    /// The folder of the test fixtures.
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    /// Path of a fixture file.
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// Runs the binary with `arguments`, optional standard input and extra environment;
    /// `launcher` runs it through another program (`setpriv … --`).
    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], launcher: [String] = []
    ) throws -> RunResult {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }

        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [url.path] + arguments
        } else {
            process.executableURL = url
            process.arguments = arguments
        }
        var env: [String: String] = [
            "HOME": home.path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "PATH": "/usr/bin:/bin",
            "TZ": "UTC",
            "LANG": "C.UTF-8",
            "NO_COLOR": "1",
        ]
        // A sanitizer build (scripts/test-asan) gives its options to the binary too: suppressions, where reports go.
        for name in ["ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS"] {
            env[name] = ProcessInfo.processInfo.environment[name]
        }
        env.merge(environment) { $1 }
        process.environment = env
        process.currentDirectoryURL = home

        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inPipe.fileHandleForWriting.close()

        // Read both pipes concurrently so a full pipe never blocks the child.
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errBox.data = errPipe.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return RunResult(
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errBox.data, as: UTF8.self),
            status: process.terminationStatus)
    }

    /// Runs with `--format json` and parses stdout's single line as a JSON object.
    static func json(_ arguments: [String], environment: [String: String] = [:]) throws -> [String: Any] {
        let result = try run(arguments + ["--format", "json"], environment: environment)
        guard result.status == 0 else {
            throw HarnessError.failed("exit \(result.status): \(result.stderr)")
        }
        let line = result.stdout.trimmingCharacters(in: .newlines)
        guard !line.contains("\n"), let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw HarnessError.failed("not one JSON object on one line: \(result.stdout.prefix(200))")
        }
        return object
    }
}

enum HarnessError: Error {
    case failed(String)
}
