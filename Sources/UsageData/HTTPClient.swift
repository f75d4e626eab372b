// HTTPClient.swift — GETs an http(s) URL's body for a load with libcurl, loaded only when the first URL is fetched: streamed, with connect and read timeouts, a size cap, progress and cancellation.
import CCurl
import Foundation
import UsageCore

/// A blocking HTTP(S) GET for loads run on a worker thread: libcurl's multi API, driven on the
/// calling thread.
///
/// libcurl is not linked. `CCurl` opens `libcurl.so.4` (else `libcurl-gnutls.so.4`) with `dlopen`
/// the first time a URL is fetched, so a run that fetches nothing loads none of it and a build
/// needs no curl package; without the library a fetch fails with `.unreadable`, saying what to
/// install.
///
/// The transfer runs in a loop that waits for its socket at most 100 ms at a time, so a
/// cancellation is seen within about 100 ms, and keeps both timeouts:
/// - `connectTimeout` runs from the start of the request until the response's headers have
///   arrived: connecting (DNS, TCP, TLS) and the server's answer count together (libcurl's own
///   connect timeout is set to it as well); after a redirect it runs again for the next request;
/// - `readTimeout` runs from the headers, and again from every body chunk.
/// Redirects are followed (at most 10, to http and https only). The body may come compressed:
/// libcurl decodes what it was built to (gzip, deflate, usually brotli and zstd).
public struct HTTPClient: Sendable {
    /// Seconds allowed to connect.
    public var connectTimeout: Double
    /// Seconds allowed without receiving any byte once connected.
    public var readTimeout: Double
    /// The most bytes a body may have; a larger one fails with `.tooLarge`.
    public var maxBytes: Int

    public init(connectTimeout: Double = 10, readTimeout: Double = 30, maxBytes: Int = 1 << 30) {
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.maxBytes = maxBytes
    }

    /// The reason a fetch fails with when libcurl cannot be loaded.
    static let libcurlMissing = "HTTP needs libcurl: apt-get install libcurl4"

    /// GETs `url` and returns the body. `source` is the name used in errors (the URL as the user typed it).
    /// Polls `cancellation` at least every 100 ms and then throws `.cancelled(source:)` promptly (Ctrl-C);
    /// calls `progress` with the bytes received so far as they arrive.
    public func get(
        _ url: String, source: String, cancellation: CancellationToken,
        progress: @escaping @Sendable (Int) -> Void
    ) throws(LoadError) -> [UInt8] {
        guard let target = Target(url) else { throw .unreadable(source: source, reason: "not a valid URL") }
        if cancellation.isCancelled { throw .cancelled(source: source) }
        guard ccurl_load() != 0 else { throw .unreadable(source: source, reason: Self.libcurlMissing) }
        return try Transfer(source: source, target: target, client: self, progress: progress).run(cancellation: cancellation)
    }

