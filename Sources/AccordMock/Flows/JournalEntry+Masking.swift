import AccordHTTP

extension JournalEntry {
    /// Headers whose values are credentials: shown as their scheme (`Bearer`) only, when they have one.
    static let maskedHeaders = ["authorization", "cookie", "proxy-authorization", MockEngine.adminTokenHeader]

    /// The value of the header `name` as the journal shows it: a credential as its first
    /// word only (`Bearer <masked>`), any other as it is. Four names are compared by
    /// length first: cheaper than hashing each header's name.
    static func maskedValue(of name: String, _ value: String) -> String {
        guard maskedHeaders.contains(where: { HTTPHeaders.same($0, name) }) else { return value }
        let scheme = value.utf8.firstIndex(of: UInt8(ascii: " ")).map { "\(value[..<$0]) " } ?? ""
        return scheme + "<masked>"
    }
}
