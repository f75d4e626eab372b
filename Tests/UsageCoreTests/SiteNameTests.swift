// SiteNameTests.swift — what is kept of a site (SiteName: a host name alone, or nothing), how a person names sites (SitePattern: a host, or *.domain with its subdomains), and which apps are which browser (BrowserApps).
import Testing
@testable import UsageCore

struct SiteNameTests {
    static let names: [(String, String?)] = [
        ("docs.python.org", "docs.python.org"),
        ("Docs.Python.ORG", "docs.python.org"),
        ("example.org.", "example.org"),
        ("localhost:8000", "localhost"),
        ("127.0.0.1:5600", "127.0.0.1"),
        ("[::1]:8080", "[::1]"),
        ("[2001:DB8::1]", "[2001:db8::1]"),
        ("xn--bcher-kva.example", "xn--bcher-kva.example"),
        ("my_host.lan", "my_host.lan"),
        ("https://a.org/path", nil),
        ("a.org/path", nil),
        ("a.org?q=1", nil),
        ("a.org#top", nil),
        ("user@a.org", nil),
        ("My Bank", nil),
        ("", nil),
        (".", nil),
        ("a..org", nil),
        (".a.org", nil),
        ("a.org:", nil),
        ("a.org:port", nil),
        ("[::1", nil),
        ("[]", nil),
        ("[::1]x", nil),
        ("bücher.example", nil),
        (String(repeating: "a", count: 254), nil),
    ]

    @Test(arguments: names) func aSiteIsKeptAsItsHostNameAlone(_ text: String, _ kept: String?) {
        #expect(SiteName.normalized(text) == kept)
    }

    static let patterns: [(String, String?, [String], [String])] = [
        ("example.org", "example.org", ["example.org"], ["www.example.org", "notexample.org", "example.org.uk"]),
        ("*.Example.org", "*.example.org", ["example.org", "www.example.org", "a.b.example.org"], ["notexample.org", "example.org.uk", "org"]),
        ("localhost:8000", "localhost", ["localhost"], ["127.0.0.1"]),
        ("*example.org", nil, [], []),
        ("*.", nil, [], []),
        ("a.org/x", nil, [], []),
    ]

    @Test(arguments: patterns)
    func aPatternIsAHostOrADomainWithItsSubdomains(_ text: String, _ spelled: String?, _ matching: [String], _ notMatching: [String]) {
        let pattern = SitePattern(text)
        #expect(pattern?.description == spelled)
        for site in matching { #expect(pattern?.matches(site) == true, "\(site)") }
        for site in notMatching { #expect(pattern?.matches(site) == false, "\(site)") }
    }

    static let apps: [(String, String?)] = [
        ("Chromium", "chromium"), ("chromium-browser", "chromium"), ("CHROMIUM", "chromium"),
        ("Google-chrome", "chrome"), ("google-chrome", "chrome"), ("Google Chrome", "chrome"),
        ("firefox", "firefox"), ("Firefox", "firefox"), ("firefox-esr", "firefox"), ("Firefox ESR", "firefox"), ("Navigator", "firefox"),
        ("Chromium Notes", nil), ("Terminal", nil), ("chrome", nil),
    ]

    @Test(arguments: apps) func eachBrowsersAppsAreNamedInOnePlace(_ app: String, _ family: String?) {
        #expect(BrowserApps.family(ofApp: app) == family)
    }

    @Test func aSitesCategoryIsItsOwnRuleElseTheNearestDomains() {
        let rules = SiteCategories([
            (SitePattern("*.org")!, "Web"), (SitePattern("*.python.org")!, "Reference"), (SitePattern("docs.python.org")!, "Docs"),
            (SitePattern("example.org")!, "Shopping"),
        ])
        #expect(rules.category(of: "docs.python.org") == "Docs")
        #expect(rules.category(of: "wiki.python.org") == "Reference")
        #expect(rules.category(of: "python.org") == "Reference")
        #expect(rules.category(of: "example.org") == "Shopping")
        #expect(rules.category(of: "www.example.org") == "Web")
        #expect(rules.category(of: "example.com") == nil)
    }
}
