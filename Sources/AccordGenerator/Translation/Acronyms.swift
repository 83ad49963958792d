/// The acronyms in force (``Naming``), looked up by a word's bytes as well as by text: a
/// word of up to eight letters and digits is packed into one `UInt64`, so that naming an
/// ASCII wire name makes no string of each of its words to hash.
struct Acronyms: Sendable {
    /// The acronyms as written, lowercase.
    let names: Set<String>
    /// Those of at most eight lowercase letters and digits, packed (``packed(_:)``).
    private let short: Set<UInt64>
    /// Whether any is longer than eight bytes (only a contract's own can be).
    private let hasLong: Bool

    init(_ names: Set<String>) {
        self.names = names
        var short: Set<UInt64> = []
        var hasLong = false
        for name in names {
            let bytes = Array(name.utf8)
            guard bytes.count <= 8 else { hasLong = true; continue }
            // One with a capital or a symbol is never a lowercased word: no key for it.
            guard !bytes.isEmpty, bytes.allSatisfy({ ASCIIByte.isDigit($0) || ASCIIByte.isLowercase($0) }) else { continue }
            short.insert(bytes.withUnsafeBufferPointer { Self.packed($0) })
        }
        self.short = short
        self.hasLong = hasLong
    }

    func contains(_ name: String) -> Bool {
        names.contains(name)
    }

    /// Whether `word`, ASCII letters and digits, is an acronym once lowercased.
    func contains(lowercasing word: UnsafeBufferPointer<UInt8>) -> Bool {
        if word.count <= 8 { return short.contains(Self.packed(word)) }
        return hasLong && names.contains(String(decoding: word.lazy.map(ASCIIByte.lowercased), as: UTF8.self))
    }

    /// The word's bytes lowercased, the first in the lowest byte; a letter or digit is never
    /// 0, so words of different lengths never share a key.
    private static func packed(_ word: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var key: UInt64 = 0
        for (index, byte) in word.enumerated() { key |= UInt64(ASCIIByte.lowercased(byte)) << (8 * UInt64(index)) }
        return key
    }
}
