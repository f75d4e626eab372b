// StrictRun.swift — whether this run must check everything: a test that cannot run fails with its reason instead of skipping (scripts/test and CI).
import Foundation

public enum StrictRun {
    /// True under scripts/test (USAGE_SHELL_STRICT=1) and under CI (CI set): a missing tool or a
    /// missing permission is then a failure that names it, not a skip.
    public static var on: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["USAGE_SHELL_STRICT"] != nil || environment["CI"] != nil
    }
}
