extension JournalEntry {
    /// The value of the header `name` as the journal shows it: a credential as its first
    /// word only (`Bearer <masked>`), any other as it is.
    package static func maskedValue(of name: String, _ value: String) -> String {
        guard CredentialHeaders.contains(name) else { return value }
        let scheme = value.utf8.firstIndex(of: UInt8(ascii: " ")).map { "\(value[..<$0]) " } ?? ""
        return scheme + "<masked>"
    }
}
