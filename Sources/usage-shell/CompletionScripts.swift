// CompletionScripts.swift — the completion scripts `--generate-completion-script` prints (argument-parser's, with bash's root taught that the shell is the default subcommand: `usage-shell -c cha<Tab>` completes the shell's options and commands, as `usage-shell shell -c cha<Tab>` does), and the `-c` completions they call back for.
import ArgumentParser
import Foundation
import UsageCore
import UsageData
import UsageShell

enum CompletionScripts {
    /// The shell named by `--generate-completion-script NAME` (or `=NAME`) when that is the
    /// whole command line; nil otherwise (argument-parser then answers as usual).
    static func requested(_ arguments: [String]) -> CompletionShell? {
        let option = "--generate-completion-script"
        if arguments.count == 2, arguments[0] == option { return CompletionShell(rawValue: arguments[1]) }
        if arguments.count == 1, arguments[0].hasPrefix(option + "=") {
            return CompletionShell(rawValue: String(arguments[0].dropFirst(option.count + 1)))
        }
        return nil
    }

    /// argument-parser's script for `shell`. In bash's, a first word that names no subcommand
    /// (an option of the shell, a SOURCE) also gets the shell's completions: argument-parser's
    /// root offers only its own options and the subcommands' names, though `usage-shell -c …`
    /// runs the default subcommand; and `-c`'s candidates, the binary's, are offered as they
    /// are. zsh's and fish's are argument-parser's as they are (there the shell's options
    /// complete after `usage-shell shell`).
    static func script(for shell: CompletionShell) -> String {
        let script = UsageShellCommand.completionScript(for: shell)
        guard shell == .bash else { return script }
        let offer = "        # Offer subcommand completions\n"
            + "        COMPREPLY+=($(compgen -W 'shell import export record web-host help' -- \"${cur}\"))\n"
        let alsoTheShell = offer
            + "        # The shell is the default subcommand: its options and their values too\n"
            + "        unparsed_words=(\"${COMP_WORDS[@]:1:${COMP_CWORD}}\")\n"
            + "        _usage-shell_shell\n"
        precondition(script.contains(offer), "argument-parser's bash script no longer has the root's subcommand offer")
        // `-c`'s candidates go to bash as they are: argument-parser's `compgen -W` would expand
        // them (quotes, `$`) and keep only those that begin with the word as bash unquoted it, and
        // `app Goo` does not begin `app "Google Chrome"`. The binary filtered them already.
        let custom = "__usage-shell_custom_complete ---completion shell -- -c \"${COMP_CWORD}\" \"$(__usage-shell_cursor_index_in_current_word)\""
        let filtered = "        __usage-shell_add_completions -W \"$(\(custom))\"\n"
        let asTheyAre = "        local completion\n"
            + "        while IFS='' read -r completion; do COMPREPLY+=(\"${completion}\"); done < <(\(custom))\n"
        precondition(script.contains(filtered), "argument-parser's bash script no longer completes -c through compgen -W")
        return script.replacingOccurrences(of: offer, with: alsoTheShell).replacingOccurrences(of: filtered, with: asTheyAre)
    }

    /// What a script offers for the `-c` word (argument-parser's custom completion: the words of
    /// the line as typed, the index of the one completed, its text before the cursor): the
    /// shell's own completions of that line (`'chart ` → `chart category`, `chart hourly`). The
    /// shell is the one the words before it would start (`--db PATH`, SOURCE…; the defaults when
    /// they do not parse), and it loads its source only when the completed word needs the loaded
    /// data's names (apps, categories, days): a command word, a keyword or a path opens no store.
    /// The text before the cursor in bash; elsewhere the whole word, as zsh's script miscounts
    /// the cursor in a quoted word (`'chart ` said to end after `'char`).
    @Sendable static func commandArgument(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        var environment = ProcessInfo.processInfo.environment
        // The shell's warning about a TZ that names no zone would land amid the line being edited.
        if let tz = environment["TZ"], Zone(identifier: tz) == nil { environment["TZ"] = nil }
        let word = CompletionShell.requesting == .bash || !words.indices.contains(index) ? prefix : words[index]
        let earlier = earlierShell(words, before: index)
        let output = OutputSettings.start(
            format: .table, color: .never, glyphs: .auto, accessible: false, width: nil, stdoutIsTerminal: false, environment: environment)
        let shell = Wiring.shell(
            environment: environment, tz: nil, timeout: nil, db: earlier?.shared.db, stdin: .consumed, output: output, interactive: false)
        if ArgumentCompletion.needsLoadedData(word: word) {
            let sources = earlier?.sources ?? []
            _ = shell.loadSource(
                sources.isEmpty
                    ? SourceRef.startingSource(store: shell.environment.store, named: shell.environment.storeNamed, stores: shell.environment.stores)
                    : SourceRef(sources, home: environment["HOME"]))
        }
        let candidates = ArgumentCompletion.candidates(word: word, complete: { Completer.complete($0, shell: shell) })
        shell.environment.stores.closeAll()
        return candidates
    }

    /// The shell the words of the command line before the `-c` word at `index` name (its
    /// `--db`, its SOURCEs), each word unquoted as the calling shell will; nil when they are not
    /// a shell's command line.
    static func earlierShell(_ words: [String], before index: Int) -> ShellCommand? {
        var arguments: [String] = []
        for typed in words.prefix(max(0, min(index, words.count))).dropFirst() {
            let word = (try? Tokenizer.words(typed)).map { $0.joined(separator: " ") } ?? typed
            // bash splits `--db=PATH` at the `=` (COMP_WORDBREAKS): joined again.
            if let last = arguments.last, last.hasPrefix("--"), last.hasSuffix("=") || word == "=" {
                arguments[arguments.count - 1] = last + word
            } else {
                arguments.append(word)
            }
        }
        if arguments.last == "-c" { arguments.removeLast() }
        // Nothing before the word (the usual `usage-shell -c '…`): the defaults, without
        // argument-parser's parse, which costs more than the rest of a command word's completion.
        if arguments.isEmpty || arguments == ["shell"] { return nil }
        return (try? UsageShellCommand.parseAsRoot(arguments)) as? ShellCommand
    }
}
