// ShownViewCycleTests.swift — the last view kept for `save` holds the shell through its closures: `finish()` lets go of it, so a shell whose session is over is freed (LeakSanitizer reported the pair at every exit of a run that had shown a view).
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
