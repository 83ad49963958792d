import AccordHTTP

extension JournalEntry {
    /// The value of the header `name` as the journal shows it: a credential as its first
    /// word only (`Bearer <masked>`), any other as it is. Four names are compared by
    /// length first: cheaper than hashing each header's name.
    package static func maskedValue(of name: String, _ value: String) -> String {
        guard CredentialHeaders.names.contains(where: { HTTPHeaders.same($0, name) }) else { return value }
        let scheme = value.utf8.firstIndex(of: UInt8(ascii: " ")).map { "\(value[..<$0]) " } ?? ""
        return scheme + "<masked>"
    }
}
