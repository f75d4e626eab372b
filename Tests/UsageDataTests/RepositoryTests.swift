// RepositoryTests.swift — the sources: the embedded sample matches its resource file, files fail with precise reasons.
import Foundation
import Testing
import TestSupport
import UsageCore
@testable import UsageData

struct BundledSampleTests {
    static let resource = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/sample-sessions.json")

    @Test func theEmbeddedSampleIsTheResourceFileByteForByte() throws {
        let file = try Data(contentsOf: Self.resource)
        #expect(Array(file) == BundledSampleRepository.bytes, "run python3 scripts/gen-sample")
    }

    @Test func theSampleIsAWeekEndingMondayWithTheOriginalsDirt() throws {
        let d = try BundledSampleRepository(zone: .utc).load(cancellation: CancellationToken(), progress: { _ in })
        #expect(d.dayRange(in: .utc).map { "\($0.lowerBound)…\($0.upperBound)" } == "2026-02-17…2026-02-23")
        #expect(d.skipped.count(.missingTimestamp) == 1)
        #expect(d.skipped.count(.endNotAfterStart) == 1)
        #expect(d.apps.contains("(unknown)"))
        #expect(d.apps.contains("Google Chrome"))
        #expect(d.categories.contains("Other"))
        let monday = DayReport(history: d, date: LocalDate(iso: "2026-02-23")!, zone: .utc)
        #expect(monday.screenTimeMicros < monday.totalMicros, "music overlaps other apps")
        #expect(monday.hours[0].micros > 0, "a session crosses midnight into Monday")
    }
}

