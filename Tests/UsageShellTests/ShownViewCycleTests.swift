// ShownViewCycleTests.swift — the last view kept for `save` must not hold the shell through its closures (they take it unowned), so a shell whose session is over is freed, and `finish()` lets go of the view at once (LeakSanitizer reported the pair at every exit of a run that had shown a view).
import Testing

@testable import UsageShell

@Suite struct ShownViewCycleTests {
    @Test func bugTheShownViewAndTheShellKeptEachOtherAliveAfterTheRun() {
        weak var freed: Shell?
        do {
            let shell = loadedShell()
            freed = shell
            _ = shell.execute("week")
            #expect(shell.shownView != nil)
            shell.finish()
            #expect(shell.shownView == nil)
        }
        #expect(freed == nil, "a finished shell is freed")
    }

    /// Without `finish()`: no view's kept closures hold the shell (they take it unowned), so a
    /// shell a test or a caller simply drops is freed whatever it showed last.
    @Test(arguments: [
        "show", "show compact", "chart category", "chart hourly", "chart hourly by category", "week", "days 10", "month", "summary week",
        "summary 2026-02", "apps", "apps top 3 last 7", "app Safari", "hour 18", "limits",
    ])
    func noViewKeepsTheShellAlive(view: String) {
        weak var freed: Shell?
        do {
            let shell = loadedShell()
            freed = shell
            _ = shell.execute(view)
            #expect(shell.shownView?.name != nil, "\(view) is a view that draws")
        }
        #expect(freed == nil, "after \(view), a dropped shell is freed")
    }

    @Test func aShellThatShowedNothingIsFreedToo() {
        weak var freed: Shell?
        do {
            let shell = loadedShell()
            freed = shell
            _ = shell.execute("status")
            shell.finish()
        }
        #expect(freed == nil)
    }
}
