extension JournalEntry {
    /// The value of the header `name` as the journal shows it: a credential as its first
    /// word only (`Bearer <masked>`), any other as it is.
    package static func maskedValue(of name: String, _ value: String) -> String {
        guard CredentialHeaders.contains(name) else { return value }
        // `Bearer <masked>` is 15 bytes: a small string, built without an allocation.
        guard let space = value.utf8.firstIndex(of: UInt8(ascii: " ")) else { return "<masked>" }
        return String(decoding: value.utf8[...space], as: UTF8.self) + "<masked>"
    }
}
