// BinaryHarness.swift — runs the built usage-shell binary isolated from the user and captures stdout, stderr and status.
import Foundation
import TestSupport

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
    @discardableResult static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], launcher: [String] = []
    ) throws -> RunResult {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }

        let program = launcher.first.map { URL(fileURLWithPath: $0) } ?? url
        let argv = launcher.isEmpty ? arguments : launcher.dropFirst() + [url.path] + arguments
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
        return try ProcessRun.run(program, argv, environment: env, directory: home, stdin: stdin.map { Data($0.utf8) })
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
