// HTTPClientTests.swift — HTTPClient against a local python HTTP server: bodies, statuses, refused connections, size caps, timeouts, cancellation, progress.
import Foundation
import Synchronization
import XCTest
import UsageCore
@testable import UsageData
import TestSupport

final class HTTPClientTests: XCTestCase {
    /// The server: routes named by path, on a port it picks and prints, with a closed port beside it.
    static let serverScript = #"""
        import http.server, socket, ssl, sys, threading, time

        BODY = bytes(i % 251 for i in range(200_000))

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args):
                pass

            def head(self, status, length=None):
                self.send_response(status)
                self.send_header("Content-Type", "application/octet-stream")
                if length is not None:
                    self.send_header("Content-Length", str(length))
                self.end_headers()
                self.wfile.flush()

            def do_GET(self):
                path = self.path
                if path == "/ok":
                    self.head(200, len(BODY))
                    self.wfile.write(BODY)
                elif path == "/empty":
                    self.head(200, 0)
                elif path == "/redirect":
                    self.send_response(302)
                    self.send_header("Location", "/ok")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif path == "/missing":
                    body = b"no such thing"
                    self.head(404, len(body))
                    self.wfile.write(body)
                elif path == "/teapot":
                    self.head(599, 0)
                elif path == "/big-declared":
                    self.head(200, 1_000_000)
                    self.wfile.write(b"x" * 1_000_000)
                elif path == "/big-streamed":
                    self.head(200)  # no length: the size shows only as it streams
                    for _ in range(100):
                        self.wfile.write(b"y" * 10_000)
                elif path == "/slow":
                    self.head(200, 5_000)
                    for _ in range(5):
                        self.wfile.write(b"z" * 1_000)
                        self.wfile.flush()
                        time.sleep(0.05)
                elif path == "/stall":
                    self.head(200, 100)
                    self.wfile.write(b"0123456789")
                    self.wfile.flush()
                    time.sleep(30)
                elif path == "/no-headers":
                    time.sleep(30)
                else:
                    self.head(500, 0)

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True

        server = Server(("127.0.0.1", 0), Handler)
        # Bound and never listening, kept while the server runs: connections to it are refused,
        # and no test beside these can take the port (closed here, it was free to take).
        closed = socket.socket()
        closed.bind(("127.0.0.1", 0))
        closed_port = closed.getsockname()[1]
        tls_port = 0
        if len(sys.argv) == 3:  # a self-signed certificate and its key: the same routes over TLS
            tls = Server(("127.0.0.1", 0), Handler)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
            tls.socket = context.wrap_socket(tls.socket, server_side=True)
            tls_port = tls.server_address[1]
            threading.Thread(target=tls.serve_forever, daemon=True).start()
        ipv6_port = 0
        try:  # the same routes on ::1, where it can be bound
            class Server6(Server):
                address_family = socket.AF_INET6
            ipv6 = Server6(("::1", 0), Handler)
            ipv6_port = ipv6.server_address[1]
            threading.Thread(target=ipv6.serve_forever, daemon=True).start()
        except OSError:
            pass
        print(server.server_address[1], closed_port, tls_port, ipv6_port, flush=True)
        server.serve_forever()
        """#

    nonisolated(unsafe) static var server: Process?
    nonisolated(unsafe) static var port = 0
    nonisolated(unsafe) static var closedPort = 0
    /// The TLS server's port, 0 without openssl to make its certificate.
    nonisolated(unsafe) static var tlsPort = 0
    /// The port of the server on ::1, 0 if ::1 cannot be bound here.
    nonisolated(unsafe) static var ipv6Port = 0
    nonisolated(unsafe) static var directory: URL?

    override class func setUp() {
        super.setUp()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("usage-shell-http-client-tests-\(getpid())")
        try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        let script = directory.appendingPathComponent("server.py")
        try! serverScript.write(to: script, atomically: true, encoding: .utf8)
        let cert = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
        ]
        openssl.standardError = FileHandle.nullDevice
        openssl.standardOutput = FileHandle.nullDevice
        let haveCertificate = (try? openssl.run()).map { openssl.waitUntilExit() } != nil && openssl.terminationStatus == 0
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + (haveCertificate ? [cert, key] : [])
        let output = Pipe()
        process.standardOutput = output
        try! process.run()
        // The first line: `PORT CLOSED_PORT TLS_PORT IPV6_PORT`, once the server listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let ports = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        precondition(ports.count == 4, "the test server did not start")
        server = process
        port = ports[0]
        closedPort = ports[1]
        tlsPort = ports[2]
        ipv6Port = ports[3]
    }

    override class func tearDown() {
        if let server, server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
        server = nil
        if let directory { try? FileManager.default.removeItem(at: directory) }
        super.tearDown()
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(Self.port)\(path)" }

    static let body = (0..<200_000).map { UInt8($0 % 251) }

    /// The error `get` threw, or a failure if it returned.
    func failure(
        _ url: String, client: HTTPClient = HTTPClient(), cancellation: CancellationToken = CancellationToken(),
        progress: @escaping @Sendable (Int) -> Void = { _ in }, file: StaticString = #filePath, line: UInt = #line
    ) -> LoadError? {
        do {
            let bytes = try client.get(url, source: url, cancellation: cancellation, progress: progress)
            XCTFail("expected an error, got \(bytes.count) bytes", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testA200BodyIsReturnedExactly() throws {
        let bytes = try HTTPClient().get(url("/ok"), source: "src", cancellation: CancellationToken(), progress: { _ in })
        XCTAssertEqual(bytes.count, Self.body.count)
        XCTAssertTrue(bytes == Self.body)
    }

    func testAnEmptyBodyIsEmpty() throws {
        let bytes = try HTTPClient().get(url("/empty"), source: "src", cancellation: CancellationToken(), progress: { _ in })
        XCTAssertEqual(bytes, [])
    }

    func testRedirectsAreFollowed() throws {
        let bytes = try HTTPClient().get(url("/redirect"), source: "src", cancellation: CancellationToken(), progress: { _ in })
        XCTAssertTrue(bytes == Self.body)
    }

    func test404IsAnHTTPStatusWithItsPhrase() {
        let error = failure(url("/missing"))
        XCTAssertEqual(error, .httpStatus(source: url("/missing"), status: 404, reason: "Not Found"))
        XCTAssertEqual(error?.reason, "HTTP 404 Not Found")
    }

    func testAnUnknownStatusIsStillAnHTTPStatus() {
        guard case .httpStatus(_, 599, _)? = failure(url("/teapot")) else { return XCTFail("not an HTTP status") }
    }

    func testARefusedConnectionSaysItCouldNotConnect() {
        let target = "http://127.0.0.1:\(Self.closedPort)/x.json"
        let error = failure(target)
        guard case .unreadable(let source, let reason)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(source, target)
        XCTAssertEqual(reason, "could not connect to 127.0.0.1:\(Self.closedPort): connection refused")
    }

    /// The bug (issue 45): the test server found the refused port by binding a socket and
    /// closing it, so the port was free for a test beside these to take before it was tried.
    func testBugTheRefusedPortWasGivenBackBeforeItWasTried() {
        let other = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(other) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(Self.closedPort).bigEndian
        let bound = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(other, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        XCTAssertFalse(bound, "port \(Self.closedPort) was free for another test to take")
    }

    func testOtherSchemesAndNonsenseAreNotValidURLs() {
        for bad in ["ftp://127.0.0.1/x", "file:///etc/passwd", "http://", "not a url", ""] {
            XCTAssertEqual(failure(bad), .unreadable(source: bad, reason: "not a valid URL"), bad)
        }
    }

    func testIPv6AddressURLsWork() throws {
        try XCTSkipIf(Self.ipv6Port == 0, "::1 cannot be bound here")
        let ok = "http://[::1]:\(Self.ipv6Port)/ok"
        let bytes = try HTTPClient().get(ok, source: ok, cancellation: CancellationToken(), progress: { _ in })
        XCTAssertTrue(bytes == Self.body)
        let missing = "http://[::1]:\(Self.ipv6Port)/missing"
        XCTAssertEqual(failure(missing), .httpStatus(source: missing, status: 404, reason: "Not Found"))
        let stall = "http://[::1]:\(Self.ipv6Port)/stall"
        let error = failure(stall, client: HTTPClient(readTimeout: 0.5))
        XCTAssertEqual(error, .unreadable(source: stall, reason: "timed out after 0.5 s without data from [::1]:\(Self.ipv6Port)"))
    }

    func testAnUntrustedCertificateSaysSo() throws {
        if Self.tlsPort == 0, StrictRun.on { return XCTFail("openssl is needed to make a certificate (scripts/packages.txt): the only test that an untrusted TLS certificate is refused") }
        try XCTSkipIf(Self.tlsPort == 0, "no openssl to make a certificate")
        let target = "https://localhost:\(Self.tlsPort)/ok"
        guard case .unreadable(_, let reason)? = failure(target) else { return XCTFail() }
        XCTAssertTrue(reason.hasPrefix("TLS certificate not trusted"), reason)
    }

    func testADeclaredLengthOverTheCapIsTooLarge() {
        let client = HTTPClient(maxBytes: 500_000)
        XCTAssertEqual(failure(url("/big-declared"), client: client), .tooLarge(source: url("/big-declared"), limit: 500_000))
    }

    /// The declared length alone refuses a body over the cap: not one byte of it is read (a cap
    /// checked only while streaming would read up to the cap first; found by scripts/mutate).
    func testADeclaredLengthOverTheCapIsRefusedBeforeAnyOfTheBody() {
        let client = HTTPClient(maxBytes: 999_999)
        let read = Mutex(0)
        let error = failure(url("/big-declared"), client: client, progress: { n in read.withLock { $0 = max($0, n) } })
        XCTAssertEqual(error, .tooLarge(source: url("/big-declared"), limit: 999_999))
        XCTAssertEqual(read.withLock { $0 }, 0)
    }

    func testAStreamedBodyOverTheCapIsTooLarge() throws {
        let client = HTTPClient(maxBytes: 500_000)
        XCTAssertEqual(failure(url("/big-streamed"), client: client), .tooLarge(source: url("/big-streamed"), limit: 500_000))
        // Exactly at the cap is fine.
        let exact = try HTTPClient(maxBytes: 1_000_000).get(url("/big-streamed"), source: "s", cancellation: .init(), progress: { _ in })
        XCTAssertEqual(exact.count, 1_000_000)
    }

    // No test here measures the clock: a slow machine (or a sanitizer build) must not fail them.
    // Which timeout fired shows in the reason, and each server route stalls for far longer than
    // the timeout that should end it, so a timeout or cancellation that failed to work would end
    // in a different error (the other timeout, or a short body) rather than a slow pass.

    func testAServerThatStallsAfterTheHeadersTimesOutAfterTheReadTimeout() {
        let client = HTTPClient(connectTimeout: 5, readTimeout: 1)
        let error = failure(url("/stall"), client: client)
        guard case .unreadable(_, let reason)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(reason, "timed out after 1 s without data from 127.0.0.1:\(Self.port)")
    }

    func testAServerThatNeverAnswersTimesOutAfterTheConnectTimeout() {
        let client = HTTPClient(connectTimeout: 0.5, readTimeout: 10)
        let error = failure(url("/no-headers"), client: client)
        guard case .unreadable(_, let reason)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(reason, "timed out after 0.5 s waiting for 127.0.0.1:\(Self.port)")
    }

    func testCancellingAStalledLoadThrowsCancelledBeforeTheReadTimeout() {
        // Cancelled from another thread once the first bytes are in and the server has stalled
        // (for 30 s): only the client's own wake-ups can see it, well before its 10 s read timeout.
        let token = CancellationToken()
        let stalled = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = stalled.wait(timeout: .now() + 60)
            token.cancel()
        }
        let error = failure(url("/stall"), client: HTTPClient(readTimeout: 10), cancellation: token) { _ in stalled.signal() }
        XCTAssertEqual(error, .cancelled(source: url("/stall")))
    }

    func testAnAlreadyCancelledTokenThrowsAtOnce() {
        let token = CancellationToken()
        token.cancel()
        XCTAssertEqual(failure(url("/ok"), cancellation: token), .cancelled(source: url("/ok")))
    }

    func testProgressReportsIncreasingCountsUpToTheBody() throws {
        let counts = Mutex<[Int]>([])
        let bytes = try HTTPClient().get(url("/slow"), source: "s", cancellation: CancellationToken()) { n in
            counts.withLock { $0.append(n) }
        }
        let seen = counts.withLock { $0 }
        XCTAssertEqual(bytes.count, 5_000)
        XCTAssertGreaterThanOrEqual(seen.count, 2, "\(seen)")
        XCTAssertEqual(seen, seen.sorted())
        XCTAssertEqual(Set(seen).count, seen.count, "strictly increasing: \(seen)")
        XCTAssertEqual(seen.last, 5_000)
    }

    func testManyRequestsLeaveNoOpenFiles() throws {
        func openFiles() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0 }
        _ = try HTTPClient().get(url("/ok"), source: "s", cancellation: CancellationToken(), progress: { _ in })
        _ = failure(url("/missing"))
        let before = openFiles()
        for _ in 0..<20 {
            _ = try HTTPClient().get(url("/ok"), source: "s", cancellation: CancellationToken(), progress: { _ in })
            _ = failure(url("/missing"))
        }
        // Sockets close on the session's queue just after `get` returns.
        var after = openFiles()
        for _ in 0..<20 where after > before {
            Thread.sleep(forTimeInterval: 0.05)
            after = openFiles()
        }
        XCTAssertLessThanOrEqual(after, before + 2)
    }
}
