// WebHostCommandTests.swift — `usage-shell web-host` through the built binary as a browser runs it (the binary itself, with Chromium's or Firefox's arguments): messages written into the store named by USAGE_SHELL_DB, a reply for each, a broken message said in one line with status 1, the manifests it prints, and `record --enable`/`--disable` installing and removing them.
import Foundation
import TestSupport
import Testing

struct WebHostCommandTests {
    static let chromium = ["chrome-extension://hkokohmmmhbjfcpakpmkjkpeiengccap/"]

    /// A message as the browser frames it: the length in the machine's (little-endian) byte order; short, so each byte is one scalar.
    static func frame(_ json: String) -> String {
        let count = json.utf8.count
        precondition(count < 128)
        return String(String.UnicodeScalarView([Unicode.Scalar(UInt8(count)), "\u{0}", "\u{0}", "\u{0}"])) + json
    }

    final class Store {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-web-\(UUID().uuidString)")
        var path: String { folder.appendingPathComponent("store.db").path }
        init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: folder) }

        func host(_ arguments: [String], _ input: String) throws -> RunResult {
            try Binary.run(arguments, stdin: input, environment: ["USAGE_SHELL_DB": path, "USAGE_SHELL_DEVICE": "desk"])
        }

        func visits() throws -> String {
            try ProcessRun.run(["sqlite3", path, "select s.name || ' ' || v.browser || ' ' || d.name from site_visit v join site s on s.id = v.site join device d on d.id = v.device order by v.id"]).stdout
        }
    }

    @Test func chromiumsCallWritesTheSitesIntoTheStoreAndRepliesToEach() throws {
        let store = try Store()
        let r = try store.host(Self.chromium, Self.frame(#"{"site":"docs.python.org","time":1}"#) + Self.frame(#"{"site":null,"time":2}"#))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "")
        #expect(r.stdout == Self.frame(#"{"ok":true}"#) + Self.frame(#"{"ok":true}"#))
        #expect(try store.visits() == "docs.python.org chromium desk\n")
    }

    @Test func firefoxsCallIsFirefoxs() throws {
        let store = try Store()
        let r = try store.host(["/home/a/.mozilla/native-messaging-hosts/usage_shell.json", "web@usage-shell.invalid"], Self.frame(#"{"site":"localhost"}"#))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try store.visits() == "localhost firefox desk\n")
    }

    @Test func aURLInsteadOfAHostNameIsRefusedAndNotWritten() throws {
        let store = try Store()
        let r = try store.host(Self.chromium, Self.frame(#"{"site":"https://a.org/secret?q=1"}"#))
        #expect(r.status == 0)
        #expect(r.stdout == Self.frame(#"{"error":"the message names no host name","ok":false}"#))
        #expect(!(try String(contentsOfFile: store.path, encoding: .isoLatin1)).contains("secret"))
    }

    @Test func aMessageThatIsNoJSONIsOneLineAndStatus1() throws {
        let store = try Store()
        let r = try store.host(Self.chromium, Self.frame("not json"))
        #expect(r.status == 1)
        #expect(r.stderr == "usage-shell web-host: a message from the browser that is not a JSON object\n")
    }

    @Test func aLengthOverTheLimitIsOneLineAndStatus1() throws {
        let store = try Store()
        let r = try store.host(Self.chromium, "\u{0}\u{0}\u{10}\u{0}{")
        #expect(r.status == 1)
        #expect(r.stderr == "usage-shell web-host: a message of 1048576 bytes from the browser; this host takes at most 65536\n")
    }

    @Test func inputEndingInsideAMessageIsOneLineAndStatus1() throws {
        let store = try Store()
        let r = try store.host(Self.chromium, String(Self.frame(#"{"site":"a.org"}"#).prefix(9)))
        #expect(r.status == 1)
        #expect(r.stderr == "usage-shell web-host: standard input ended 9 bytes into a message\n")
    }

    @Test func runByNoBrowserItSaysSoAndWritesNothing() throws {
        let store = try Store()
        let r = try store.host(["web-host"], Self.frame(#"{"site":"a.org"}"#))
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("usage-shell web-host: no browser started this host (run by "))
        #expect(!FileManager.default.fileExists(atPath: store.path))
    }

    @Test func theManifestNamesThisBinary() throws {
        let r = try Binary.run(["web-host", "--manifest", "chrome"])
        #expect(r.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(json["path"] as? String == Binary.url.resolvingSymlinksInPath().path)
        #expect(json["allowed_origins"] as? [String] == ["chrome-extension://hkokohmmmhbjfcpakpmkjkpeiengccap/"])
        let bad = try Binary.run(["web-host", "--manifest", "safari"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("error: The value 'safari' is invalid for '--manifest <browser>'"), "\(bad.stderr)")
    }

    @Test func recordEnableInstallsTheManifestsAndDisableRemovesThem() throws {
        let home = try RecordEnableTests.Home()
        let r = try home.enable(["XDG_CURRENT_DESKTOP": "openbox", "DISPLAY": ":9"])
        let folders = [".config/chromium/NativeMessagingHosts", ".config/google-chrome/NativeMessagingHosts", ".mozilla/native-messaging-hosts"]
        for folder in folders {
            let path = home.path(folder + "/usage_shell.json")
            #expect(r.stdout.contains(path), "\(r.stdout)\(r.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
            #expect(json?["path"] as? String == Binary.url.resolvingSymlinksInPath().path)
        }
        let off = try Binary.run(
            ["record", "--disable"], environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": home.path(".config"), "PATH": home.path("bin") + ":/usr/bin:/bin"])
        #expect(off.status == 0)
        #expect(off.stdout == "disabled usage-shell-record.service\n" + folders.enumerated().map { k, folder in
            "removed \(["chromium", "chrome", "firefox"][k])'s native-messaging host: \(home.path(folder + "/usage_shell.json"))\n"
        }.joined())
        for folder in folders { #expect(!FileManager.default.fileExists(atPath: home.path(folder + "/usage_shell.json"))) }
    }
    /// Sites need the manifests, and record may run by hand where there is no systemd user
    /// session: record --enable then installed nothing at all ("nothing was changed").
    @Test func bugTheManifestsCouldOnlyBeInstalledWithTheRecordersUnit() throws {
        let home = try TemporaryFolder()
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.path(".config"), "PATH": "/usr/bin:/bin"]
        let folders = [".config/chromium/NativeMessagingHosts", ".config/google-chrome/NativeMessagingHosts", ".mozilla/native-messaging-hosts"]
        let families = ["chromium", "chrome", "firefox"]
        let on = try Binary.run(["web-host", "--install"], environment: environment)
        #expect(on.status == 0, "\(on.stderr)")
        #expect(on.stderr == "")
        #expect(on.stdout == zip(families, folders).map { "\($0)'s native-messaging host: \(home.path($1 + "/usage_shell.json"))\n" }.joined())
        for folder in folders {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: home.path(folder + "/usage_shell.json")))) as? [String: Any]
            #expect(json?["path"] as? String == Binary.url.resolvingSymlinksInPath().path)
        }
        let off = try Binary.run(["web-host", "--uninstall"], environment: environment)
        #expect(off.status == 0)
        #expect(off.stdout == zip(families, folders).map { "removed \($0)'s native-messaging host: \(home.path($1 + "/usage_shell.json"))\n" }.joined())
        for folder in folders { #expect(!FileManager.default.fileExists(atPath: home.path(folder + "/usage_shell.json"))) }
        let again = try Binary.run(["web-host", "--uninstall"], environment: environment)
        #expect(again.status == 0)
        #expect(again.stdout == "no native-messaging host manifest to remove\n")
        let both = try Binary.run(["web-host", "--install", "--manifest", "firefox"], environment: environment)
        #expect(both.status == 64)
        #expect(both.stderr.contains("error: --manifest, --install and --uninstall: one at a time"), "\(both.stderr)")
    }
}
