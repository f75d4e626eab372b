// Completer.swift — context-aware tab completion from the command table and the loaded data; no terminal involved.
import UsageCore
import UsageData
import UsageRender

/// What a command's next argument can be; each command says so in the command table.
public enum ArgumentKind: Sendable, Equatable {
    /// Fixed words (`hourly`, `top`, `tz`).
    case keywords([String])
    /// Command names (`help COMMAND`).
    case commands
    /// App names of the loaded data.
    case apps
    /// Category names of the loaded data.
    case categories
    /// Dates of the loaded range, and the relative words of `day`.
    case days
    /// Hour numbers 0–23.
    case hours
    /// File paths.
    case paths
    /// Time zone names.
    case zones
    /// The tracker's task names (not deleted).
    case tasks
    /// The tracker's categories.
    case trackerCategories
    /// The store's devices.
    case devices
    /// The tracker's interval ids (`@12`), the latest first.
    case sessions
}

/// One way to complete the word under the cursor.
public struct CompletionCandidate: Equatable, Sendable {
    /// The text that replaces the typed word (quoted when it holds spaces; in `$'…'` with its
    /// controls escaped when it holds any, so the edited line never shows them raw).
    public let replacement: String
    /// What the list shows (the plain value; a directory ends in `/`).
    public let display: String
    /// Whether the word is finished (a space follows); a directory is not.
    public let isFinal: Bool
}

/// The result of pressing Tab.
public struct Completion: Equatable, Sendable {
    /// The word under the cursor exactly as typed: what gets replaced.
    public let typed: String
    /// Every match, in list order.
    public let candidates: [CompletionCandidate]
    /// With several matches: what they all begin with, as replacement text, when that is longer
    /// than what was typed.
    public let commonPrefix: String?
}

/// Completes command lines: command names first, then each command's arguments by kind.
public enum Completer {
    /// The completions of `line`, the text before the cursor.
    public static func complete(_ line: String, shell: Shell) -> Completion {
        let (partial, wanted) = self.wanted(line)
        let values: [(value: String, isFinal: Bool)]
        switch wanted {
        case .commands(let names):
            values = names.map { ($0, true) }
        case .arguments(let kinds):
            values = kinds.flatMap { self.values(of: $0, typed: partial.current, shell: shell) }
        }
        let matches = filter(values, prefix: partial.current)
        let candidates = matches.map { match in
            CompletionCandidate(
                replacement: match.isFinal ? Tokenizer.quoted(match.value) : openQuoted(match.value),
                display: match.value, isFinal: match.isFinal)
        }
        var common: String?
        if candidates.count > 1 {
            let prefix = longestCommonPrefix(matches.map(\.value))
            if prefix.count > partial.current.count { common = openQuoted(prefix) }
        }
        return Completion(typed: partial.typed, candidates: candidates, commonPrefix: common)
    }

    /// What the word under the cursor of a line can be: command names (the command word, or the
    /// command `watch` watches), or the arguments of these kinds.
    enum Wanted: Equatable {
        case commands([String])
        case arguments([ArgumentKind])
    }

    /// The line split for completion (a `watch` line from its watched command on) and what its
    /// word under the cursor can be; nothing is read for it.
    static func wanted(_ line: String) -> (PartialLine, Wanted) {
        var partial = Tokenizer.partial(line)
        let watching = partial.words.first.map { (try? CommandTable.resolve($0).get())?.name == "watch" } ?? false
        if watching { partial.words = watchedWords(partial.words) }
        if watching, partial.words.isEmpty {
            // `watch [SECONDS] ` then the commands it can watch.
            return (partial, .commands(CommandTable.all.filter { $0.watchRole([]) != .refused }.map(\.name)))
        } else if partial.words.isEmpty {
            let lower = partial.current.lowercased()
            if let owner = CommandTable.all.first(where: { $0.abbreviations.contains(lower) }) {
                return (partial, .commands([owner.name]))  // `ch` is `chart`, whatever else begins so
            }
            return (partial, .commands(CommandTable.names))
        } else if case .success(let command) = CommandTable.resolve(partial.words[0]) {
            return (partial, .arguments(command.completions(after: Array(partial.words.dropFirst()))))
        }
        return (partial, .arguments([]))
    }

    /// Whether completing `line` needs the loaded data (its apps, categories or days): a shell
    /// that completes it must have loaded its source first. Command names, keywords, paths,
    /// zones and what the store is asked for directly (tasks, devices, ids) need none.
    public static func needsLoadedData(_ line: String) -> Bool {
        guard case .arguments(let kinds) = wanted(line).1 else { return false }
        return kinds.contains { $0 == .apps || $0 == .categories || $0 == .days }
    }

    /// The words of a `watch` line from its command on: `watch`, the interval and `--count N`
    /// dropped, so the watched command completes as it would alone.
    static func watchedWords(_ words: [String]) -> [String] {
        var rest = Array(words.dropFirst())
        while let k = rest.firstIndex(of: "--count") { rest.removeSubrange(k..<min(k + 2, rest.count)) }
        rest.removeAll { $0.hasPrefix("--count=") }
        if let first = rest.first, WatchRequest.seconds(first) != nil { rest.removeFirst() }
        return rest
    }

