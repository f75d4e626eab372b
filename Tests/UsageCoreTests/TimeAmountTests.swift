// TimeAmountTests.swift — amounts of time as typed for `watch` and the stream timeout: a plain decimal number with an optional unit, nothing else.
import Testing
import UsageCore

@Suite struct TimeAmountTests {
    @Test(arguments: [("5", 5.0), ("0.5", 0.5), ("90s", 90), ("2m", 120), ("1H", 3600), ("1.5h", 5400), ("0", 0)] as [(String, Double)])
    func amountsAreSecondsMinutesOrHours(text: String, seconds: Double) {
        #expect(TimeAmount.seconds(text) == seconds)
    }

    @Test(arguments: ["", "s", "-1", "+5", "1e3", "inf", "nan", "2 m", "5d", "٣", "abc", "1..2"])
    func anythingElseIsNotAnAmount(text: String) {
        #expect(TimeAmount.seconds(text) == nil)
    }
}
