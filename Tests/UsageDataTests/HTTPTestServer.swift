// HTTPTestServer.swift — the local python HTTP server HTTPClientTests run against, as a suite trait: started before the suite's tests, stopped (and its folder removed) after them.
import Foundation
import Testing
import TestSupport

/// A python HTTP server of the suite's own: routes named by path (`/ok`, `/missing`, `/stall`, …),
/// on a port it picks and prints, with a closed port beside it, the same routes over TLS when
/// openssl can make a certificate, and on ::1 when it can be bound.
final class HTTPTestServer: @unchecked Sendable {  // every stored property is set once, in init
    static let script = #"""
        import http.server, os, socket, ssl, sys, threading, time

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

        # Standard input is a pipe from the test process: its end (the tests stopped, or crashed
        # before they could stop this) ends the server, so none is ever left running.
        def watch_stdin():
            sys.stdin.buffer.read()
            os._exit(0)
        threading.Thread(target=watch_stdin, daemon=True).start()

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

    /// The server of the suite running now (set by the `.httpTestServer` trait around its tests).
    @TaskLocal static var current: HTTPTestServer?

    let port: Int
    /// A port bound and never listening while the server runs: connecting to it is refused.
    let closedPort: Int
    /// The TLS server's port, 0 without openssl to make its certificate.
    let tlsPort: Int
    /// The port of the server on ::1, 0 if ::1 cannot be bound here.
    let ipv6Port: Int
    private let process: Process
    private let input: Pipe
    /// The script, the certificate and its key: removed with the value.
    private let folder: TemporaryFolder

    /// Writes the script (and a certificate, when openssl makes one) into a folder of its own and
    /// starts the server; returns once it listens.
    init() throws {
        folder = try TemporaryFolder("http-client-tests")
        let script = try folder.write("server.py", Self.script)
        let cert = folder.path("cert.pem")
        let key = folder.path("key.pem")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
        ]
        openssl.standardError = FileHandle.nullDevice
        openssl.standardOutput = FileHandle.nullDevice
        let haveCertificate = (try? openssl.run()).map { openssl.waitUntilExit() } != nil && openssl.terminationStatus == 0
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + (haveCertificate ? [cert, key] : [])
        input = Pipe()
        process.standardInput = input
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The first line: `PORT CLOSED_PORT TLS_PORT IPV6_PORT`, once the server listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let ports = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard ports.count == 4 else {
            Self.end(process, input: input)
            throw ServerDidNotStart(line: String(decoding: line, as: UTF8.self))
        }
        port = ports[0]
        closedPort = ports[1]
        tlsPort = ports[2]
        ipv6Port = ports[3]
    }

    /// Ends the server and waits for it. SIGKILL, as a Swift test's thread blocks SIGTERM and a
    /// child started from it inherits that mask.
    func stop() { Self.end(process, input: input) }

    private static func end(_ process: Process, input: Pipe) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
    }

    /// Whether ::1 can be bound here, as the server binds it (a container may have no IPv6): known
    /// before the suite runs, so that the IPv6 case can be skipped with its reason.
    static var ipv6LoopbackBinds: Bool {
        let probe = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
        }
    }

    /// Whether `openssl` is on PATH (where the server's set-up runs it from, through env).
    static var opensslFound: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains { access("\($0)/openssl", X_OK) == 0 }
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        let line: String
        var description: String { "the test server did not start (it printed \(line.debugDescription), not its four ports)" }
    }
}

/// Runs a suite's tests with an `HTTPTestServer` of its own as `HTTPTestServer.current`: started
/// once before them, stopped after the last, its folder removed.
struct HTTPTestServerTrait: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try HTTPTestServer()
        defer { server.stop() }
        try await HTTPTestServer.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == HTTPTestServerTrait {
    /// The suite's tests run against a python HTTP server of its own (`HTTPTestServer.current`).
    static var httpTestServer: Self { Self() }
}
