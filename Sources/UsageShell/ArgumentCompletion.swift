// ArgumentCompletion.swift — completes the program's `-c COMMAND` word (as bash, zsh or fish hand it over, its opening quote and all) as the shell's own line, through the Completer.

/// A `-c` argument completed like the prompt's line: `usage-shell -c 'chart <Tab>` offers what
/// Tab offers after `chart ` at the prompt.
public enum ArgumentCompletion {
    /// The candidates for `word`, the `-c` word before the cursor exactly as typed on the
    /// program's command line (`'chart `, `"summary la`, `cha`): each a whole value of the
    /// argument as the shell reads it (`chart hourly`, `app "Google Chrome"`), which the calling
    /// shell quotes as its word needs (inside `'…'`, inside `"…"`, or with backslashes).
    public static func candidates(word: String, complete: (String) -> Completion) -> [String] {
        let line = unquoted(word)
        let completion = complete(line)
        guard line.unicodeScalars.count >= completion.typed.unicodeScalars.count else { return [] }
        let before = String(String.UnicodeScalarView(line.unicodeScalars.dropLast(completion.typed.unicodeScalars.count)))
        return completion.candidates.map { before + $0.replacement }
    }

    /// Whether completing `word` (as `candidates` takes it) needs the shell's loaded data; a
    /// command word does not, so the shell need not open its store for it.
    public static func needsLoadedData(word: String) -> Bool {
        Completer.needsLoadedData(unquoted(word))
    }

    /// The text of a shell word begun with `'` (taken as it is), with `"` (its `\"`, `\\`, `\$`
    /// and `` \` `` unescaped), or bare (a backslash takes the next character).
    static func unquoted(_ word: String) -> String {
        var scalars = Substring(word).unicodeScalars[...]
        guard let first = scalars.first else { return "" }
        if first == "'" { return String(String.UnicodeScalarView(scalars.dropFirst())) }
        let inDoubleQuotes = first == "\""
        if inDoubleQuotes { scalars = scalars.dropFirst() }
        var out = String.UnicodeScalarView()
        var escaped = false
        for u in scalars {
            if escaped {
                if inDoubleQuotes, !"\"\\$`".unicodeScalars.contains(u) { out.append("\\") }
                out.append(u)
                escaped = false
            } else if u == "\\" {
                escaped = true
            } else {
                out.append(u)
            }
        }
        return String(out)
    }
}
