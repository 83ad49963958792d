import AccordMock
internal import CMicroHTTPD
import Foundation

/// The headers of a request as libmicrohttpd parsed them, read once when the head is
/// complete: names lowercased in the same pass, repeated ones joined, every
/// `Content-Length` and `Transfer-Encoding` kept apart for ``FramingCheck``, and the
/// first header line that is not plain HTTP (RFC 9110 §5, RFC 9112 §5) noted.
///
/// libmicrohttpd 0.9.75 accepts lines a proxy in front of the server could read
/// differently — `Transfer-Encoding : chunked`, a NUL or bare CR in a value, folded
/// lines — so each is found here and the request refused, never guessed at.
final class RequestHead {
    private(set) var headers = HTTPHeaders(capacity: 16)
    /// Every `Content-Length` value, trimmed, in order.
    private(set) var lengths: [String] = []
    /// Every `Transfer-Encoding` value, trimmed, in order.
    private(set) var codings: [String] = []
    /// Why a header line is refused, if one is.
    private(set) var problem: String?

    init(_ connection: OpaquePointer) {
        withExtendedLifetime(self) {
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { context, _, key, keySize, value, valueSize in
                guard let context, let key else { return .YES }
                let head = Unmanaged<RequestHead>.fromOpaque(context).takeUnretainedValue()
                let name = ASCII.lowercased(cString: key)
                guard let value else {
                    head.add(name: name, value: "")
                    return .YES
                }
                if head.problem == nil { head.problem = RequestHead.problem(name: name, value: value, valueSize: valueSize,
                                                                     plain: accord_header_line_is_plain(key, keySize, value, valueSize) != 0) }
                head.add(name: name, value: String(cString: value))
                return .YES
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    private func add(name: String, value: String) {
        if HTTPHeaders.same(name, "content-length") {
            lengths.append(value.trimmingCharacters(in: .whitespaces))
        } else if HTTPHeaders.same(name, "transfer-encoding") {
            codings.append(value.trimmingCharacters(in: .whitespaces))
        }
        headers.add(lowercasedName: name, value)
    }

    /// What is wrong with one header line, or nil when it is plain: the name a token,
    /// the value free of control bytes but HTAB, the line neither folded nor holding a NUL.
    static func problem(name: String, value: UnsafePointer<CChar>, valueSize: Int, plain: Bool) -> String? {
        if let bad = name.utf8.first(where: { !isTokenByte($0) }) {
            let what = bad == 0x20 || bad == 0x09 ? "whitespace before the colon" : "byte \(ASCII.hex(bad))"
            return "the header name '\(Self.printable(name))' holds \(what); a name is a token (RFC 9110 §5.1)"
        }
        let bytes = UnsafeRawBufferPointer(start: value, count: valueSize)
        if let bad = bytes.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            return "the value of header '\(name)' holds the control byte \(ASCII.hex(bad)) (RFC 9110 §5.5)"
        }
        guard plain else {
            return "header '\(name)' is folded across lines, holds a NUL or ends in a bare LF; "
                + "send each header on one line ending in CR LF (RFC 9112 §5.2)"
        }
        return nil
    }

    /// RFC 9110 §5.6.2: `tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// `text` with control bytes shown as `\xNN`, for a message.
    private static func printable(_ text: String) -> String {
        text.utf8.map { $0 < 0x20 || $0 == 0x7F ? "\\x" + ASCII.hex($0).dropFirst(2) : String(UnicodeScalar($0)) }.joined()
    }
}
