// BrowserApps.swift — which apps are which browser: the one place that says that a browser family's site visits (chromium, chrome, firefox) count only while one of its apps is in front.

/// The browser families whose sites are recorded, and the app names each goes by on a desktop.
public enum BrowserApps {
    /// The family keys, as the native host and the store write them.
    public static let families = ["chromium", "chrome", "firefox"]

    /// Whether `app` (as the recorder or an import names it) is a window of `family`'s browser;
    /// the names are compared without case.
    public static func isApp(_ app: String, of family: String) -> Bool {
        let name = app.lowercased()
        switch family {
        case "chromium": return ["chromium", "chromium-browser"].contains(name)
        case "chrome": return ["google-chrome", "google chrome"].contains(name)
        case "firefox": return name.hasPrefix("firefox") || name == "navigator"
        default: return false
        }
    }

    /// The family of an ActivityWatch aw-watcher-web bucket's browser (the `chrome` of
    /// `aw-watcher-web-chrome`, compared without case), or nil for a browser none of these is
    /// (Edge, Brave, Opera, Vivaldi, Safari…: their visits are not read, as no app is known
    /// to be theirs to count them against).
    public static func family(ofWatcher browser: String) -> String? {
        let name = browser.lowercased()
        return families.contains(name) ? name : nil
    }

    /// How a view names `family`'s browser, as its app is named on a desktop (`Chromium`,
    /// `Google Chrome`, `Firefox`), never the store's key; another key as it is.
    public static func shownName(ofFamily family: String) -> String {
        switch family {
        case "chromium": return "Chromium"
        case "chrome": return "Google Chrome"
        case "firefox": return "Firefox"
        default: return family
        }
    }

    /// The family `app` belongs to, or nil for an app that is no browser of these.
    public static func family(ofApp app: String) -> String? {
        families.first { isApp(app, of: $0) }
    }
}
