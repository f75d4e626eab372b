// HostManifest.swift — the native-messaging host manifests of `usage-shell web-host`: their text for each browser family, the extension ids they allow, and the folder each browser reads a user's from (the system-wide ones are the packages', scripts/package).

/// The host's manifest: what a browser reads to know which program to start for the extension.
public enum HostManifest {
    /// The host's name, as the extension asks for it (`runtime.connectNative`).
    public static let hostName = "usage_shell"
    /// The extension's id in Chromium and Chrome: fixed by the public `key` in its manifest
    /// (Resources/browser/chromium.json); the first 32 hex digits of the key's SHA-256, a–p for 0–f.
    public static let chromiumExtensionID = "hkokohmmmhbjfcpakpmkjkpeiengccap"
    /// The extension's id in Firefox: its `browser_specific_settings.gecko.id`.
    public static let firefoxExtensionID = "web@usage-shell.invalid"
    /// The manifest's file name, in every browser's folder.
    public static let fileName = hostName + ".json"

    /// The manifest for `family`, naming `executable` (an absolute path) as the host.
    public static func text(for family: BrowserFamily, executable: String) -> String {
        let allowed: String
        switch family {
        case .chromium, .chrome: allowed = "\"allowed_origins\": [\"chrome-extension://\(chromiumExtensionID)/\"]"
        case .firefox: allowed = "\"allowed_extensions\": [\"\(firefoxExtensionID)\"]"
        }
        // The path is the one value not ours: escaped as a JSON string.
        let path = jsonString(executable)
        return """
            {
              "name": "\(hostName)",
              "description": "usage-shell: the site in front in this browser, never the page",
              "path": \(path),
              "type": "stdio",
              \(allowed)
            }

            """
    }

    /// The folder `family` reads a user's host manifests from (Chromium's and Chrome's under
    /// XDG_CONFIG_HOME, else ~/.config; Firefox's always under ~/.mozilla), or nil without HOME.
    public static func userFolder(for family: BrowserFamily, environment: [String: String]) -> String? {
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        switch family {
        case .chromium: return config + "/chromium/NativeMessagingHosts"
        case .chrome: return config + "/google-chrome/NativeMessagingHosts"
        case .firefox: return home + "/.mozilla/native-messaging-hosts"
        }
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
