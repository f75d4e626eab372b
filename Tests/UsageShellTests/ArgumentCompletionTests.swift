// ArgumentCompletionTests.swift — the program's `-c` word completed as the shell's line: its quote taken off, the candidates whole values of the argument as the shell reads it.
import Testing
@testable import UsageShell

struct ArgumentCompletionTests {
    static func offered(_ word: String) -> [String] {
        let shell = completionShell()
        return ArgumentCompletion.candidates(word: word) { Completer.complete($0, shell: shell) }
    }

    @Test(arguments: [
        // In single quotes, in double quotes, bare: what the prompt's Tab offers, as the whole value.
        ("'chart ", ["chart category", "chart hourly"]),
        ("'cha", ["chart"]),
        ("\"summary la", ["summary last"]),
        ("chart", ["chart"]),
        ("'chart h by ", ["chart h by app", "chart h by category"]),
        ("'app Goo", ["app \"Google Chrome\"", "app \"Google Docs\""]),
        ("\"app \\\"Google C", ["app \"Google Chrome\""]),
        ("day\\ ye", ["day yesterday"]),
        ("'app Say", ["app \"Say \\\"hi\\\"\""]),
        ("'load ~/", ["load \"~/My Data/"]),
    ])
    func bugTheCommandArgumentCompletedOnlyCommandNames(word: String, expected: [String]) {
        #expect(Self.offered(word) == expected, "\(word)")
    }

    @Test(arguments: [
        ("'chart ", "chart "),
        ("\"a \\\"b\\\" \\$x \\n", "a \"b\" $x \\n"),
        ("a\\ b", "a b"),
        ("'it\\", "it\\"),
        ("", ""),
    ])
    func theWordUnquoted(word: String, line: String) {
        #expect(ArgumentCompletion.unquoted(word) == line)
    }
}
