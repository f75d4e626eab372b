// BrowserFamily.swift — which browser started the native host: its family key, told from the parent process's executable and the arguments browsers pass a host.

/// A browser family: the key the store keeps a site visit under.
public enum BrowserFamily: String, CaseIterable, Sendable {
    case chromium, chrome, firefox

    /// The family of a browser executable's path (`/proc/PPID/exe`), or nil for another program.
    public static func of(executable path: String) -> BrowserFamily? {
        let lowered = path.lowercased()
        let name = lowered.split(separator: "/").last.map(String.init) ?? lowered
        if name.hasPrefix("firefox") || lowered.contains("/firefox") { return .firefox }
        if lowered.contains("/google/chrome") || name.hasPrefix("google-chrome") || lowered.contains("/google-chrome") { return .chrome }
        if name.hasPrefix("chromium") || lowered.contains("/chromium") { return .chromium }
        if name == "chrome" { return .chrome }
        return nil
    }

    /// The family the arguments tell: Chromium and Chrome pass the calling extension's origin
    /// (`chrome-extension://ID/`), Firefox the host manifest's path and the add-on's id. The origin
    /// alone does not tell Chrome from Chromium: a manifest path or the parent does.
    public static func of(arguments: [String]) -> BrowserFamily? {
        if arguments.contains(where: { $0.hasPrefix("chrome-extension://") }) {
            return arguments.contains(where: { $0.contains("google-chrome") || $0.contains("/opt/chrome") }) ? .chrome : .chromium
        }
        if arguments.contains(HostManifest.firefoxExtensionID) || arguments.contains(where: { $0.contains("mozilla") }) { return .firefox }
        return nil
    }

    /// Whether a command line is a browser starting its host: a manifest's `path` takes no
    /// arguments, so browsers run the binary itself with theirs (Chromium and Chrome: the
    /// extension's origin; Firefox: the manifest's path, then the add-on's id).
    public static func isBrowserCall(_ arguments: [String]) -> Bool {
        if let first = arguments.first, first.hasPrefix("chrome-extension://") { return true }
        return arguments.count >= 2 && arguments[0].hasSuffix("/" + HostManifest.fileName) && arguments[1] == HostManifest.firefoxExtensionID
    }

    /// The family that started this host: the parent's executable when it is a browser's (it
    /// tells Chrome from Chromium), else the arguments' family, else nil.
    public static func detect(parentExecutable: String?, arguments: [String]) -> BrowserFamily? {
        parentExecutable.flatMap(of(executable:)) ?? of(arguments: arguments)
    }
}
