/// What a file's first bytes say it is, for the image types apps upload: the check that
/// a `.jpg` holding text is refused, whatever its name and `Content-Type` claim.
package enum MediaSniffing {
    /// `image/png`, `image/jpeg`, `image/heic`, `image/webp` or `image/gif` by magic
    /// bytes; nil for anything else.
    package static func mediaType(of bytes: ArraySlice<UInt8>) -> String? {
        let head = Array(bytes.prefix(16))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<(offset + magic.count)]) == magic
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        // ISO base media: a `ftyp` box whose major brand is one of HEIF's.
        if starts(Array("ftyp".utf8), at: 4), head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            if ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].contains(brand) { return "image/heic" }
        }
        return nil
    }

    /// A short word for bytes that are none of the sniffed types, for messages.
    package static func describe(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.isEmpty { return "empty" }
        let sample = bytes.prefix(512)
        let printable = sample.allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || ($0 >= 0x20 && $0 != 0x7F) }
        return printable ? "text" : "unrecognized bytes"
    }
}