struct SamplePlacementTests {
    /// The sample is wall-clock time: every zone sees the same Monday, with the same totals.
    @Test(arguments: ["UTC", "Asia/Tokyo", "Pacific/Auckland", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Kiritimati"])
    func bugTheSamplesMondayWasTuesdayEastOfUTC(zoneName: String) throws {
        let zone = try #require(Zone(identifier: zoneName))
        let d = try BundledSampleRepository(zone: zone).load(cancellation: CancellationToken(), progress: { _ in })
        let utc = try BundledSampleRepository(zone: .utc).load(cancellation: CancellationToken(), progress: { _ in })
        #expect(d.defaultDay(in: zone, now: 0).description == "2026-02-23")
        let monday = LocalDate(iso: "2026-02-23")!
        let here = DayReport(history: d, date: monday, zone: zone)
        let there = DayReport(history: utc, date: monday, zone: .utc)
        #expect(here.totalMicros == there.totalMicros)
        #expect(here.apps.map(\.name) == there.apps.map(\.name))
        #expect(here.hours.map(\.micros) == there.hours.map(\.micros))
    }
}

struct FileRepositoryTests {
    func load(_ path: String) -> Result<Dataset, LoadError> {
        Result { () throws(LoadError) in try FileRepository(path: path).load(cancellation: CancellationToken(), progress: { _ in }) }
    }

    @Test func aMissingFileIsNamed() {
        #expect(throws: LoadError.notFound(source: "/nonexistent/x.json")) { try load("/nonexistent/x.json").get() }
        #expect(LoadError.notFound(source: "x.json").description == "cannot load 'x.json': no such file")
    }

    @Test func aDirectoryIsNamed() throws {
        let folder = try TemporaryFolder("data")
        let dir = folder.url
        #expect(throws: LoadError.isDirectory(source: dir.path)) { try load(dir.path).get() }
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any file: EndToEndTests' HostileInputTests cover this as nobody"))
    func anUnreadableFileIsNamed() throws {
        let folder = try TemporaryFolder("data")
        let file = folder.url.appendingPathComponent("locked.json")
        try Data("[]".utf8).write(to: file)
        chmod(file.path, 0)
        #expect(throws: LoadError.permissionDenied(source: file.path)) { try load(file.path).get() }
    }

    /// Reads a pipe through `readInput` as a load would, with its own limits.
    func readPipe(limits: StreamLimits, write: [UInt8], close: Bool) throws -> Result<Int, LoadError> {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { Glibc.close(fds[0]) }
        if !write.isEmpty { _ = write.withUnsafeBytes { Glibc.write(fds[1], $0.baseAddress, $0.count) } }
        if close { Glibc.close(fds[1]) }
        defer { if !close { Glibc.close(fds[1]) } }
        return Result { () throws(LoadError) in
            try FileRepository.readInput(fd: fds[0], source: "p", limits: limits, cancellation: CancellationToken(), progress: { _ in }).count
        }
    }

    @Test func aSilentStreamStopsAtTheTimeoutAndSaysWhatArrived() throws {
        #expect(throws: LoadError.stalled(source: "p", seconds: 0.2, received: 0)) {
            try readPipe(limits: StreamLimits(timeout: 0.2), write: [], close: false).get()
        }
        #expect(throws: LoadError.stalled(source: "p", seconds: 0.2, received: 2)) {
            try readPipe(limits: StreamLimits(timeout: 0.2), write: Array("[ ".utf8), close: false).get()
        }
        #expect(try readPipe(limits: StreamLimits(timeout: 0.2), write: Array("[]".utf8), close: true).get() == 2)
        #expect(LoadError.stalled(source: "f", seconds: 30, received: 0).description
            == "cannot load 'f': nothing arrived in 30 s; is anything writing to it? (--timeout or 'set timeout' waits longer)")
        #expect(LoadError.stalled(source: "f", seconds: 1.5, received: 10).reason
            == "nothing more arrived in 1.5 s after 10 bytes (--timeout or 'set timeout' waits longer)")
    }

    @Test func aStreamLargerThanTheCapFails() throws {
        #expect(throws: LoadError.tooLarge(source: "p", limit: 16)) {
            try readPipe(limits: StreamLimits(timeout: 5, maxBytes: 16), write: Array(repeating: 0x20, count: 100), close: true).get()
        }
        #expect(LoadError.tooLarge(source: "z", limit: 1 << 30).reason == "larger than the 1 GiB a load reads")
    }

    @Test func aDeviceThatNeverEndsStopsAtTheCap() throws {
        // `/dev/zero` is a stream without end: the cap, not the timeout, stops it.
        let fd = open("/dev/zero", O_RDONLY)
        defer { close(fd) }
        #expect(throws: LoadError.tooLarge(source: "/dev/zero", limit: 1 << 20)) {
            try FileRepository.readInput(
                fd: fd, source: "/dev/zero", limits: StreamLimits(timeout: 5, maxBytes: 1 << 20),
                cancellation: CancellationToken(), progress: { _ in })
        }
    }

    @Test(arguments: [
        ("30", 30.0), ("1", 1), ("2.5", 2.5), ("90s", 90), ("2m", 120), ("1H", 3600), ("24h", 86_400),
    ] as [(String, Double)])
    func timeoutsAreSecondsOrMinutesOrHours(text: String, seconds: Double) {
        #expect(StreamLimits.seconds(text) == seconds)
    }

    @Test(arguments: ["0", "-1", "0.5", "25h", "86401", "nan", "inf", "", "m", "2 m", "abc"])
    func timeoutsOutOfRangeAreRefused(text: String) {
        #expect(StreamLimits.seconds(text) == nil)
    }

    @Test func syntaxErrorsNameTheFileLineAndColumn() throws {
        let folder = try TemporaryFolder("data")
        let file = folder.url.appendingPathComponent("broken.json")
        try Data("[\n  {\"a\": }\n]".utf8).write(to: file)
        guard case .failure(let error) = load(file.path) else {
            Issue.record("should fail")
            return
        }
        #expect(error.description == "cannot load '\(file.path)': not valid JSON at line 2, column 9: expected a value")
    }

    @Test func aFileLoads() throws {
        let folder = try TemporaryFolder("data")
        let file = folder.url.appendingPathComponent("ok.json")
        try Data(#"[{"app_name":"A","start_timestamp":"2026-02-23T10:00:00Z","end_timestamp":"2026-02-23T10:01:00Z"}]"#.utf8).write(to: file)
        let d = try load(file.path).get()
        #expect(d.sessions.count == 1)
        #expect(d.source == file.path)
    }

    @Test(arguments: [
        (nil, SourceRef.sample), (":sample:", .sample), ("x.json", .file("x.json")),
        ("~/export.json", .file("/home/u/export.json")), ("~", .file("/home/u")), ("~x/y.json", .file("~x/y.json")),
    ] as [(String?, SourceRef)])
    func sourceArguments(argument: String?, expected: SourceRef) {
        #expect(SourceRef(argument, home: "/home/u") == expected)
    }
}
