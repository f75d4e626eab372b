// CompletionScripts.swift — the completion scripts `--generate-completion-script` prints: argument-parser's, with bash's root taught that the shell is the default subcommand (`usage-shell -c cha<Tab>` completes the shell's options and commands, as `usage-shell shell -c cha<Tab>` does).
import ArgumentParser

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
    /// runs the default subcommand. zsh's and fish's are argument-parser's as they are (there
    /// the shell's options complete after `usage-shell shell`).
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
        return script.replacingOccurrences(of: offer, with: alsoTheShell)
    }
}
