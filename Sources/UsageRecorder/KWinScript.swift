// KWinScript.swift — the KWin script `record --backend kde` loads (its JavaScript, KWin 5.27 and 6): on every change of the active window it calls the recorder back over the session bus with the window's resource class and process id, never its caption; the text for one recorder (its unique bus name written in), and the private file KWin reads it from.
#if canImport(Glibc)
    import Glibc
#endif
import UsageCore

/// The script and where the recorder hears it.
public enum KWinScript {
    /// The name KWin knows the script by: one per session, so a recorder killed with -9 leaves
    /// a script the next one unloads by this name before it loads its own.
    public static let pluginName = "usage-shell-record"
    /// The object the recorder exports for the script's calls, and its interface.
    public static let objectPath = "/org/usageshell/Recorder"
    public static let interface = "org.usageshell.Recorder.KWin"
    /// The method the script calls: `Focus(s resourceClass, s pid)`, both empty when no window
    /// is active (or the desktop itself is: nothing to count, as sway's empty workspace).
    public static let method = "Focus"

    /// The script as KWin runs it. KWin 6 names the signal `windowActivated` and the property
    /// `activeWindow`; KWin 5 `clientActivated` and `activeClient`. It says the active window
    /// once when it starts, so the recorder knows what is in front before anything changes.
    /// The recorder's unique name (`:1.42`) stands in RECORDER: a unique name is never given
    /// twice on a bus, so a script left by a killed recorder cannot feed the next one.
    static let template = #"""
        // usage-shell record's KWin script, written for one recorder (the bus name below) and
        // loaded by it: it tells which app is in front, by the active window's resource class
        // and process id. It never reads a window's caption.
        "use strict";
        const recorder = "RECORDER";
        function tell(window) {
            const shown = window && !window.desktopWindow;
            callDBus(recorder, "OBJECT_PATH", "INTERFACE", "METHOD",
                     shown ? String(window.resourceClass || "") : "", shown ? String(window.pid || 0) : "");
        }
        if (workspace.windowActivated !== undefined) {
            workspace.windowActivated.connect(tell);
            tell(workspace.activeWindow);
        } else {
            workspace.clientActivated.connect(tell);
            tell(workspace.activeClient);
        }

        """#

    /// The script for the recorder whose unique bus name is `recorder`; nil when that is not a
    /// unique name (`:` then dot-separated digits and letters), which nothing else may stand in.
    public static func text(recorder: String) -> String? {
        guard isUniqueName(recorder) else { return nil }
        return
            template
            .replacing("RECORDER", with: recorder)
            .replacing("OBJECT_PATH", with: objectPath)
            .replacing("INTERFACE", with: interface)
            .replacing("METHOD", with: method)
    }

    /// Whether `name` is a D-Bus unique connection name (`:1.42`).
    static func isUniqueName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count >= 4, bytes.count <= 255, bytes[0] == UInt8(ascii: ":") else { return false }
        let parts = bytes.dropFirst().split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count >= 2
            && parts.allSatisfy { part in
                !part.isEmpty && part.allSatisfy { b in (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 95 || b == 45 }
            }
    }

    /// What a call of the script says: the app (the resource class repaired and capped, else
    /// the process's name, else "unknown" for a window that tells neither), or nil when no
    /// window is active.
    public static func app(resourceClass: String, pid: String) -> String? {
        if pid.isEmpty && resourceClass.isEmpty { return nil }
        if let name = AppName.capped(resourceClass) { return name }
        if let number = Int32(pid), let name = AppName.ofProcess(number) { return name }
        return Normalise.unknownApp
    }

    /// The file the script is written to for KWin to read: private to the user
    /// (`$XDG_RUNTIME_DIR`, mode 0600, made anew: never through a link someone left there).
    public static func path(runtimeDirectory: String, pid: Int32) -> String {
        runtimeDirectory + "/usage-shell-kwin-\(pid).js"
    }

    /// Writes `text` to `path` (0600, replacing a file of ours left there); the reason it cannot.
    public static func write(_ text: String, to path: String) -> String? {
        unlink(path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            done += n
        }
        return nil
    }
}
