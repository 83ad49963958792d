extension JournalEntry {
    /// The value of the header `name` as the journal shows it: a credential as its first
    /// word only (`Bearer <masked>`), any other as it is.
    package static func maskedValue(of name: String, _ value: String) -> String {
        CredentialHeaders.contains(name) ? masked(value) : value
    }

    /// A credential's value as the journal shows it: its first word only (`Bearer <masked>`).
    static func masked(_ value: String) -> String {
        let masked: StaticString = "<masked>"
        var value = value
        return value.withUTF8 { bytes in
            guard let space = bytes.firstIndex(of: UInt8(ascii: " ")) else { return masked.description }
            // The scheme and its space, then the mark, written once: `Bearer <masked>` is a
            // small string, and a space ends no UTF-8 sequence early.
            let count = space + 1 + masked.utf8CodeUnitCount
            return String(unsafeUninitializedCapacity: count) { buffer in
                _ = buffer.initialize(fromContentsOf: bytes[...space])
                masked.withUTF8Buffer { _ = buffer[(space + 1)..<count].initialize(fromContentsOf: $0) }
                return count
            }
        }
    }
}
