internal import CCurl
import Foundation

/// An HTTP client for real backends, on libcurl: HTTPS with the system's CAs (or a
/// given CA file), HTTP/2 when the server offers it over TLS, keep-alive connections
/// reused across requests, a deadline per request and a cap on the answer's size.
///
/// One client holds one libcurl handle and its connections: use one per thread.
public final class HTTPClient {
    /// A request to send.
    public struct Request: Sendable {
        public var method: String
        public var url: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public init(method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }
    }

    /// What the server answered.
    public struct Response: Sendable {
        public var status: Int
        /// The headers as the server spelled them, in order.
        public var headers: [(name: String, value: String)]
        /// The body; empty when it was handed to a reader as it came (``send(_:streaming:)``).
        public var body: [UInt8]

        /// The value of header `name`, case-insensitively, if any.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// An answer's status and headers, known before its body.
    public struct Head: Sendable {
        public var status: Int
        /// The headers as the server spelled them, in order.
        public var headers: [(name: String, value: String)]

        /// The value of header `name`, case-insensitively, if any.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// Takes a body's bytes as they arrive; false stops the transfer (the reader went away).
    public typealias BodyReader = (UnsafeRawBufferPointer) -> Bool

    /// Why no answer came, in one line.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, for retrying: only `.connection` failures are worth a retry.
        public enum Kind: Sendable, Equatable {
            case connection, timeout, tooLarge, notHTTP, other
            /// A ``BodyReader`` stopped the transfer.
            case readerGone
        }

        public var kind: Kind
        public var description: String
    }

    /// Settings shared by every request of a client.
    public struct Configuration: Sendable {
        /// The deadline of one request, connection included, in milliseconds.
        public var timeoutMilliseconds = 10_000
        /// The largest answer body read; a larger one fails as `.tooLarge`.
        public var maxBodyBytes = 16 << 20
        /// The most bytes of an answer's header lines; more fail as `.tooLarge`.
        public var maxHeaderBytes = 64 << 10
        /// A PEM file of CAs to trust instead of the system's.
        public var caFile: String?

        public init() {}
    }

    private let handle: UnsafeMutableRawPointer
    private let configuration: Configuration
    /// libcurl's detailed message of the last failure (`CURLOPT_ERRORBUFFER`).
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    public init(configuration: Configuration = Configuration()) throws(Failure) {
        guard Self.initialized, let handle = curl_easy_init() else { throw Failure(kind: .other, description: "libcurl could not start") }
        self.handle = handle
        self.configuration = configuration
    }

    deinit {
        curl_easy_cleanup(handle)
        errorText.deallocate()
    }

    /// Sends `request` and waits for the whole answer.
    public func send(_ request: Request) throws(Failure) -> Response {
        try send(request, streaming: false) { _ in nil }
    }

