// LimitsFileTests.swift — the limits file: round trip, atomic writes, a corrupt file set aside with its path reported.
import Foundation
import Testing
import UsageCore
@testable import UsageData

struct LimitsFileTests {
    func folder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString)")
        return url.path
    }

    @Test func limitsSurviveAWriteAndARead() throws {
        let file = LimitsFile(path: try folder() + "/usage-shell/limits.json")
        #expect(try file.load() == [])
        let limits = [
            UsageLimit(target: .app("Safari \"beta\" é"), micros: 1_800_000_000),
            UsageLimit(target: .category("Social/Chat"), micros: 5_400_000_000),
        ]
        try file.save(limits)
        #expect(try file.load() == limits)
        try file.save([])
        #expect(try file.load() == [])
    }

    @Test(arguments: ["{bad", "[]", "{\"limits\": [{\"app\": \"A\"}]}", "{\"limits\": [{\"seconds\": 5}]}",
        "{\"limits\": [{\"app\": \"A\", \"category\": \"B\", \"seconds\": 5}]}", "{\"limits\": [{\"app\": \"A\", \"seconds\": -1}]}"])
    func aCorruptFileIsSetAsideAndNamed(text: String) throws {
        let dir = try folder()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/limits.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let file = LimitsFile(path: path)
        #expect(throws: LimitsFileError.self) { try file.load() }
        do {
            _ = try file.load()
        } catch {
            Issue.record("the second load should find no file: \(error)")
        }
        // The bad file is kept, byte for byte, beside.
        #expect(try String(contentsOfFile: path + ".corrupt", encoding: .utf8) == text)
        // A second corrupt file does not overwrite the first one kept aside.
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try file.load()
            Issue.record("expected a corrupt-file error")
        } catch {
            #expect(error == .corrupt(path: path, problem: error.problem, keptAs: path + ".corrupt-2"))
            #expect(error.description.contains("'\(path)'"))
        }
    }

    @Test func theDefaultPathFollowsXDGConfigHome() {
        #expect(LimitsFile.defaultPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/usage-shell/limits.json")
        #expect(LimitsFile.defaultPath(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h"]) == "/h/.config/usage-shell/limits.json")
        #expect(LimitsFile.defaultPath(environment: [:]) == nil)
    }
}

extension LimitsFileError {
    fileprivate var problem: String {
        if case .corrupt(_, let problem, _) = self { return problem }
        return ""
    }
}
