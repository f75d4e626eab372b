// GnomeExtensionEditions.swift — where `record --enable` finds the GNOME Shell extension's two editions a package installs (share/usage-shell/gnome-shell-43 and gnome-shell-45, beside the binary's prefix or in XDG_DATA_DIRS), which one a GNOME Shell version loads, where the user's copy goes, and the lines it says. Pure: the files are the caller's.

/// The GNOME Shell extension's editions as a package installs them: both, since one package
/// serves GNOME Shell 43–44 (the legacy format) and 45 and later (ES modules only), neither of
/// which loads the other's. `record --enable` copies the one the running GNOME Shell loads into
/// the user's extensions folder, where GNOME Shell finds it at the next login.
public enum GnomeExtensionEditions {
    /// The edition's folder name (under `share/usage-shell/`) for a GNOME Shell version
    /// ("43.9", "46.0"); a version it cannot read gets the newest edition, as scripts/install does.
    public static func edition(forShellVersion version: String?) -> String {
        let major = version.flatMap { Int($0.prefix { $0.isNumber }) }
        if let major, major < 45 { return "gnome-shell-43" }
        return "gnome-shell-45"
    }

    /// The folders that may hold the editions, first first: `share/usage-shell` of the prefix the
    /// program runs from (`/usr/bin/usage-shell` → `/usr/share/usage-shell`), then each of
    /// `XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`) with `/usage-shell`. Each once.
    public static func folders(executable: String?, environment: [String: String]) -> [String] {
        var out: [String] = []
        if let executable, executable.hasPrefix("/") {
            let parts = executable.split(separator: "/", omittingEmptySubsequences: true)
            if parts.count >= 2, parts[parts.count - 2] == "bin" {
                out.append("/" + parts.dropLast(2).map(String.init).joined(separator: "/") + (parts.count > 2 ? "/" : "") + "share/usage-shell")
            }
        }
        let dirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        for dir in dirs.split(separator: ":") where dir.hasPrefix("/") {
            out.append((dir.hasSuffix("/") ? String(dir.dropLast()) : String(dir)) + "/usage-shell")
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }

    /// The edition's extension folder (holding metadata.json and extension.js) under each of `folders`.
    public static func sources(_ folders: [String], edition: String) -> [String] {
        folders.map { "\($0)/\(edition)/\(GnomeBackend.uuid)" }
    }

    /// The user's copy: `$XDG_DATA_HOME/gnome-shell/extensions/UUID` (else `~/.local/share/…`),
    /// where GNOME Shell looks for a user's extensions.
    public static func userFolder(environment: [String: String]) -> String {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((environment["HOME"] ?? "~") + "/.local/share")
        return data + "/gnome-shell/extensions/" + GnomeBackend.uuid
    }

    /// What `record --enable` says once it has copied `source` to `target` for GNOME Shell
    /// `version`: GNOME Shell reads a new extension only at login, so the set-up is finished by
    /// running it again then.
    public static func installedLine(version: String?, source: String, target: String) -> String {
        "installed the usage-shell GNOME Shell extension for GNOME Shell \(version ?? "45 or later") in \(target) (from \(source)); "
            + "GNOME Shell finds a new extension at login: log out and in, then run usage-shell record --enable again"
    }

    /// The plan once the copy is made (or failed: `problem`): as a problem GNOME reported, a
    /// refusal under Wayland and a note under X11, except that the copy is not "nothing changed".
    public static func plan(installed line: String, sessionType: String?) -> GnomeExtensionSetUp.Plan {
        sessionType == "x11"
            ? .say("note: \(line); until then the recorder reads this X11 session as any other")
            : .refuse(line + "; the unit was not set up yet")
    }
}
