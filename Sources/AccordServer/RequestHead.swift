import AccordMock
internal import CMicroHTTPD
import Foundation

/// The headers of a request as libmicrohttpd parsed them, read once when the head is
/// complete: names lowercased in the same pass, repeated ones joined, and every
/// `Content-Length` and `Transfer-Encoding` kept apart for ``FramingCheck``.
final class RequestHead {
    private(set) var headers = HTTPHeaders(capacity: 16)
    /// Every `Content-Length` value, trimmed, in order.
    private(set) var lengths: [String] = []
    /// Every `Transfer-Encoding` value, trimmed, in order.
    private(set) var codings: [String] = []

    init(_ connection: OpaquePointer) {
        withExtendedLifetime(self) {
            _ = MHD_get_connection_values(connection, .HEADER_KIND, { context, _, key, value in
                guard let context, let key else { return .YES }
                let head = Unmanaged<RequestHead>.fromOpaque(context).takeUnretainedValue()
                head.add(name: ASCII.lowercased(cString: key), value: value.map { String(cString: $0) } ?? "")
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
}