    /// The reason phrase of a status (`Not Found`), for the common codes; `""` for others.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 300: return "Multiple Choices"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 402: return "Payment Required"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 407: return "Proxy Authentication Required"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 416: return "Range Not Satisfiable"
        case 418: return "I'm a teapot"
        case 421: return "Misdirected Request"
        case 422: return "Unprocessable Content"
        case 425: return "Too Early"
        case 426: return "Upgrade Required"
        case 428: return "Precondition Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 451: return "Unavailable For Legal Reasons"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        case 507: return "Insufficient Storage"
        case 508: return "Loop Detected"
        case 511: return "Network Authentication Required"
        default: return ""
        }
    }

    /// The reason for a transfer libcurl ended with `code` (a `CURLcode`); `osError` is the last
    /// `errno` of a connection and `message` libcurl's error buffer (either may be empty).
    /// `timedOut` is the reason for `CURLE_OPERATION_TIMEDOUT` (libcurl's connect timeout, the same as this client's).
    static func reason(code: Int32, osError: Int, message: String, target: Target, timedOut: String) -> String {
        let hostPort = target.hostPort
        let lower = message.lowercased()
        switch code {
        case CCURLE_COULDNT_RESOLVE_HOST:
            return "unknown host \(target.host)"
        case CCURLE_COULDNT_CONNECT:
            switch osError {
            case Int(ECONNREFUSED): return "could not connect to \(hostPort): connection refused"
            case Int(ENETUNREACH): return "could not connect to \(hostPort): no network"
            case Int(EHOSTUNREACH): return "could not connect to \(hostPort): no route to host"
            case Int(ETIMEDOUT): return "could not connect to \(hostPort): timed out"
            case 0: return "could not connect to \(hostPort)"
            default: return "could not connect to \(hostPort): " + lowercasedFirst(String(cString: strerror(Int32(osError))))
            }
        case CCURLE_OPERATION_TIMEDOUT:
            return timedOut
        case CCURLE_PEER_FAILED_VERIFICATION:
            // OpenSSL: `SSL certificate problem: self-signed certificate`; `SSL: no alternative
            // certificate subject name matches target host name 'x'`. GnuTLS says less.
            if let colon = message.range(of: "certificate problem:") {
                return "TLS certificate not trusted: " + lowercasedFirst(message[colon.upperBound...].trimmingCharacters(in: .whitespaces))
            }
            if lower.contains("subject name") || lower.contains("does not match") {
                return "TLS certificate not trusted: it is not for \(target.host)"
            }
            return "TLS certificate not trusted"
        case CCURLE_SSL_CACERT_BADFILE:
            return "TLS certificates to trust could not be read" + detail(afterColonIn: message)
        case CCURLE_SSL_CONNECT_ERROR:
            return "TLS handshake with \(hostPort) failed" + detail(afterColonIn: message)
        case CCURLE_GOT_NOTHING:
            return "\(hostPort) closed the connection without a response"
        case CCURLE_SEND_ERROR, CCURLE_RECV_ERROR, CCURLE_PARTIAL_FILE:
            return "connection to \(hostPort) lost"
        case CCURLE_TOO_MANY_REDIRECTS:
            return "too many redirects"
        case CCURLE_URL_MALFORMAT:
            return "not a valid URL"
        case CCURLE_UNSUPPORTED_PROTOCOL:
            // The URL was http(s): a redirect elsewhere, or an answer from before HTTP/1.0.
            return lower.contains("http/0.9") ? "\(hostPort) does not answer in HTTP" : "redirected to a URL that is not http or https"
        case CCURLE_WEIRD_SERVER_REPLY:
            return "\(hostPort) does not answer in HTTP"
        case CCURLE_BAD_CONTENT_ENCODING:
            return "\(hostPort) sent a body that could not be decompressed"
        case CCURLE_OUT_OF_MEMORY:
            return "out of memory"
        default:
            let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? "network error \(code) from \(hostPort)" : lowercasedFirst(text)
        }
    }

    /// `: wrong version number` from `OpenSSL/3.0: error:0A00010B:SSL routines::wrong version number`; `""` if none.
    private static func detail(afterColonIn message: String) -> String {
        guard let colon = message.lastIndex(of: ":") else { return "" }
        let rest = message[message.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        return rest.isEmpty ? "" : ": " + lowercasedFirst(rest)
    }

    private static func lowercasedFirst(_ text: String) -> String {
        text.prefix(1).lowercased() + text.dropFirst()
    }
}

extension HTTPClient {
    /// A URL this client may GET: http or https, with a host.
    struct Target: Sendable {
        let url: URL
        let host: String
        let port: Int

        init?(_ text: String) {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = url.host, !host.isEmpty
            else { return nil }
            self.url = url
            self.host = host
            self.port = url.port ?? (scheme == "https" ? 443 : 80)
        }

        /// `127.0.0.1:8080`, `[::1]:80`.
        var hostPort: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
    }

    /// One request: its libcurl handles while it runs, and what libcurl's callbacks have seen.
    /// Lives on the calling thread only: libcurl calls back from inside `curl_multi_perform`.
    final class Transfer {
        let source: String
        let target: Target
        let client: HTTPClient
        let progress: @Sendable (Int) -> Void
        /// The easy handle, while `run` runs.
        private var easy: UnsafeMutableRawPointer?
        private var body: [UInt8] = []
        /// Why a callback stopped the transfer (libcurl then ends it with `CURLE_WRITE_ERROR`).
        private var failure: LoadError?
        /// Whether the final response's headers arrived (not a redirect's, not `100 Continue`).
        private var headersArrived = false
        /// Whether the response whose headers are arriving has a `Location`.
        private var hasLocation = false
        /// Whether the response is a redirect libcurl follows: its body is not the body.
        private var redirecting = false
        /// When the running timeout started: the request or a redirect (connect timeout), the
        /// headers or the last chunk (read timeout).
        private var since = ContinuousClock.now

        init(source: String, target: Target, client: HTTPClient, progress: @escaping @Sendable (Int) -> Void) {
            self.source = source
            self.target = target
            self.client = client
            self.progress = progress
        }

