// TestShell.swift — the one `shell(…)` the suites of this target build theirs with: an empty model (or one on given data) in UTC at a fixed clock, the output format, and the rules and limits files a test names.
import Foundation
import UsageCore
@testable import UsageData
@testable import UsageShell

/// A shell whose model is in UTC and whose clock reads `now`: empty, or with `data` loaded (as the
/// file data.json); printing `format`; with the category rules file at `rules` and the limits file
/// at `limits` (its saves through `steps`: a failing one) when given.
func shell(
    format: OutputFormat = .table, now: Micros = fixedNow, data: Dataset? = nil, rules: String? = nil, limits: String? = nil,
    steps: AtomicFile.Steps = .system
) -> Shell {
    let model = UsageViewModel(zone: .utc, now: { now })
    if let data { model.load(.file("data.json"), repository: StubRepository(.success(data))) }
    var environment = ShellEnvironment(rulesFile: rules.map(CategoryRulesFile.init(path:)))
    if let limits {
        var file = LimitsFile(path: limits)
        file.steps = steps
        environment.limitsFile = file
    }
    return Shell(model: model, output: OutputSettings(format: format), environment: environment)
}
