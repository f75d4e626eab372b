// WordShapeTests.swift — the hand-written word shapes `TextReport.words` glues by match the regular expressions they replaced (built at every match, they were most of the time of a `days 31`).
import Testing
@testable import UsageRender

@Suite struct WordShapeTests {
    static let words = [
        "", "1", "12", "1,234", "1,", "1)", "1,)", "1))", ")", "(", "(1", "(1,234", "((1", "a1", "1a", "12h", "(12h", "h", "(h",
        "1h2", "٣h", "(٣h", "45m", "45min", "m", "٣m", "x45m", "1\u{301}", "1\u{301}h", "(1\u{301}", "Ⅻh", "²h", "8h", "(8h", "45m)", "0", "½h", "万h", "¼", "(½", "½m", "Ⅻ\u{301}h",
    ]

    @Test(arguments: words)
    func theShapesMatchWhatTheRegularExpressionsMatched(word: String) {
        #expect(WordShape.isCount(word, closed: true) == (word.wholeMatch(of: #/[0-9][0-9,]*[,)]?/#) != nil))
        #expect(WordShape.isCount(word, closed: false) == (word.wholeMatch(of: #/\(?[0-9][0-9,]*/#) != nil))
        #expect(WordShape.isHours(word) == (word.wholeMatch(of: #/\(?\d+h/#) != nil))
        #expect(WordShape.startsWithMinutes(word) == (word.prefixMatch(of: #/\d+m/#) != nil))
    }
}
