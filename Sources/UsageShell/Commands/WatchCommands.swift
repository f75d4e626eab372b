// WatchCommands.swift — `watch [SECONDS] [COMMAND…] [--count N]`: a command shown again and again as the sources change (WatchRequest reads it; the runner's watch driver runs it).
import UsageCore

extension CommandTable {
    static let intervalSlot = Slot<Double>(
        "SECONDS", invalid: { "'\($0)' is not an interval: seconds from 0.1 to 86400 (or 2m, 1h)" }, read: WatchRequest.seconds)
    static let watchedSlot = Slot<String>.text("COMMAND", completion: [.commands])
    static let watchedArgumentSlot = Slot<String>.text("ARGUMENT")
    static let countSlot = Slot<Int>("N", invalid: { "'\($0)' is not a number of times (1 or more)" }, read: { Int($0).flatMap { $0 > 0 ? $0 : nil } })

    static let watchCommand = Command(
        "watch",
        syntax: .sequence([
            .optional(.value(intervalSlot)), .optional(.sequence([.value(watchedSlot), .many(watchedArgumentSlot)])),
            .optional(.sequence([.word("--count"), .value(countSlot)])),
        ]),
        summary: "show a command again every SECONDS (default 2; show by default) as the sources change, until Ctrl-C or q; "
            + "--count N shows it N times",
        examples: ["watch", "watch 5 show", "watch 1 day", "watch apps top 5", "watch 10 status", "watch 5 show --count 3"],
        parse: { words throws(ShellError) in
            _ = try WatchRequest.parse(words)
            return Arguments(words: words, values: [:], choices: [:], flags: [])
        }
    ) { _, args throws(ShellError) in
        .watch(try WatchRequest.parse(args.words))
    }
}
