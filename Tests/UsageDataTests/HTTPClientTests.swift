// HTTPClientTests.swift — HTTPClient against a local python HTTP server: bodies, statuses, refused connections, size caps, timeouts, cancellation, progress.
import Foundation
import Synchronization
import Testing
import UsageCore
@testable import UsageData
import TestSupport

/// One server for the suite (`HTTPTestServer`), and one test at a time: the open-files count of
/// `manyRequestsLeaveNoOpenFiles` would see another test's connections.
@Suite(.serialized, .httpTestServer)
struct HTTPClientTests {
    let server: HTTPTestServer

    init() throws {
        server = try #require(HTTPTestServer.current, "no test server: the suite runs with the .httpTestServer trait")
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(server.port)\(path)" }

    static let body = (0..<200_000).map { UInt8($0 % 251) }

    /// The error `get` threw, or a failure if it returned.
    func failure(
        _ url: String, client: HTTPClient = HTTPClient(), cancellation: CancellationToken = CancellationToken(),
        progress: @escaping @Sendable (Int) -> Void = { _ in }, sourceLocation: SourceLocation = #_sourceLocation
    ) -> LoadError? {
        do {
            let bytes = try client.get(url, source: url, cancellation: cancellation, progress: progress)
            Issue.record("expected an error, got \(bytes.count) bytes", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    // A body is compared to `body` outside `#expect`, which would print all 200,000 bytes of both
    // on a failure.

    @Test func a200BodyIsReturnedExactly() throws {
        let bytes = try HTTPClient().get(url("/ok"), source: "src", cancellation: CancellationToken(), progress: { _ in })
        #expect(bytes.count == Self.body.count)
        let same = bytes == Self.body
        #expect(same)
    }

    @Test func anEmptyBodyIsEmpty() throws {
        let bytes = try HTTPClient().get(url("/empty"), source: "src", cancellation: CancellationToken(), progress: { _ in })
        #expect(bytes == [])
    }

    @Test func redirectsAreFollowed() throws {
        let bytes = try HTTPClient().get(url("/redirect"), source: "src", cancellation: CancellationToken(), progress: { _ in })
        let same = bytes == Self.body
        #expect(same)
    }

    @Test func status404IsAnHTTPStatusWithItsPhrase() {
        let error = failure(url("/missing"))
        #expect(error == .httpStatus(source: url("/missing"), status: 404, reason: "Not Found"))
        #expect(error?.reason == "HTTP 404 Not Found")
    }

    @Test func anUnknownStatusIsStillAnHTTPStatus() {
        guard case .httpStatus(_, 599, _)? = failure(url("/teapot")) else { Issue.record("not an HTTP status"); return }
    }

    @Test func aRefusedConnectionSaysItCouldNotConnect() {
        let target = "http://127.0.0.1:\(server.closedPort)/x.json"
        let error = failure(target)
        guard case .unreadable(let source, let reason)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(source == target)
        #expect(reason == "could not connect to 127.0.0.1:\(server.closedPort): connection refused")
    }

    /// The bug (issue 45): the test server found the refused port by binding a socket and
    /// closing it, so the port was free for a test beside these to take before it was tried.
    @Test func bugTheRefusedPortWasGivenBackBeforeItWasTried() {
        let other = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(other) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(server.closedPort).bigEndian
        let bound = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(other, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        #expect(!bound, "port \(server.closedPort) was free for another test to take")
    }

    @Test(arguments: ["ftp://127.0.0.1/x", "file:///etc/passwd", "http://", "not a url", ""])
    func otherSchemesAndNonsenseAreNotValidURLs(bad: String) {
        #expect(failure(bad) == .unreadable(source: bad, reason: "not a valid URL"), "\(bad)")
    }

    @Test(.enabled(if: HTTPTestServer.ipv6LoopbackBinds, "::1 cannot be bound here"))
    func ipv6AddressURLsWork() throws {
        try #require(server.ipv6Port != 0, "::1 can be bound here, yet the test server did not listen on it")
        let ok = "http://[::1]:\(server.ipv6Port)/ok"
        let bytes = try HTTPClient().get(ok, source: ok, cancellation: CancellationToken(), progress: { _ in })
        let same = bytes == Self.body
        #expect(same)
        let missing = "http://[::1]:\(server.ipv6Port)/missing"
        #expect(failure(missing) == .httpStatus(source: missing, status: 404, reason: "Not Found"))
        let stall = "http://[::1]:\(server.ipv6Port)/stall"
        let error = failure(stall, client: HTTPClient(readTimeout: 0.5))
        #expect(error == .unreadable(source: stall, reason: "timed out after 0.5 s without data from [::1]:\(server.ipv6Port)"))
    }

    /// Without openssl it skips, except in a strict run (scripts/test, CI), where it fails.
    @Test(.enabled(if: StrictRun.on || HTTPTestServer.opensslFound, "no openssl to make a certificate"))
    func anUntrustedCertificateSaysSo() throws {
        if server.tlsPort == 0 { Issue.record("openssl is needed to make a certificate (scripts/packages.txt): the only test that an untrusted TLS certificate is refused"); return }
        let target = "https://localhost:\(server.tlsPort)/ok"
        let error = failure(target)
        guard case .unreadable(_, let reason)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason.hasPrefix("TLS certificate not trusted"), "\(reason)")
    }

    @Test func aDeclaredLengthOverTheCapIsTooLarge() {
        let client = HTTPClient(maxBytes: 500_000)
        #expect(failure(url("/big-declared"), client: client) == .tooLarge(source: url("/big-declared"), limit: 500_000))
    }

    /// The declared length alone refuses a body over the cap: not one byte of it is read (a cap
    /// checked only while streaming would read up to the cap first; found by scripts/mutate).
    @Test func aDeclaredLengthOverTheCapIsRefusedBeforeAnyOfTheBody() {
        let client = HTTPClient(maxBytes: 999_999)
        let read = Mutex(0)
        let error = failure(url("/big-declared"), client: client, progress: { n in read.withLock { $0 = max($0, n) } })
        #expect(error == .tooLarge(source: url("/big-declared"), limit: 999_999))
        #expect(read.withLock { $0 } == 0)
    }

    @Test func aStreamedBodyOverTheCapIsTooLarge() throws {
        let client = HTTPClient(maxBytes: 500_000)
        #expect(failure(url("/big-streamed"), client: client) == .tooLarge(source: url("/big-streamed"), limit: 500_000))
        // Exactly at the cap is fine.
        let exact = try HTTPClient(maxBytes: 1_000_000).get(url("/big-streamed"), source: "s", cancellation: .init(), progress: { _ in })
        #expect(exact.count == 1_000_000)
    }

    // No test here measures the clock: a slow machine (or a sanitizer build) must not fail them.
    // Which timeout fired shows in the reason, and each server route stalls for far longer than
    // the timeout that should end it, so a timeout or cancellation that failed to work would end
    // in a different error (the other timeout, or a short body) rather than a slow pass.

    @Test func aServerThatStallsAfterTheHeadersTimesOutAfterTheReadTimeout() {
        let client = HTTPClient(connectTimeout: 5, readTimeout: 1)
        let error = failure(url("/stall"), client: client)
        guard case .unreadable(_, let reason)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason == "timed out after 1 s without data from 127.0.0.1:\(server.port)")
    }

    @Test func aServerThatNeverAnswersTimesOutAfterTheConnectTimeout() {
        let client = HTTPClient(connectTimeout: 0.5, readTimeout: 10)
        let error = failure(url("/no-headers"), client: client)
        guard case .unreadable(_, let reason)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(reason == "timed out after 0.5 s waiting for 127.0.0.1:\(server.port)")
    }

    @Test func cancellingAStalledLoadThrowsCancelledBeforeTheReadTimeout() {
        // Cancelled from another thread once the first bytes are in and the server has stalled
        // (for 30 s): only the client's own wake-ups can see it, well before its 10 s read timeout.
        let token = CancellationToken()
        let stalled = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = stalled.wait(timeout: .now() + 60)
            token.cancel()
        }
        let error = failure(url("/stall"), client: HTTPClient(readTimeout: 10), cancellation: token) { _ in stalled.signal() }
        #expect(error == .cancelled(source: url("/stall")))
    }

    @Test func anAlreadyCancelledTokenThrowsAtOnce() {
        let token = CancellationToken()
        token.cancel()
        #expect(failure(url("/ok"), cancellation: token) == .cancelled(source: url("/ok")))
    }

    @Test func progressReportsIncreasingCountsUpToTheBody() throws {
        let counts = Mutex<[Int]>([])
        let bytes = try HTTPClient().get(url("/slow"), source: "s", cancellation: CancellationToken()) { n in
            counts.withLock { $0.append(n) }
        }
        let seen = counts.withLock { $0 }
        #expect(bytes.count == 5_000)
        #expect(seen.count >= 2, "\(seen)")
        #expect(seen == seen.sorted())
        #expect(Set(seen).count == seen.count, "strictly increasing: \(seen)")
        #expect(seen.last == 5_000)
    }

    @Test func manyRequestsLeaveNoOpenFiles() throws {
        func openFiles() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0 }
        _ = try HTTPClient().get(url("/ok"), source: "s", cancellation: CancellationToken(), progress: { _ in })
        _ = failure(url("/missing"))
        let before = openFiles()
        for _ in 0..<20 {
            _ = try HTTPClient().get(url("/ok"), source: "s", cancellation: CancellationToken(), progress: { _ in })
            _ = failure(url("/missing"))
        }
        // The count is the whole process's, and other suites run beside this one, opening and
        // closing files of their own: it is read again for up to 5 s until it is back. A leak of
        // HTTPClient's (a socket or more for each of these 40 requests) never closes.
        var after = openFiles()
        for _ in 0..<100 where after > before + 2 {
            Thread.sleep(forTimeInterval: 0.05)
            after = openFiles()
        }
        #expect(after <= before + 2)
    }
}
