// ActivityWatchWebTests.swift — aw-watcher-web's buckets read as site visits (docs/DATA.md §9.5): the host name alone of each web event, of its device and browser family; incognito tabs, non-web pages and unknown browsers dropped; the path and title never kept.
import Foundation
import Testing
import TestSupport
@testable import UsageFormats
@testable import UsageCore

@Suite struct ActivityWatchWebTests {
    static func parts(_ text: String) throws -> [DevicePart] {
        try Array(text.utf8).withUnsafeBufferPointer { b throws(IngestError) in try SourceFormat.decodeByDevice(b, source: "export.json") }
    }

    /// `browser site HH:MM..HH:MM` (UTC, on the export's day).
    static func described(_ visits: [BrowserVisit]) -> [String] {
        let midnight = instant("2026-03-02T00:00:00Z")
        func clock(_ t: Micros) -> String {
            let minutes = (t - midnight) / 60_000_000
            return String(format: "%02d:%02d", minutes / 60, minutes % 60)
        }
        return visits.map { "\($0.browser) \($0.site) \(clock($0.start))..\(clock($0.end))" }
    }

    @Test func webBucketsAreReadAsSiteVisitsOfTheirDeviceAndBrowser() throws {
        let parts = try Self.parts(WebExport.text)
        #expect(parts.map(\.device) == ["laptop"], "the firefox bucket's host `unknown` is the laptop's, whose windows the export holds")
        #expect(
            Self.described(parts[0].visits) == [
                "chromium mail.example.com 09:15..09:30", "chromium docs.python.org 09:00..09:15", "firefox localhost 09:40..09:55",
            ])
        // The web buckets make no sessions: the windows' alone.
        #expect(parts[0].dataset.sessions.count == 3)
        #expect(parts[0].dataset.apps.sorted() == ["Chromium", "Firefox", "Terminal"])
    }

    @Test func aChromeBucketIsChromeWhenTheWindowsShowGoogleChrome() throws {
        let parts = try Self.parts(WebExport.text.replacingOccurrences(of: "\"app\": \"Chromium\"", with: "\"app\": \"Google-chrome\""))
        #expect(Self.described(parts[0].visits).first == "chrome mail.example.com 09:15..09:30")
    }

    @Test func aBrowserNoAppIsKnownForIsNotRead() throws {
        let parts = try Self.parts(WebExport.text.replacingOccurrences(of: "aw-watcher-web-chrome_laptop", with: "aw-watcher-web-edge_laptop"))
        #expect(Self.described(parts[0].visits) == ["firefox localhost 09:40..09:55"])
    }

    @Test func aWebBucketOfNoKnownHostIsItsOwnWhenTheWindowsAreSeveralHosts() throws {
        let other = WebExport.text.replacingOccurrences(
            of: "\"aw-watcher-afk_laptop\": {",
            with: """
                "aw-watcher-window_desk": {"type": "currentwindow", "hostname": "desk", "events": []},
                "aw-watcher-afk_laptop": {
                """)
        let parts = try Self.parts(other)
        #expect(parts.map(\.device) == ["laptop", "unknown", "desk"])
        #expect(Self.described(parts[1].visits) == ["firefox localhost 09:40..09:55"])
    }

    /// What of a URL is kept: its host name, as the extension's `siteOf` and `SiteName` keep it.
    @Test(arguments: [
        ("https://docs.python.org/3/library/json.html?q=1#top", "docs.python.org"),
        ("HTTP://Example.ORG./Title", "example.org"),
        ("https://user:pw@mail.example.com:443/inbox", "mail.example.com"),
        ("http://127.0.0.1:8000/a", "127.0.0.1"),
        ("http://[::1]:8080/x", "[::1]"),
        ("https:\\\\back.example\\x", "back.example"),
        ("  https://spaced.example/", "spaced.example"),
        ("https://q.example?x=/y", "q.example"),
        ("about:blank", nil), ("chrome://settings/", nil), ("file:///home/me/a.txt", nil), ("moz-extension://abc/x", nil),
        ("https:///", nil), ("https://bad host/", nil), ("https://café.example/", nil), ("http://localhost:123456/", nil), ("http://localhost:99999/", "localhost"), ("", nil),
        ("https://a..b/", nil), ("javascript:alert(1)", nil),
    ] as [(String, String?)])
    func aURLIsKeptAsItsHostNameAlone(url: String, host: String?) {
        var table = ActivityWatchWeb.siteTable()
        let site = Array(url.utf8).withUnsafeBufferPointer { b -> String? in
            guard let authority = ActivityWatchWeb.authority(ofURL: b) else { return nil }
            let id = table.id(forBytes: authority)
            let name = table.names[Int(id)]
            return name.isEmpty ? nil : name
        }
        #expect(site == host, "\(url)")
        #expect(RefActivityWatchWeb.host(url) == host, "the reference: \(url)")
    }

    /// The reader keeps nothing of a page beyond its host name: no path, query or title in the
    /// names it read.
    @Test func theReaderKeepsNoPathOrTitle() throws {
        let read = try Array(WebExport.text.utf8).withUnsafeBufferPointer { b throws(IngestError) in try ActivityWatchRead.read(b, document: .export) }
        let kept = (read.sites.names + read.apps.names).joined(separator: "\n")
        for text in WebExport.neverKept where !["JSON encoder"].contains(text) {
            #expect(!kept.contains(text), "\(text)")
        }
        #expect(read.sites.names.filter { !$0.isEmpty }.sorted() == ["docs.python.org", "localhost", "mail.example.com"])
    }
}
