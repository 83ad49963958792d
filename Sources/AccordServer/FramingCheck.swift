import AccordMock

/// The message framing of a request head, checked before any body byte is read
/// (RFC 9112 §6.3): a body whose length two parties could read differently lets a
/// second request hide inside the first (request smuggling), so it is refused, not
/// guessed.
struct FramingCheck {
    /// Why the framing is refused, if it is.
    private(set) var problem: String?
    /// `Content-Length` declares more than the body limit: answer 413 before reading it.
    private(set) var declaresTooLargeBody = false

    init(headers: [(String, String)], maxBodyBytes: Int) {
        var lengths: [String] = []
        var codings: [String] = []
        for (name, value) in headers {
            if Self.named(name, "content-length") {
                lengths.append(value.trimmingCharacters(in: .whitespaces))
            } else if Self.named(name, "transfer-encoding") {
                codings.append(value.trimmingCharacters(in: .whitespaces))
            }
        }
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
        }
    }

    /// Whether `name` is `lowercased` in any ASCII case, without allocating: every
    /// request's every header passes here.
    private static func named(_ name: String, _ lowercased: StaticString) -> Bool {
        guard name.utf8.count == lowercased.utf8CodeUnitCount else { return false }
        var expected = lowercased.utf8Start
        for byte in name.utf8 {
            let folded: UInt8 = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            guard folded == expected.pointee else { return false }
            expected += 1
        }
        return true
    }
}
