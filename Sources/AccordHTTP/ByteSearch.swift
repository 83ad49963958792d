#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Searches in bytes with the C library's `memchr` and `memcmp`: Foundation's generic
/// `firstRange(of:)` costs hundreds of instructions a byte, these a few.
public enum ByteSearch {
    /// Where `needle` first occurs in `bytes`.
    public static func firstRange(of needle: [UInt8], in bytes: [UInt8]) -> Range<Int>? {
        bytes.withUnsafeBytes { firstRange(of: needle, in: $0) }
    }

    /// Where `needle` first occurs in `text`'s UTF-8 bytes.
    public static func firstRange(of needle: [UInt8], in text: String) -> Range<Int>? {
        var text = text
        return text.withUTF8 { firstRange(of: needle, in: UnsafeRawBufferPointer($0)) }
    }

    /// Where `needle` first occurs in `haystack`.
    public static func firstRange(of needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Range<Int>? {
        guard !needle.isEmpty else { return 0..<0 }
        guard needle.count <= haystack.count else { return nil }
        return needle.withUnsafeBytes { needle in
            guard let base = haystack.baseAddress, let wanted = needle.baseAddress else { return nil }
            // Each candidate start is a byte equal to the needle's first, found by memchr.
            var start = 0
            while start <= haystack.count - needle.count {
                guard let hit = memchr(base + start, Int32(needle[0]), haystack.count - needle.count - start + 1) else { return nil }
                let index = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(hit, wanted, needle.count) == 0 { return index..<(index + needle.count) }
                start = index + 1
            }
            return nil
        }
    }

    /// The offset of the first `byte` in `bytes` at or after `start`.
    public static func firstOffset(of byte: UInt8, in bytes: [UInt8], from start: Int) -> Int? {
        guard start >= 0, start < bytes.count else { return nil }
        return bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress, let hit = memchr(base + start, Int32(byte), buffer.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(hit))
        }
    }

    /// Whether `byte` occurs in `bytes`.
    public static func contains(_ byte: UInt8, in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            return memchr(base, Int32(byte), buffer.count) != nil
        }
    }
}
