// ImportCommand.swift — `usage-shell import SOURCE…`: the shell's `import` as a command of its own, for cron and scripts, asked as the prompt's command is (one `ImportRequest`: the sources, the device, how they are read); no data loaded, no prompt; the exit status says whether it worked.
import ArgumentParser
import Foundation
import UsageCore
import UsageData
import UsageShell
import UsageStore

#if canImport(Glibc)
    import Glibc
#endif

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Put sources into the store, each session once however often they are imported (for cron).",
        discussion: "The same as the shell's 'import' command; --data-tz and --columns say how a CSV is read, as the shell's do. Ctrl-C (SIGINT) or SIGTERM cancels it, reading or writing: nothing is written. Exit status: 0 when every source was imported, 1 when any failed (then nothing was), 130 when SIGINT (Ctrl-C) cancelled it (nothing written), 143 when SIGTERM did.")

    @Argument(
        help: ArgumentHelp(
            "What to import: a file (sessions JSON, NDJSON, CSV, ActivityWatch or Timewarrior export), an http(s) URL, aw://HOST:PORT or activitywatch, - for standard input, :sample: for the bundled sample.",
            valueName: "source"),
        completion: .file())
    var sources: [String] = []

    @OptionGroup var shared: SharedOptions
    @OptionGroup var format: FormatOptions
    @OptionGroup var wait: WaitOptions
    @OptionGroup var reading: ReadingOptions

    func validate() throws {
        if sources.isEmpty { throw ValidationError("which source? (a file, -, a URL, aw://HOST:PORT or activitywatch)") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let stdinIsTerminal = isatty(STDIN_FILENO) == 1
        let shell = Wiring.shell(
            environment: environment, tz: shared.tz, timeout: wait.timeout, db: shared.db, stdin: stdinIsTerminal ? .terminal : .available,
            output: OutputSettings(format: format.format ?? .table), interactive: false)
        let runner = Runner(shell: shell, out: StandardStream.output, err: StandardStream.error)
        runner.numbersLines = false
        // The prompt's `import`, asked the same thing typed (no line is made of it).
        // Ctrl-C and SIGTERM cancel it, reading or writing: nothing is written, and a store it
        // was about to make is not left behind.
        ImportSignals.install()
        runner.run(
            ImportRequest(
                sources: sources, device: shared.device.map(Self.trimmed), dataZone: reading.zone, columns: reading.mapping,
                cancellation: importCancellation))
        // The store's log written into its file: the file alone then holds everything.
        OpenStores.shared.closeAll()
        shell.finish()
        throw ExitCode(ImportSignals.exitStatus(failed: runner.exitStatus != 0) ?? runner.exitStatus)
    }

    /// A device's name without the blanks around it, as the prompt's `import --device` reads it.
    static func trimmed(_ name: String) -> String {
        var text = Substring(name)
        while let c = text.first, c == " " || c == "\t" { text.removeFirst() }
        while let c = text.last, c == " " || c == "\t" { text.removeLast() }
        return String(text)
    }
}