    /// Values starting with `prefix`: exact-case matches if any, else ignoring case; duplicates
    /// dropped. Compared by scalars: `é` and `e` + U+0301 are two names (Swift's `==` merges them).
    static func filter(_ values: [(value: String, isFinal: Bool)], prefix: String) -> [(value: String, isFinal: Bool)] {
        var seen = Set<ExactName>()
        let unique = values.filter { seen.insert(ExactName($0.value)).inserted }
        let exact = unique.filter { $0.value.unicodeScalars.starts(with: prefix.unicodeScalars) }
        if !exact.isEmpty { return exact }
        let lower = prefix.lowercased()
        return unique.filter { $0.value.lowercased().unicodeScalars.starts(with: lower.unicodeScalars) }
    }

    /// A word that will be typed on: quoted if it needs quotes (`"…"` or `$'…'`), but the
    /// closing quote left off.
    static func openQuoted(_ value: String) -> String {
        let quoted = Tokenizer.quoted(value)
        return quoted.hasPrefix("\"") || quoted.hasPrefix("$'") ? String(quoted.dropLast()) : quoted
    }

    static func longestCommonPrefix(_ values: [String]) -> String {
        guard var prefix = values.first.map(Array.init) else { return "" }
        for value in values.dropFirst() {
            let characters = Array(value)
            var n = 0
            while n < min(prefix.count, characters.count), prefix[n] == characters[n] { n += 1 }
            prefix.removeSubrange(n...)
        }
        return String(prefix)
    }

    /// The candidate values of one kind (before filtering by the typed prefix).
    static func values(of kind: ArgumentKind, typed: String, shell: Shell) -> [(value: String, isFinal: Bool)] {
        let model = shell.model
        switch kind {
        case .keywords(let words):
            return words.map { ($0, true) }
        case .commands:
            return CommandTable.names.map { ($0, true) }
        case .apps, .categories:
            // The loaded data's names, and those of the limits already read.
            let limited = CommandTable.limitNames(shell.limits.forCompletion, categories: kind == .categories)
            let names = CommandTable.uniqueByScalars((kind == .apps ? model.history.apps : model.history.categories) + limited)
            return names.sorted(by: { $0.lowercased() < $1.lowercased() }).map { ($0, true) }
        case .days:
            var days: [String] = []
            if let range = model.history.dayRange(in: model.zone), range.upperBound.daysSinceEpoch - range.lowerBound.daysSinceEpoch < 3660 {
                var day = range.lowerBound
                while day <= range.upperBound {
                    days.append(day.description)
                    day = day.adding(days: 1)
                }
            }
            return (days + DayQuery.words).map { ($0, true) }
        case .hours:
            return (0..<24).map { (String($0), true) }
        case .zones:
            return shell.environment.zoneNames().map { ($0, true) }
        case .tasks:
            shell.lookAgain()
            let tasks = ((try? shell.trackerSnapshot())?.tasks ?? []).filter { $0.deleted == nil }
            return tasks.map(\.name).sorted { $0.lowercased() < $1.lowercased() }.map { ($0, true) }
        case .sessions:
            shell.lookAgain()
            return ((try? shell.store.existing?.sessionIDs()) ?? []).map { ("@\($0)", true) }
        case .trackerCategories:
            shell.lookAgain()
            let snapshot = try? shell.trackerSnapshot()
            return ((snapshot?.categories ?? []) + [otherTaskCategory]).map { ($0, true) }
        case .devices:
            shell.lookAgain()
            return ((try? shell.store.existing?.devices()) ?? []).map { ($0.name, true) }
        case .paths:
            return paths(typed: typed, home: shell.home, list: shell.environment.listDirectory)
        }
    }

    /// File-path candidates: the entries of the typed directory (`~/` is the home) whose names
    /// begin with the typed name; directories end in `/` and are not final.
    static func paths(
        typed: String, home: String?, list: (String, Bool) -> [DirectoryEntry]?
    ) -> [(value: String, isFinal: Bool)] {
        let slash = typed.lastIndex(of: "/")
        let directoryPart = slash.map { String(typed[...$0]) } ?? ""
        let namePart = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        var directory = directoryPart
        if let home, directory == "~/" || directory.hasPrefix("~/") {
            directory = home + directory.dropFirst()
        }
        guard let entries = list(directory, namePart.hasPrefix(".")) else { return [] }
        return entries.map { entry in
            (directoryPart + entry.name + (entry.isDirectory ? "/" : ""), !entry.isDirectory)
        }
    }
}

/// Lays out a completion list in columns, as shells do.
public enum CompletionList {
    /// The names (sanitised: they may come from data) in column-major order, as many columns as fit.
    public static func columns(_ names: [String], width: Int) -> String {
        let safe = names.map(TerminalText.sanitize)
        let widest = min(safe.map(TerminalText.cells).max() ?? 0, max(1, width - 2))
        let columnWidth = widest + 2
        let columns = max(1, width / columnWidth)
        let rows = (safe.count + columns - 1) / columns
        var lines: [String] = []
        for row in 0..<rows {
            var line = ""
            for column in 0..<columns {
                let index = column * rows + row
                guard index < safe.count else { break }
                let isLast = (column + 1) * rows + row >= safe.count
                line += isLast ? TerminalText.fit(safe[index], width: widest) : TerminalText.pad(safe[index], width: columnWidth)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