        func run(cancellation: CancellationToken) throws(LoadError) -> [UInt8] {
            // Declared in this order so that the handles are gone before the buffer they write.
            let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CCURL_ERROR_SIZE))
            errorBuffer.initialize(repeating: 0, count: Int(CCURL_ERROR_SIZE))
            defer { errorBuffer.deallocate() }
            guard let multi = ccurl_multi_init() else { throw .unreadable(source: source, reason: "libcurl could not start") }
            defer { ccurl_multi_cleanup(multi) }
            guard let easy = ccurl_easy_init() else { throw .unreadable(source: source, reason: "libcurl could not start") }
            self.easy = easy
            defer {
                self.easy = nil
                ccurl_easy_cleanup(easy)
            }
            try configure(easy, errorBuffer: errorBuffer)
            guard ccurl_multi_add_handle(multi, easy) == 0 else { throw .unreadable(source: source, reason: "libcurl could not start") }
            defer { ccurl_multi_remove_handle(multi, easy) }

            since = .now
            while true {
                var running: Int32 = 0
                let status = ccurl_multi_perform(multi, &running)
                var code: Int32 = 0
                if ccurl_multi_finished(multi, easy, &code) != 0 {
                    return try finish(code: code, message: String(cString: errorBuffer))
                }
                if let failure { throw failure }
                if status > 0 || running == 0 {
                    throw .unreadable(source: source, reason: "network error \(status) from \(target.hostPort)")
                }
                if cancellation.isCancelled { throw .cancelled(source: source) }
                let left = (headersArrived ? client.readTimeout : client.connectTimeout) - Self.seconds(since: since)
                if left <= 0 { throw .unreadable(source: source, reason: timedOut) }
                // Wakes for data, libcurl's own timers, a timeout of ours, or in 100 ms to look at `cancellation`.
                _ = ccurl_multi_poll(multi, Int32(min(100, max(1, (left * 1000).rounded(.up)))))
            }
        }

        /// The reason for the running timeout's expiry.
        private var timedOut: String {
            headersArrived
                ? "timed out after \(StreamLimits.text(seconds: client.readTimeout)) without data from \(target.hostPort)"
                : "timed out after \(StreamLimits.text(seconds: client.connectTimeout)) waiting for \(target.hostPort)"
        }

        /// Sets the request's options; the callbacks find `self` through their context pointer.
        private func configure(_ easy: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>) throws(LoadError) {
            func set(_ option: Int32, _ value: Int) -> Int32 { ccurl_setopt_long(easy, option, value) }
            func set(_ option: Int32, _ value: String) -> Int32 { value.withCString { ccurl_setopt_pointer(easy, option, $0) } }
            let context = Unmanaged.passUnretained(self).toOpaque()
            let connectMilliseconds = client.connectTimeout.isFinite ? min(max(client.connectTimeout * 1000, 1), 1e9) : 1e9
            var failed =
                set(CCURLOPT_URL, target.url.absoluteString) != 0
                || ccurl_setopt_pointer(easy, CCURLOPT_ERRORBUFFER, errorBuffer) != 0
                || ccurl_setopt_pointer(easy, CCURLOPT_WRITEDATA, context) != 0
                || ccurl_setopt_pointer(easy, CCURLOPT_HEADERDATA, context) != 0
                || ccurl_setopt_data_callback(easy, CCURLOPT_WRITEFUNCTION, Self.bodyCallback) != 0
                || ccurl_setopt_data_callback(easy, CCURLOPT_HEADERFUNCTION, Self.headerCallback) != 0
                || set(CCURLOPT_HTTPGET, 1) != 0
                || set(CCURLOPT_NOSIGNAL, 1) != 0
                || set(CCURLOPT_NOPROGRESS, 1) != 0
                || set(CCURLOPT_FOLLOWLOCATION, 1) != 0
                || set(CCURLOPT_MAXREDIRS, 10) != 0
                || set(CCURLOPT_CONNECTTIMEOUT_MS, Int(connectMilliseconds.rounded(.up))) != 0
                || set(CCURLOPT_USERAGENT, "usage-shell") != 0
                || set(CCURLOPT_ACCEPT_ENCODING, "") != 0
            // Only http and https, also for redirects: by name since 7.85, by bits before.
            if set(CCURLOPT_PROTOCOLS_STR, "http,https") != 0 || set(CCURLOPT_REDIR_PROTOCOLS_STR, "http,https") != 0 {
                let bits = Int(CCURLPROTO_HTTP | CCURLPROTO_HTTPS)
                failed = failed || set(CCURLOPT_PROTOCOLS, bits) != 0 || set(CCURLOPT_REDIR_PROTOCOLS, bits) != 0
            }
            // 7.87: a cancel during a DNS lookup does not wait for the resolver thread. Older: it waits.
            _ = set(CCURLOPT_QUICK_EXIT, 1)
            if failed { throw .unreadable(source: source, reason: "libcurl rejected the request's options") }
        }

        /// CURLOPT_WRITEFUNCTION: a chunk of the body.
        private static let bodyCallback: ccurl_data_callback = { data, size, count, context in
            guard let data, let context else { return 0 }
            return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().received(data, size * count)
        }

        /// CURLOPT_HEADERFUNCTION: one header line of any response (redirects' too), with its CRLF.
        private static let headerCallback: ccurl_data_callback = { data, size, count, context in
            guard let data, let context else { return 0 }
            return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().header(data, size * count)
        }

        /// Takes a header line; the empty one ends a response's headers. Returns `count` to go on, 0 to stop.
        private func header(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
            guard failure == nil else { return 0 }
            guard !headersArrived else { return count }  // trailers
            let line = UnsafeRawBufferPointer(start: data, count: count)
            if Self.hasPrefix(line, "http/") {  // a status line: a new response
                hasLocation = false
                redirecting = false
            } else if Self.hasPrefix(line, "location:") {
                hasLocation = true
            } else if line.allSatisfy({ $0 == 13 || $0 == 10 }) {
                let status = info(CCURLINFO_RESPONSE_CODE)
                // 1xx, or a proxy's answer to CONNECT (no code): the response is still to come.
                if status < 200 { return count }
                // libcurl follows a 3xx with a Location (or fails: too many, not http); the next
                // request gets a whole connect timeout.
                if (300..<400).contains(status), hasLocation {
                    redirecting = true
                    since = .now
                    return count
                }
                accept(status: status)
            }
            return failure == nil ? count : 0
        }

        /// Whether `line` starts with `prefix` (lowercase ASCII), ignoring case.
        private static func hasPrefix(_ line: UnsafeRawBufferPointer, _ prefix: StaticString) -> Bool {
            guard line.count >= prefix.utf8CodeUnitCount else { return false }
            let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            return zip(line, expected).allSatisfy { byte, want in byte | 0x20 == want || byte == want }
        }

        /// The final response's headers are in: checks the status and the declared length, and starts the read timeout.
        private func accept(status: Int) {
            headersArrived = true
            since = .now
            guard (200..<300).contains(status) else {
                failure = .httpStatus(source: source, status: status, reason: HTTPClient.reasonPhrase(status))
                return
            }
            let length = contentLength
            if length > client.maxBytes {
                failure = .tooLarge(source: source, limit: client.maxBytes)
            } else if length > 0 {
                body.reserveCapacity(length)  // reserved at once: a big body is not copied as it grows
            }
        }

        /// Takes a chunk of the body. Returns `count` to go on, 0 to stop.
        private func received(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
            guard failure == nil else { return 0 }
            if redirecting { return count }
            if !headersArrived {
                accept(status: info(CCURLINFO_RESPONSE_CODE))
                if failure != nil { return 0 }
            }
            guard count > 0 else { return 0 }
            if count > client.maxBytes - body.count {
                failure = .tooLarge(source: source, limit: client.maxBytes)
                return 0
            }
            data.withMemoryRebound(to: UInt8.self, capacity: count) { body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
            since = .now
            progress(body.count)
            return count
        }

        /// The outcome of a transfer libcurl ended with `code`.
        private func finish(code: Int32, message: String) throws(LoadError) -> [UInt8] {
            if let failure { throw failure }
            guard code == CCURLE_OK else {
                let reason = HTTPClient.reason(
                    code: code, osError: info(CCURLINFO_OS_ERRNO), message: message, target: target, timedOut: timedOut)
                throw .unreadable(source: source, reason: reason)
            }
            if !headersArrived {
                accept(status: info(CCURLINFO_RESPONSE_CODE))
                if let failure { throw failure }
            }
            let result = body
            body = []
            return result
        }

        /// A `long` the easy handle knows; 0 if it does not.
        private func info(_ item: Int32) -> Int {
            var value = 0
            guard let easy, ccurl_getinfo_long(easy, item, &value) == 0 else { return 0 }
            return value
        }

        /// The declared length of the response's body; -1 if unknown.
        private var contentLength: Int {
            var value: Int64 = -1
            guard let easy, ccurl_getinfo_int64(easy, CCURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &value) == 0 else { return -1 }
            return Int(value)
        }

        private static func seconds(since start: ContinuousClock.Instant) -> Double {
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        }
    }
}
