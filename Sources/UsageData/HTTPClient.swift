// HTTPClient.swift — GETs an http(s) URL's body for a load: streamed, with connect and read timeouts, a size cap, progress and cancellation.
import Foundation
import Synchronization
import UsageCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A blocking HTTP(S) GET on URLSession (libcurl underneath on Linux), for loads run on a worker thread.
///
/// Timeouts. swift-corelibs-foundation sets no `CURLOPT_CONNECTTIMEOUT` (curl's default, 300 s,
/// applies) and maps both `URLSessionConfiguration.timeoutIntervalForRequest` and
/// `URLRequest.timeoutInterval` to one idle timer of whole seconds (a fraction is truncated; under
/// 1 s it fires at once) that restarts on every header, body or upload callback; there is no
/// separate connect timeout to set. So this client keeps both timeouts itself, in the loop that
/// polls for cancellation every 100 ms:
/// - `connectTimeout` runs from the start of the request until the response's headers have
///   arrived: connecting (DNS, TCP, TLS) and the server's answer count together, since the
///   library does not say when the connection was made;
/// - `readTimeout` runs from the headers, and again from every body chunk.
/// URLSession's own idle timer is set a second beyond the longer of the two, only as a backstop.
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

    /// GETs `url` and returns the body. `source` is the name used in errors (the URL as the user typed it).
    /// Polls `cancellation` at least every 100 ms and then throws `.cancelled(source:)` promptly (Ctrl-C);
    /// calls `progress` with the bytes received so far as they arrive.
    public func get(
        _ url: String, source: String, cancellation: CancellationToken,
        progress: @escaping @Sendable (Int) -> Void
    ) throws(LoadError) -> [UInt8] {
        guard let target = Target(url) else { throw .unreadable(source: source, reason: "not a valid URL") }
        // corelibs compares URL.host (`::1`) with libcurl's host (`[::1]`) and fails every such URL.
        if target.host.contains(":") {
            throw .unreadable(source: source, reason: "IPv6 address URLs are not supported: use a host name")
        }
        if cancellation.isCancelled { throw .cancelled(source: source) }

        let transfer = Transfer(source: source, target: target, maxBytes: maxBytes, progress: progress)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = (max(connectTimeout, readTimeout) + 1).rounded(.up)
        configuration.timeoutIntervalForResource = 7 * 24 * 3600
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        // The session holds its delegate strongly until it is invalidated: always invalidate.
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: queue)
        defer {
            transfer.close()
            session.invalidateAndCancel()
        }
        var request = URLRequest(url: target.url)
        request.httpMethod = "GET"
        request.setValue("usage-shell", forHTTPHeaderField: "User-Agent")
        session.dataTask(with: request).resume()

        while true {
            _ = transfer.wake.wait(timeout: .now() + .milliseconds(100))
            if let outcome = transfer.outcome() { return try outcome.get() }
            if cancellation.isCancelled { throw .cancelled(source: source) }
            let (headersArrived, idle) = transfer.idleSeconds()
            if !headersArrived, idle >= connectTimeout {
                throw .unreadable(
                    source: source, reason: "timed out after \(Self.seconds(connectTimeout)) waiting for \(target.hostPort)")
            }
            if headersArrived, idle >= readTimeout {
                throw .unreadable(
                    source: source, reason: "timed out after \(Self.seconds(readTimeout)) without data from \(target.hostPort)")
            }
        }
    }

    /// `10 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? "\(Int(value)) s" : "\(value) s"
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

    /// The reason for a failure URLSession reported; libcurl's own message is the error's description.
    static func reason(for error: any Error, target: Target) -> String {
        let error = error as NSError
        let message = error.localizedDescription
        let lower = message.lowercased()
        if lower.contains("ssl certificate") || lower.contains("certificate verify")
            || error.code == NSURLErrorServerCertificateUntrusted || error.code == NSURLErrorServerCertificateHasBadDate
            || error.code == NSURLErrorServerCertificateHasUnknownRoot || error.code == NSURLErrorServerCertificateNotYetValid
        {
            return "TLS certificate not trusted" + detail(afterColonIn: message)
        }
        if lower.contains("ssl") || lower.contains("tls") || error.code == NSURLErrorSecureConnectionFailed {
            return "TLS handshake with \(target.hostPort) failed" + detail(afterColonIn: message)
        }
        switch error.code {
        case NSURLErrorCannotConnectToHost:
            return "could not connect to \(target.hostPort): connection refused"
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return "unknown host \(target.host)"
        case NSURLErrorTimedOut:
            return "timed out waiting for \(target.hostPort)"
        case NSURLErrorNetworkConnectionLost:
            return "connection to \(target.hostPort) lost"
        case NSURLErrorBadServerResponse:
            return "\(target.hostPort) closed the connection without a response"
        case NSURLErrorHTTPTooManyRedirects:
            return "too many redirects"
        case NSURLErrorNotConnectedToInternet:
            return "no network"
        case NSURLErrorUnsupportedURL, NSURLErrorBadURL:
            return "not a valid URL"
        default:
            if lower.hasPrefix("could not resolve host") { return "unknown host \(target.host)" }
            if lower.contains("couldn't connect") || lower.hasPrefix("failed to connect") {
                return "could not connect to \(target.hostPort)" + detail(afterColonIn: message)
            }
            let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty, !text.hasPrefix("The operation could not be completed") else {
                return "network error \(error.code) from \(target.hostPort)"
            }
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }

    /// `: self-signed certificate` from `SSL certificate problem: self-signed certificate`; `""` if none.
    private static func detail(afterColonIn message: String) -> String {
        guard let colon = message.lastIndex(of: ":") else { return "" }
        let rest = message[message.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        return rest.isEmpty ? "" : ": " + rest.prefix(1).lowercased() + rest.dropFirst()
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

    /// One request's state, shared between URLSession's delegate queue and the waiting caller.
    final class Transfer: NSObject, URLSessionDataDelegate, Sendable {
        private struct State {
            var body: [UInt8] = []
            var outcome: Result<[UInt8], LoadError>?
            var headersArrived = false
            /// When the last header or body byte arrived (or the request started).
            var lastEvent = DispatchTime.now()
            /// The caller returned: late callbacks change nothing.
            var closed = false
        }

        let source: String
        let target: Target
        let maxBytes: Int
        let progress: @Sendable (Int) -> Void
        /// Signalled when the outcome is known.
        let wake = DispatchSemaphore(value: 0)
        private let state = Mutex(State())

        init(source: String, target: Target, maxBytes: Int, progress: @escaping @Sendable (Int) -> Void) {
            self.source = source
            self.target = target
            self.maxBytes = maxBytes
            self.progress = progress
        }

        /// The result, once known; the body is handed over, not copied.
        func outcome() -> Result<[UInt8], LoadError>? {
            state.withLock { state in
                guard let outcome = state.outcome else { return nil }
                if case .success = outcome {
                    state.outcome = .success([])
                }
                return outcome
            }
        }

        /// Whether the headers arrived, and the seconds since the last byte (or the start).
        func idleSeconds() -> (Bool, Double) {
            state.withLock { state in
                (state.headersArrived, Double(DispatchTime.now().uptimeNanoseconds - state.lastEvent.uptimeNanoseconds) / 1e9)
            }
        }

        /// The caller is done: drop the body, ignore whatever comes later.
        func close() {
            state.withLock { state in
                state.closed = true
                state.body = []
            }
        }

        /// Ends the transfer with `outcome` unless it already ended.
        private func finish(_ state: inout State, _ outcome: Result<[UInt8], LoadError>) {
            guard state.outcome == nil, !state.closed else { return }
            state.outcome = outcome
            state.body = []
            wake.signal()
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            let status = (response as? HTTPURLResponse)?.statusCode ?? 200
            let expected = response.expectedContentLength
            let stop = state.withLock { state -> Bool in
                guard state.outcome == nil, !state.closed else { return true }
                state.headersArrived = true
                state.lastEvent = .now()
                if !(200..<300).contains(status) {
                    let phrase = HTTPClient.reasonPhrase(status)
                    finish(&state, .failure(.httpStatus(source: source, status: status, reason: phrase)))
                    return true
                }
                if expected > Int64(maxBytes) {
                    finish(&state, .failure(.tooLarge(source: source, limit: maxBytes)))
                    return true
                }
                // A known length is reserved at once, so a big body is not copied as it grows.
                if expected > 0 { state.body.reserveCapacity(Int(expected)) }
                return false
            }
            // corelibs ignores the disposition of a delegate's data task; cancelling is what stops it.
            completionHandler(stop ? .cancel : .allow)
            if stop { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let count = state.withLock { state -> Int? in
                guard state.outcome == nil, !state.closed else { return nil }
                state.lastEvent = .now()
                if state.body.count + data.count > maxBytes {
                    finish(&state, .failure(.tooLarge(source: source, limit: maxBytes)))
                    return nil
                }
                data.withUnsafeBytes { state.body.append(contentsOf: $0.bindMemory(to: UInt8.self)) }
                return state.body.count
            }
            if let count { progress(count) } else { dataTask.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            state.withLock { state in
                guard state.outcome == nil, !state.closed else { return }
                if let error {
                    if (error as NSError).code == NSURLErrorCancelled { return }  // only the caller cancels
                    let reason = HTTPClient.reason(for: error, target: target)
                    finish(&state, .failure(.unreadable(source: source, reason: reason)))
                } else {
                    let body = state.body
                    state.body = []
                    finish(&state, .success(body))
                }
            }
        }
    }
}
