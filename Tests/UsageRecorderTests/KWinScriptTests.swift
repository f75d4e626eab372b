// KWinScriptTests.swift — issue 42 item 2 without KWin: the script written for one recorder (its unique bus name, and nothing else, stands in it; it never reads a caption), what its calls mean as an app, and its private file. KWin running it is Tests/Recorder/kde_cases.py.
#if canImport(Glibc)
    import Glibc
#endif
import Testing
import UsageRecorder

struct KWinScriptTests {
    @Test func item2TheScriptCallsBackThisRecorderOnly() throws {
        let text = try #require(KWinScript.text(recorder: ":1.42"))
        #expect(text.contains(#"const recorder = ":1.42";"#))
        #expect(text.contains(#"callDBus(recorder, "/org/usageshell/Recorder", "org.usageshell.Recorder.KWin", "Focus","#))
        // KWin 6's names first, KWin 5's otherwise; the active window told once at the start.
        #expect(text.contains("workspace.windowActivated.connect(tell);\n    tell(workspace.activeWindow);"))
        #expect(text.contains("workspace.clientActivated.connect(tell);\n    tell(workspace.activeClient);"))
        #expect(text.contains("String(window.resourceClass || \"\")"))
        // Never a title: KWin calls it the caption.
        #expect(!text.lowercased().contains("caption(") && !text.contains(".caption"))
        #expect(!text.contains("RECORDER") && !text.contains("OBJECT_PATH") && !text.contains("INTERFACE") && !text.contains("METHOD"))
    }

    @Test func item2OnlyAUniqueNameStandsInTheScript() {
        for name in ["org.kde.KWin", ":1", ":", "", ":1.42\"; callDBus(\"evil", ":1.4 2", ":1..2", ":1.42\n"] {
            #expect(KWinScript.text(recorder: name) == nil, "\(name.debugDescription) is not a unique name")
        }
        #expect(KWinScript.text(recorder: ":1.0") != nil)
        #expect(KWinScript.text(recorder: ":x-y_1.2.3") != nil)
    }

    @Test func item2ACallIsTheClassElseTheProcessElseUnknown() {
        #expect(KWinScript.app(resourceClass: "", pid: "") == nil)
        #expect(KWinScript.app(resourceClass: "org.kde.dolphin", pid: "1234") == "org.kde.dolphin")
        #expect(KWinScript.app(resourceClass: "  firefox \n", pid: "1") == "firefox")
        #expect(KWinScript.app(resourceClass: String(repeating: "é", count: 300), pid: "1") == String(repeating: "é", count: 128))
        // No class: the process's name (this process's own, from /proc), else unknown.
        let mine = KWinScript.app(resourceClass: "", pid: String(getpid()))
        #expect(mine != nil && mine != "(unknown)")
        #expect(KWinScript.app(resourceClass: " ", pid: "0") == "(unknown)")
        #expect(KWinScript.app(resourceClass: "", pid: "not a number") == "(unknown)")
    }

    @Test func item2TheFileIsPrivateAndNeverALink() throws {
        let directory = "/tmp/usage-shell-kwin-test-\(getpid())"
        mkdir(directory, 0o700)
        defer { rmdir(directory) }
        let path = KWinScript.path(runtimeDirectory: directory, pid: 7)
        #expect(path == directory + "/usage-shell-kwin-7.js")
        defer { unlink(path) }
        #expect(KWinScript.write("first", to: path) == nil)
        #expect(KWinScript.write("second", to: path) == nil)
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o600 && info.st_mode & S_IFMT == S_IFREG)
        #expect(info.st_size == 6)
        // A link left where the file goes is replaced, never followed.
        let target = directory + "/target"
        defer { unlink(target) }
        #expect(KWinScript.write("target", to: target) == nil)
        unlink(path)
        symlink(target, path)
        #expect(KWinScript.write("through", to: path) == nil)
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(stat(target, &info) == 0 && info.st_size == 6)
        #expect(KWinScript.write("x", to: directory + "/missing/dir.js") == "No such file or directory")
    }
}
