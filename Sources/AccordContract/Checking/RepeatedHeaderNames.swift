extension Collection<Field> {
    /// Each header whose name an earlier one already has in another case (`x-trace` after
    /// `X-Trace`), with that earlier one: HTTP header names are case-insensitive, so the
    /// two would be one header on the wire.
    func repeatedHeaderNames() -> [(field: Field, first: Field)] {
        var seen: [String: Field] = [:]
        var repeated: [(field: Field, first: Field)] = []
        for field in self {
            let name = field.name.lowercased()
            if let first = seen[name] { repeated.append((field, first)) } else { seen[name] = field }
        }
        return repeated
    }
}
