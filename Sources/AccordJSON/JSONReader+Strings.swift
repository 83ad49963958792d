// A string's bytes: a plain run found eight bytes at a time, escapes decoded, UTF-8 checked.
extension JSONReader.Cursor {
    mutating func string() throws(JSONReader.Problem) -> String {
        let start = position
        position += 1
        // Fast path: no escapes; plain ASCII needs no UTF-8 validation at all.
        let (end, ascii) = bytes.withUnsafeBufferPointer { Self.plainRun(in: $0, from: position) }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            let text = ascii ? Self.asciiString(bytes[position..<end]) : try validated(bytes[position..<end], at: position)
            position = end + 1
            return text
        }
        var scalars: [UInt8] = Array(bytes[position..<end])
        position = end
        while true {
            guard let byte = current else { throw JSONReader.Problem(message: "unterminated string", offset: start) }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return try validated(scalars[...], at: start + 1)
            case UInt8(ascii: "\\"):
                position += 1
                try escape(into: &scalars)
            case 0..<0x20:
                throw JSONReader.Problem(message: "control character 0x\(String(byte, radix: 16, uppercase: true)) in string; escape it", offset: position)
            default:
                scalars.append(byte)
                position += 1
            }
        }
    }

    /// Where the run of bytes from `start` without a quote, a backslash or a control
    /// character ends, and whether the run is ASCII: eight bytes at a time while none
    /// needs a closer look, then byte by byte.
    static func plainRun(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, ascii: Bool) {
        var end = start
        var seen: UInt64 = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while end + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)
                if JSONWriter.mayNeedEscaping(word) { break }
                seen |= word
                end += 8
            }
        }
        var ascii = seen & 0x8080_8080_8080_8080 == 0
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte >= 0x80 { ascii = false }
            end += 1
        }
        return (end, ascii)
    }

    /// Bytes known to be ASCII as a String, copied without validating them again.
    static func asciiString(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.withUnsafeBufferPointer { source in
            String(unsafeUninitializedCapacity: source.count) { target in
                _ = target.initialize(fromContentsOf: source)
                return source.count
            }
        }
    }

    func validated(_ utf8: ArraySlice<UInt8>, at offset: Int) throws(JSONReader.Problem) -> String {
        // String(decoding:) takes the fast path and repairs what is not UTF-8; the
        // text is valid exactly when nothing was repaired. (String(validating:)
        // would do the same through an unspecialized generic, at many times the cost.)
        var text = utf8.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
        // The new string is native and contiguous: its buffer and the input's are compared
        // directly, eight bytes at a time.
        let same = text.utf8.count == utf8.count && text.withUTF8 { decoded in
            utf8.withUnsafeBufferPointer { original in Self.sameBytes(decoded, original) }
        }
        guard same else { throw JSONReader.Problem(message: "invalid UTF-8 in string", offset: offset) }
        return text
    }

    /// Whether `a` and `b`, of one length, hold the same bytes: compared a word at a time
    /// (the generic `elementsEqual` takes several instructions a byte).
    static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let left = a.baseAddress, let right = b.baseAddress else { return a.count == b.count }
        let (first, second) = (UnsafeRawPointer(left), UnsafeRawPointer(right))
        var index = 0
        while index + 8 <= a.count {
            guard first.loadUnaligned(fromByteOffset: index, as: UInt64.self) == second.loadUnaligned(fromByteOffset: index, as: UInt64.self) else { return false }
            index += 8
        }
        while index < a.count {
            guard a[index] == b[index] else { return false }
            index += 1
        }
        return true
    }

    mutating func escape(into scalars: inout [UInt8]) throws(JSONReader.Problem) {
        guard let byte = current else { throw JSONReader.Problem(message: "unterminated escape", offset: position) }
        position += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[byte] {
            scalars.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else { throw JSONReader.Problem(message: "invalid escape '\\\(Character(Unicode.Scalar(byte)))'", offset: position - 2) }
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
            guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                throw JSONReader.Problem(message: "unpaired high surrogate \\u\(String(code, radix: 16, uppercase: true))", offset: position - 6)
            }
            position += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw JSONReader.Problem(message: "invalid low surrogate", offset: position - 6) }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
            throw JSONReader.Problem(message: "unpaired low surrogate", offset: position - 6)
        }
        guard let scalar = Unicode.Scalar(code) else { throw JSONReader.Problem(message: "invalid code point", offset: position - 6) }
        scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    mutating func hex4() throws(JSONReader.Problem) -> UInt32 {
        guard bytes.count - position >= 4 else { throw JSONReader.Problem(message: "expected 4 hex digits after \\u", offset: position) }
        var value: UInt32 = 0
        for byte in bytes[position..<position + 4] {
            guard let digit = Hex.value(byte) else {
                throw JSONReader.Problem(message: "expected 4 hex digits after \\u", offset: position)
            }
            value = value << 4 | UInt32(digit)
        }
        position += 4
        return value
    }
}
