import AccordContract

/// Suggestions for misspelt command and option names.
public enum NameHint {
    /// The candidate nearest to `name`, if one is near enough to suggest.
    public static func hint(for name: String, in candidates: [String]) -> String? {
        NameSuggestion.nearest(to: name, in: candidates)
    }
}