    /// Sends `request`; once the answer's head is in, `onHead` decides where its body
    /// goes: a ``BodyReader`` it returns gets the bytes as they arrive (the answer's
    /// `body` is then empty), nil collects them within ``Configuration/maxBodyBytes``.
    ///
    /// - Parameter streaming: the answer may be a long stream: instead of a deadline on
    ///   the whole answer, the connection has ``Configuration/timeoutMilliseconds`` and
    ///   the transfer fails after that long (in whole seconds, at least one) without a byte.
    public func send(_ request: Request, streaming: Bool, onHead: @escaping (Head) -> BodyReader?) throws(Failure) -> Response {
        let collector = Collector(limit: configuration.maxBodyBytes, headLimit: configuration.maxHeaderBytes, onHead: onHead)
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }
        // "Expect:" off: no 100-continue round trip before a body.
        for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            list = curl_slist_append(list, line)
        }
        return try request.body.withUnsafeBufferPointer { body throws(Failure) -> Response in
            curl_easy_reset(handle)
            var status = CURLE_OK
            func set(_ result: CURLcode) { if status == CURLE_OK { status = result } }
            set(accord_curl_set_string(handle, CURLOPT_URL, request.url))
            set(accord_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
            set(accord_curl_set_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list)))
            if streaming {
                set(accord_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, configuration.timeoutMilliseconds))
                set(accord_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1))
                set(accord_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, (configuration.timeoutMilliseconds + 999) / 1_000)))
            } else {
                set(accord_curl_set_long(handle, CURLOPT_TIMEOUT_MS, configuration.timeoutMilliseconds))
            }
            set(accord_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
            set(accord_curl_set_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)))
            set(accord_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0))
            errorText[0] = 0
            set(accord_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorText))
            if let caFile = configuration.caFile { set(accord_curl_set_string(handle, CURLOPT_CAINFO, caFile)) }
            if request.method == "HEAD" { set(accord_curl_set_long(handle, CURLOPT_NOBODY, 1)) }
            if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(request.method) {
                set(accord_curl_set_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: body.baseAddress)))
                set(accord_curl_set_long(handle, CURLOPT_POSTFIELDSIZE, body.count))
            }
            let context = Unmanaged.passUnretained(collector).toOpaque()
            set(accord_curl_set_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let data, let context else { return 0 }
                return Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().body(data, size * count)
            })
            set(accord_curl_set_pointer(handle, CURLOPT_WRITEDATA, context))
            set(accord_curl_set_callback(handle, CURLOPT_HEADERFUNCTION) { data, size, count, context in
                guard let data, let context else { return 0 }
                return Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue().header(data, size * count)
            })
            set(accord_curl_set_pointer(handle, CURLOPT_HEADERDATA, context))
            guard status == CURLE_OK else { throw Failure(kind: .other, description: "libcurl refused an option: \(Self.message(status))") }
            let result = curl_easy_perform(handle)
            guard result == CURLE_OK else {
                throw Self.failure(result, detail: String(cString: errorText), request: request, collector: collector,
                                   limit: configuration.maxBodyBytes, timeout: configuration.timeoutMilliseconds)
            }
            var code = 0
            _ = accord_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &code)
            if !collector.headComplete { collector.completeHead(status: code) }
            return Response(status: code, headers: collector.headers, body: collector.bytes)
        }
    }

    /// - Parameter detail: libcurl's own message for this failure, when it wrote one.
    private static func failure(_ code: CURLcode, detail: String, request: Request, collector: Collector, limit: Int, timeout: Int) -> Failure {
        let target = "\(request.method) \(request.url)"
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            return Failure(kind: .connection, description: "\(target): \(message(code))")
        case CURLE_OPERATION_TIMEDOUT:
            return Failure(kind: .timeout, description: "\(target): no answer within \(timeout) ms")
        case CURLE_WRITE_ERROR where collector.overflowed:
            return Failure(kind: .tooLarge, description: "\(target): the answer is larger than \(limit) bytes")
        case CURLE_WRITE_ERROR where collector.headOverflowed:
            return Failure(kind: .tooLarge, description: "\(target): the answer's header lines are larger than \(collector.headLimit) bytes")
        case CURLE_WRITE_ERROR where collector.readerStopped:
            return Failure(kind: .readerGone, description: "\(target): the reader of the answer went away")
        case CURLE_TOO_MANY_REDIRECTS:
            return Failure(kind: .other, description: "\(target): too many redirects")
        case CURLE_UNSUPPORTED_PROTOCOL where detail.contains("HTTP/0.9"):
            // A reply without a status line (an SSH banner, a raw TCP service).
            return Failure(kind: .notHTTP, description: "\(target): the server does not speak HTTP (it answered without a status line)")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return Failure(kind: .other, description: "\(target): \(message(code)) (give an http:// or https:// URL)")
        case CURLE_WEIRD_SERVER_REPLY:
            return Failure(kind: .notHTTP, description: "\(target): the server does not speak HTTP (\(message(code)))")
        default:
            return Failure(kind: .other, description: "\(target): \(message(code))")
        }
    }

    private static func message(_ code: CURLcode) -> String {
        String(cString: curl_easy_strerror(code))
    }

    /// Gathers one answer's head, then its body within the size cap or into the reader
    /// the head asked for.
    private final class Collector {
        let limit: Int
        let onHead: (Head) -> BodyReader?
        var bytes: [UInt8] = []
        var headers: [(name: String, value: String)] = []
        var status = 0
        var headComplete = false
        var reader: BodyReader?
        var overflowed = false
        var headOverflowed = false
        var readerStopped = false
        /// The bytes of the answer's header lines so far.
        var headerBytes = 0
        /// The most bytes of header lines read.
        let headLimit: Int

        init(limit: Int, headLimit: Int, onHead: @escaping (Head) -> BodyReader?) {
            self.limit = limit
            self.headLimit = headLimit
            self.onHead = onHead
        }

        func body(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
            if !headComplete { completeHead(status: status) }
            if let reader {
                guard reader(UnsafeRawBufferPointer(start: data, count: count)) else {
                    readerStopped = true
                    return 0
                }
                return count
            }
            guard bytes.count + count <= limit else {
                overflowed = true
                return 0
            }
            data.withMemoryRebound(to: UInt8.self, capacity: count) { bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
            return count
        }

        func header(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
            let line = UnsafeRawBufferPointer(start: data, count: count)
            var end = line.endIndex
            while end > line.startIndex && (line[end - 1] == 0x0A || line[end - 1] == 0x0D) { end -= 1 }
            if end == line.startIndex {
                // The blank line after a head: a final answer's (not 100 Continue's) is complete.
                if status >= 200 { completeHead(status: status) }
            } else if line.starts(with: "HTTP/".utf8) {
                // A new answer (after 100 Continue, or a redirect): only the last one counts.
                headers = []
                status = Self.status(in: line[..<end])
            } else if headerBytes + count > headLimit {
                // A head this large is an attack or a broken server: the transfer fails as too large.
                headOverflowed = true
                return 0
            } else if let colon = line[..<end].firstIndex(of: UInt8(ascii: ":")) {
                headerBytes += count
                var start = colon + 1
                while start < end && (line[start] == 0x20 || line[start] == 0x09) { start += 1 }
                var last = end
                while last > start && (line[last - 1] == 0x20 || line[last - 1] == 0x09) { last -= 1 }
                headers.append((String(decoding: line[..<colon], as: UTF8.self), String(decoding: line[start..<last], as: UTF8.self)))
            }
            return count
        }

        /// The status of `HTTP/1.1 200 OK` or `HTTP/2 200`; 0 when unreadable.
        private static func status(in line: Slice<UnsafeRawBufferPointer>) -> Int {
            guard let space = line.firstIndex(of: 0x20) else { return 0 }
            var status = 0
            for byte in line[(space + 1)...].prefix(3) {
                guard (0x30...0x39).contains(byte) else { return 0 }
                status = status * 10 + Int(byte - 0x30)
            }
            return status
        }

        func completeHead(status: Int) {
            headComplete = true
            reader = onHead(Head(status: status, headers: headers))
        }
    }
}
