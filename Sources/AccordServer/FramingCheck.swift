import AccordHTTP


/// The message framing of a request head, checked before any body byte is read
/// (RFC 9112 §6.3): a body whose length two parties could read differently lets a
/// second request hide inside the first (request smuggling), so it is refused, not
/// guessed.
struct FramingCheck {
    /// Why the framing is refused, if it is.
    private(set) var problem: String?
    /// `Content-Length` declares more than the body limit: answer 413 before reading it.
    private(set) var declaresTooLargeBody = false
    /// The length `Content-Length` declares, when it is one valid number within the limit.
    private(set) var declaredLength: Int?

    /// - Parameters:
    ///   - lengths: every `Content-Length` value, trimmed, in order.
    ///   - codings: every `Transfer-Encoding` value, trimmed, in order.
    init(lengths: [String], codings: [String], maxBodyBytes: Int) {
        if !lengths.isEmpty && !codings.isEmpty {
            problem = "the request has both Content-Length and Transfer-Encoding, so its length is ambiguous"
        } else if lengths.count > 1 {
            problem = "the request has \(lengths.count) Content-Length headers (\(lengths.joined(separator: ", "))), so its length is ambiguous"
        } else if !codings.isEmpty {
            let coding = ASCII.lowercased(codings.joined(separator: ", "))
            if coding != "chunked" { problem = "Transfer-Encoding '\(coding)' is not supported; only 'chunked' is" }
        } else if let length = lengths.first {
            guard !length.isEmpty, length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                problem = "Content-Length '\(length)' is not a decimal number"
                return
            }
            // Digits beyond Int's range are larger than any limit.
            declaresTooLargeBody = Int(length).map { $0 > maxBodyBytes } ?? true
            if !declaresTooLargeBody { declaredLength = Int(length) }
        }
    }
}
