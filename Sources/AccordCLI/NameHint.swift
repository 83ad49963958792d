import AccordContract

/// Suggestions for misspelt command and option names.
enum NameHint {
    static func hint(for name: String, in candidates: [String]) -> String? {
        NameSuggestion.nearest(to: name, in: candidates)
    }
}
