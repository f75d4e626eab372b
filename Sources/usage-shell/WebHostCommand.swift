// WebHostCommand.swift — `usage-shell web-host`: the browsers' native-messaging host (the browser family told, the store opened as `record` opens it, then UsageRecorder's WebHost loop), `--manifest FAMILY`, the host manifest a browser reads, and `--install`/`--uninstall`, those manifests in the user's folders without `record --enable`'s unit. Thin by design.
import ArgumentParser
import Foundation
import UsageCore
import UsageRecorder
import UsageRender
import UsageStore

#if canImport(Glibc)
    import Glibc
#endif

extension BrowserFamily: ExpressibleByArgument {
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

struct WebHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web-host",
        abstract: "The browser extension's native-messaging host: the site in front in the browser, written into the store.",
        discussion: """
            Browsers start it (they run the usage-shell binary with their own arguments, which it \
            recognises); it reads the extension's messages on standard input, each the host name in \
            front or "no site", never a path, query or title, and writes them into the store that record \
            writes to, as the device record writes as, again every 5 s, and "no site" when standard \
            input ends. Nothing listens on any port. record --enable installs the manifests for \
            Chromium, Chrome and Firefox; --install installs only them (with record run by hand, \
            without a systemd user session). Exit status: 0 when the browser closed the conversation, \
            1 when a message broke the protocol or the store cannot be opened (said in one line).
            """)

    @Option(help: ArgumentHelp("Print the host manifest for chromium, chrome or firefox (its path: this binary) and exit.", valueName: "browser"))
    var manifest: BrowserFamily?

    @Flag(help: "Install the host manifests for Chromium, Chrome and Firefox in your folders (as record --enable does, without the recorder's unit) and exit.")
    var install = false

    @Flag(help: "Remove the host manifests --install (or record --enable) wrote and exit.")
    var uninstall = false

    /// What the browser passes: Chromium's and Chrome's extension origin, Firefox's manifest path and add-on id.
    @Argument(help: ArgumentHelp("What the browser passes (read to tell which browser started it).", visibility: .hidden))
    var caller: [String] = []

    @OptionGroup var shared: SharedOptions

    func run() throws {
        if [manifest != nil, install, uninstall].filter({ $0 }).count > 1 { throw ValidationError("--manifest, --install and --uninstall: one at a time") }
        if let manifest {
            StandardStream.output.write(HostManifest.text(for: manifest, executable: Self.executable))
            return
        }
        if install || uninstall {
            let environment = ProcessInfo.processInfo.environment
            let said = install
                ? HostManifestFiles.install(environment: environment, executable: Self.executable)
                : HostManifestFiles.remove(environment: environment)
            let lines = said.isEmpty ? ["no native-messaging host manifest to remove"] : said
            StandardStream.output.write(lines.map { TerminalText.sanitize($0) + "\n" }.joined())
            if said.contains(where: { $0.contains("cannot ") }) { throw ExitCode(1) }
            return
        }
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let parent = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(getppid())/exe")
        guard let family = BrowserFamily.detect(parentExecutable: parent, arguments: caller) else {
            throw Self.failure("no browser started this host (run by \(parent ?? "an unknown program")); browsers start it through the manifest 'usage-shell web-host --manifest chromium' prints")
        }
        let device = shared.device ?? Devices.local
        guard let location = OpenStores.shared.location(named: shared.db, environment: environment) else {
            throw Self.failure("no store: HOME is unset")
        }
        let store: any StoreWriter
        do {
            store = try OpenStores.shared.writer(location)
        } catch {
            throw Self.failure(error.description)
        }
        let host = WebHost(
            now: RecorderClock.wall,
            write: { (site, at) throws in try store.siteSeen(site, browser: family.rawValue, device: device, at: at) },
            warn: { StandardStream.error.write("usage-shell web-host: " + TerminalText.sanitize($0) + "\n") })
        do {
            try host.run()
        } catch {
            OpenStores.shared.closeAll()
            throw Self.failure(error.description)
        }
        OpenStores.shared.closeAll()
    }

    /// This binary's absolute path: what a manifest names.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    private static func failure(_ line: String) -> ExitCode {
        StandardStream.error.write("usage-shell web-host: " + TerminalText.sanitize(line) + "\n")
        return ExitCode(1)
    }
}
