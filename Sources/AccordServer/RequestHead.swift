import AccordHTTP
internal import CMicroHTTPD

/// The headers of a request as libmicrohttpd parsed them, read once when the head is
/// complete: names lowercased in the same pass, repeated ones joined, every
/// `Content-Length` and `Transfer-Encoding` kept apart for ``FramingCheck``, and the
/// first header line that is not plain HTTP (RFC 9110 §5, RFC 9112 §5) noted.
///
/// libmicrohttpd 0.9.75 accepts lines a proxy in front of the server could read
/// differently — `Transfer-Encoding : chunked`, a NUL or bare CR in a value, folded
/// lines — so each is found here and the request refused, never guessed at.
///
/// Its members are filled by libmicrohttpd's callback on the thread that made the head and
/// read after it, never by two threads at once: the runtime's exclusivity check (80
/// instructions a header) is left out.
final class RequestHead {
    /// Room for exactly the lines libmicrohttpd holds: the journal keeps these headers for
    /// its last 10,000 requests, so room left over would be kept with them.
    @exclusivity(unchecked) private(set) var headers: HTTPHeaders
    /// Every `Content-Length` value, trimmed, in order.
    @exclusivity(unchecked) private(set) var lengths: [String] = []
    /// Every `Transfer-Encoding` value, trimmed, in order.
    @exclusivity(unchecked) private(set) var codings: [String] = []
    /// Why a header line is refused, if one is.
    @exclusivity(unchecked) private(set) var problem: String?

    init(_ connection: OpaquePointer) {
        // Without an iterator, libmicrohttpd only counts the lines.
        headers = HTTPHeaders(capacity: Int(max(0, MHD_get_connection_values_n(connection, .HEADER_KIND, nil, nil))))
        withExtendedLifetime(self) {
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { context, _, key, keySize, value, valueSize in
                guard let context, let key else { return .YES }
                let head = Unmanaged<RequestHead>.fromOpaque(context).takeUnretainedValue()
                let name = ASCII.lowercased(key, count: keySize)
                guard let value else {
                    head.add(name: name, value: "")
                    return .YES
                }
                if head.problem == nil, case let check = accord_check_header(key, keySize, value, valueSize), check != ACCORD_HEADER_PLAIN {
                    head.problem = RequestHead.problem(check, name: name, value: UnsafeRawBufferPointer(start: value, count: valueSize))
                }
                // The value's bytes as MHD measured them; a NUL inside one is refused above.
                head.add(name: name, value: String(decoding: UnsafeRawBufferPointer(start: value, count: valueSize), as: UTF8.self))
                return .YES
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    private func add(name: String, value: String) {
        if HTTPHeaders.same(name, "content-length") {
            // ASCII.trimmed, not Foundation's trimming: that cost a POST 6.6k instructions.
            lengths.append(String(ASCII.trimmed(value[...])))
        } else if HTTPHeaders.same(name, "transfer-encoding") {
            codings.append(String(ASCII.trimmed(value[...])))
        }
        headers.add(lowercasedName: name, value)
    }

    /// Why a header line that is not plain is refused, for the 400's message.
    static func problem(_ check: accord_header_check, name: String, value: UnsafeRawBufferPointer) -> String {
        switch check {
        case ACCORD_HEADER_NAME_NOT_TOKEN:
            let bad = name.utf8.first { $0 == 0x20 || $0 == 0x09 } ?? name.utf8.first { $0 < 0x21 || $0 > 0x7E || "\"(),/:;<=>?@[\\]{}".utf8.contains($0) }
            let what = bad == 0x20 || bad == 0x09 ? "whitespace before the colon" : bad.map { "byte \(ASCII.hex($0))" } ?? "a byte that is no token character"
            return "the header name '\(Self.printable(name))' holds \(what); a name is a token (RFC 9110 §5.1)"
        case ACCORD_HEADER_CONTROL_IN_VALUE:
            let control = value.first { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F } ?? 0
            return "the value of header '\(name)' holds the control byte \(ASCII.hex(control)) (RFC 9110 §5.5)"
        default:
            return "header '\(name)' is folded across lines, holds a NUL or ends in a bare LF; "
                + "send each header on one line ending in CR LF (RFC 9112 §5.2)"
        }
    }

    /// `text` with control bytes shown as `\xNN`, for a message.
    private static func printable(_ text: String) -> String {
        text.utf8.map { $0 < 0x20 || $0 == 0x7F ? "\\x" + ASCII.hex($0).dropFirst(2) : String(UnicodeScalar($0)) }.joined()
    }
}
