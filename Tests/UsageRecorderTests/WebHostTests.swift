// WebHostTests.swift — the native host's parts without a browser: the framing (partial reads, several messages in one read, a length over the limit, a message that is no JSON object, input ending inside one), the host names it takes, the browser family it tells, the manifests it prints, and its loop over pipes (a reply per message, the heartbeat, "no site" at the end).
import Foundation
import Testing
import UsageCore

@testable import UsageRecorder

@Suite struct WebHostTests {
    static func frame(_ text: String) -> [UInt8] { NativeMessaging.frame(Array(text.utf8)) }

    @Test func aMessageReadOneByteAtATimeComesWholeOnceItsLastByteArrives() throws {
        var reader = FrameReader()
        let bytes = Self.frame(#"{"site":"docs.python.org","time":1}"#)
        for byte in bytes.dropLast() {
            #expect(reader.feed([byte]).messages.isEmpty)
        }
        let (messages, error) = reader.feed([bytes.last!])
        #expect(error == nil)
        #expect(messages.count == 1)
        #expect(messages[0]["site"] as? String == "docs.python.org")
        try reader.finish()
    }

    @Test func twoMessagesInOneReadAndAHalfAreTwoMessagesThenTheThird() throws {
        var reader = FrameReader()
        let third = Self.frame(#"{"site":null}"#)
        let first = reader.feed(Self.frame(#"{"site":"a.org"}"#) + Self.frame(#"{"site":"b.org"}"#) + third.prefix(5))
        #expect(first.messages.map { $0["site"] as? String } == ["a.org", "b.org"])
        let rest = reader.feed(third.dropFirst(5)).messages
        #expect(rest.count == 1 && rest[0]["site"] is NSNull)
    }

    @Test func theLengthIsInTheMachinesByteOrder() {
        #expect(Self.frame("{}") == [2, 0, 0, 0, 0x7B, 0x7D])
    }

    @Test func aLengthOverTheLimitIsRefusedBeforeItsBytesAreRead() {
        var reader = FrameReader()
        let length = NativeMessaging.incomingLimit + 1
        #expect(reader.feed(withUnsafeBytes(of: length) { Array($0) }).error == .tooLong(length))
        #expect(NativeMessagingError.tooLong(length).description == "a message of 65537 bytes from the browser; this host takes at most 65536")
    }

    @Test func aMessageThatIsNoJSONObjectIsRefusedAfterTheGoodOnesBeforeIt() {
        for text in ["not json", "[1,2]", "\"docs.python.org\""] {
            var reader = FrameReader()
            let (messages, error) = reader.feed(Self.frame(#"{"site":"a.org"}"#) + Self.frame(text))
            #expect(messages.count == 1 && error == .notJSON)
        }
        #expect(NativeMessagingError.notJSON.description == "a message from the browser that is not a JSON object")
    }

    @Test func inputEndingInsideAMessageIsAnError() throws {
        var reader = FrameReader()
        _ = reader.feed(Self.frame(#"{"site":"a.org"}"#).prefix(7))
        #expect(throws: NativeMessagingError.truncated(7)) { try reader.finish() }
        #expect(NativeMessagingError.truncated(7).description == "standard input ended 7 bytes into a message")
    }

    @Test(arguments: [
        ("docs.python.org", "docs.python.org"), ("Docs.Python.ORG.", "docs.python.org"), ("127.0.0.1", "127.0.0.1"), ("localhost", "localhost"),
        ("[::1]", "[::1]"), ("xn--bcher-kva.example", "xn--bcher-kva.example"),
    ])
    func aHostNameIsTakenLowercased(text: String, host: String) {
        #expect(WebMessage.hostName(text) == host)
    }

    @Test(arguments: [
        "https://docs.python.org/3/", "docs.python.org/3/library", "a.org?q=secret", "a.org#top", "Python 3 docs", "", "a..org",
        "a.org:8000", String(repeating: "a", count: 64) + ".org", "[::1]/x",
    ])
    func anythingButAHostNameIsRefused(text: String) {
        #expect(WebMessage.hostName(text) == nil)
        #expect(WebMessage.site(of: ["site": text]) == nil)
    }

    @Test func aNullSiteIsNoSiteAndAMessageWithoutOneIsRefused() {
        #expect(WebMessage.site(of: ["site": NSNull(), "time": 1]) == WebSite.none)
        #expect(WebMessage.site(of: ["time": 1]) == nil)
        #expect(WebMessage.site(of: ["site": 3]) == nil)
    }

    @Test(arguments: [
        ("/usr/lib/chromium/chromium", BrowserFamily.chromium), ("/snap/chromium/2/usr/lib/chromium-browser/chrome", .chromium),
        ("/opt/google/chrome/chrome", .chrome), ("/usr/lib/firefox-esr/firefox-esr", .firefox), ("/usr/lib/firefox/firefox", .firefox),
        ("/opt/firefox-developer-edition/firefox-bin", .firefox),
    ])
    func theParentsExecutableTellsTheFamily(path: String, family: BrowserFamily) {
        #expect(BrowserFamily.of(executable: path) == family)
        #expect(BrowserFamily.detect(parentExecutable: path, arguments: []) == family)
    }

    @Test func theArgumentsTellTheFamilyWhenTheParentIsNoBrowser() {
        let chromium = ["chrome-extension://\(HostManifest.chromiumExtensionID)/"]
        let firefox = ["/home/a/.mozilla/native-messaging-hosts/usage_shell.json", HostManifest.firefoxExtensionID]
        #expect(BrowserFamily.detect(parentExecutable: "/usr/bin/dash", arguments: chromium) == .chromium)
        #expect(BrowserFamily.detect(parentExecutable: nil, arguments: firefox) == .firefox)
        #expect(BrowserFamily.detect(parentExecutable: "/opt/google/chrome/chrome", arguments: chromium) == .chrome)
        #expect(BrowserFamily.detect(parentExecutable: "/usr/bin/bash", arguments: []) == nil)
        #expect(BrowserFamily.detect(parentExecutable: "/usr/bin/bash", arguments: ["web-host"]) == nil)
    }

    @Test func aBrowsersCallIsToldFromACommandLine() {
        #expect(BrowserFamily.isBrowserCall(["chrome-extension://\(HostManifest.chromiumExtensionID)/"]))
        #expect(BrowserFamily.isBrowserCall(["/usr/lib/mozilla/native-messaging-hosts/usage_shell.json", HostManifest.firefoxExtensionID]))
        #expect(!BrowserFamily.isBrowserCall(["import", "a.json"]))
        #expect(!BrowserFamily.isBrowserCall(["usage_shell.json", "web@usage-shell.invalid"]))
        #expect(!BrowserFamily.isBrowserCall([]))
    }

    @Test func eachManifestNamesTheBinaryAndAllowsOnlyTheExtension() throws {
        for family in BrowserFamily.allCases {
            let text = HostManifest.text(for: family, executable: "/usr/bin/usage \"shell\"")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(json["name"] as? String == "usage_shell")
            #expect(json["type"] as? String == "stdio")
            #expect(json["path"] as? String == "/usr/bin/usage \"shell\"")
            if family == .firefox {
                #expect(json["allowed_extensions"] as? [String] == ["web@usage-shell.invalid"])
                #expect(json["allowed_origins"] == nil)
            } else {
                #expect(json["allowed_origins"] as? [String] == ["chrome-extension://hkokohmmmhbjfcpakpmkjkpeiengccap/"])
                #expect(json["allowed_extensions"] == nil)
            }
        }
    }

    @Test func theChromiumIDIsTheKeysHash() throws {
        // The id Chromium gives an unpacked extension with a `key`: SHA-256 of the key's DER bytes, 32 hex digits as a–p.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: source.appendingPathComponent("Resources/browser/chromium.json"))) as? [String: Any]
        let text = try #require(manifest?["key"] as? String)
        let key = try #require(Data(base64Encoded: text))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(key)
        try input.fileHandleForWriting.close()
        let hex = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(32)
        process.waitUntilExit()
        let id = String(hex.map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0.hexDigitValue!))) })
        #expect(id == HostManifest.chromiumExtensionID)
    }

    @Test func theUserFoldersFollowXDGConfigHomeForChromiumOnly() {
        let environment = ["HOME": "/home/a", "XDG_CONFIG_HOME": "/cfg"]
        #expect(HostManifest.userFolder(for: .chromium, environment: environment) == "/cfg/chromium/NativeMessagingHosts")
        #expect(HostManifest.userFolder(for: .chrome, environment: environment) == "/cfg/google-chrome/NativeMessagingHosts")
        #expect(HostManifest.userFolder(for: .firefox, environment: environment) == "/home/a/.mozilla/native-messaging-hosts")
        #expect(HostManifest.userFolder(for: .chromium, environment: ["HOME": "/home/a"]) == "/home/a/.config/chromium/NativeMessagingHosts")
        #expect(HostManifest.userFolder(for: .firefox, environment: [:]) == nil)
    }

    /// The loop over two pipes: what it writes and replies, with a 50 ms heartbeat.
    final class Conversation: @unchecked Sendable {
        var writes: [(String?, Micros)] = []
        var warnings: [String] = []
        let toHost: (read: Int32, write: Int32)
        let fromHost: (read: Int32, write: Int32)
        var clock: Micros = 1_000_000

        init() {
            var a: [Int32] = [0, 0], b: [Int32] = [0, 0]
            _ = pipe(&a)
            _ = pipe(&b)
            toHost = (a[0], a[1])
            fromHost = (b[0], b[1])
        }

        func host(heartbeat: Micros = 5_000_000, refuse: Bool = false) -> WebHost {
            WebHost(
                input: toHost.read, output: fromHost.write, heartbeat: heartbeat,
                now: { [unowned self] in self.clock += 1000; return self.clock },
                write: { [unowned self] site, at in
                    self.writes.append((site, at))
                    if refuse { throw NativeMessagingError.io("locked") }
                },
                warn: { [unowned self] in self.warnings.append($0) })
        }

        func send(_ text: String) {
            let bytes = WebHostTests.frame(text)
            _ = bytes.withUnsafeBytes { write(toHost.write, $0.baseAddress, $0.count) }
        }

        func replies() -> [String] {
            var out: [String] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let flags = fcntl(fromHost.read, F_GETFL)
            _ = fcntl(fromHost.read, F_SETFL, flags | O_NONBLOCK)
            let count = buffer.withUnsafeMutableBytes { read(fromHost.read, $0.baseAddress, $0.count) }
            var bytes = Array(buffer.prefix(max(0, count)))
            while bytes.count >= 4 {
                let length = Int(bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
                out.append(String(decoding: bytes[4..<(4 + length)], as: UTF8.self))
                bytes.removeFirst(4 + length)
            }
            return out
        }

        deinit { for fd in [toHost.read, toHost.write, fromHost.read, fromHost.write] { close(fd) } }
    }

    @Test func eachMessageIsWrittenAndRepliedToAndTheEndIsNoSite() throws {
        let talk = Conversation()
        talk.send(#"{"site":"docs.python.org","time":1}"#)
        talk.send(#"{"site":"https://a.org/secret?q=1","time":2}"#)
        talk.send(#"{"site":null,"time":3}"#)
        close(talk.toHost.write)
        try talk.host().run()
        #expect(talk.writes.map(\.0) == ["docs.python.org", nil, nil])
        #expect(talk.replies() == [#"{"ok":true}"#, #"{"error":"the message names no host name","ok":false}"#, #"{"ok":true}"#])
    }

    @Test func theSiteIsWrittenAgainAtEachHeartbeat() throws {
        let talk = Conversation()
        talk.send(#"{"site":"a.org","time":1}"#)
        let host = talk.host(heartbeat: 50_000)
        let writer = talk.toHost.write
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.4) { close(writer) }
        // The test's clock moves 1 ms a look: the real wait is poll's, at most 50 ms.
        try host.run()
        #expect(talk.writes.count >= 3)
        #expect(talk.writes.dropLast().allSatisfy { $0.0 == "a.org" })
        #expect(talk.writes.last!.0 == nil)
    }

    @Test func aBrokenMessageEndsTheConversationWithNoSite() {
        let talk = Conversation()
        talk.send(#"{"site":"a.org"}"#)
        talk.send("not json")
        #expect(throws: NativeMessagingError.notJSON) { try talk.host().run() }
        #expect(talk.writes.map(\.0) == ["a.org", nil])
    }

    @Test func aStoreThatRefusesIsSaidAndRepliedAndTheConversationGoesOn() throws {
        let talk = Conversation()
        talk.send(#"{"site":"a.org"}"#)
        talk.send(#"{"site":"b.org"}"#)
        close(talk.toHost.write)
        try talk.host(refuse: true).run()
        #expect(talk.writes.map(\.0) == ["a.org", "b.org", nil])
        #expect(talk.warnings.first == "the store refused the site: locked")
        #expect(talk.replies().first == #"{"error":"the store refused the site: locked","ok":false}"#)
    }
}
