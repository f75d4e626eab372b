// Fuzz/Support/FuzzTarget.swift — the fuzz binary's one libFuzzer entry point: each input goes to the harness of the target USAGE_SHELL_FUZZ_TARGET names (scripts/fuzz sets it), so that every target is one build.
import Foundation

/// The harness of each target of scripts/fuzz's `target_list`, by its name there; nil for a name it does not know.
func fuzzHarness(named name: String) -> ((UnsafePointer<UInt8>?, Int) -> CInt)? {
    switch name {
    case "json": fuzzJSONScanner
    case "rfc3339": fuzzRFC3339
    case "activitywatch": fuzzActivityWatch
    case "ndjson": fuzzNDJSON
    case "timewarrior": fuzzTimewarrior
    case "csv": fuzzCSV
    default: nil
    }
}

/// The harness chosen once, before the first input (libFuzzer runs on one thread).
nonisolated(unsafe) var chosenHarness: ((UnsafePointer<UInt8>?, Int) -> CInt)?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
    let name = ProcessInfo.processInfo.environment["USAGE_SHELL_FUZZ_TARGET"] ?? ""
    guard let harness = fuzzHarness(named: name) else {
        FileHandle.standardError.write(Data("fuzz: USAGE_SHELL_FUZZ_TARGET names no target of Fuzz/Support/FuzzTarget.swift: '\(name)'\n".utf8))
        exit(64)
    }
    chosenHarness = harness
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    chosenHarness!(data, size)
}
