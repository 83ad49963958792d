/// Finds the declared name closest to a misspelt one, for "did you mean …?" hints.
public enum NameSuggestion {
    /// The candidate nearest to `name` by edit distance, if it is close enough to be a typo.
    public static func nearest(to name: String, in candidates: some Sequence<String>) -> String? {
        let target = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best, best.distance <= max(2, target.count / 3) else { return nil }
        return best.name
    }

    /// `"; did you mean 'X'?"`, or the empty string.
    public static func hint(for name: String, in candidates: some Sequence<String>) -> String {
        nearest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance with one rolling row.
    ///
    /// Inlinable so that callers in other modules get it specialized for their element
    /// type: unspecialized, every cell went through generic metadata and a 404 cost
    /// milliseconds.
    @inlinable
    public static func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var row = Array(0...b.count)
        return row.withUnsafeMutableBufferPointer { row in
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    for i in 0..<a.count {
                        var diagonal = row[0]
                        row[0] = i + 1
                        for j in 0..<b.count {
                            let next = Swift.min(row[j + 1] + 1, row[j] + 1, diagonal + (a[i] == b[j] ? 0 : 1))
                            diagonal = row[j + 1]
                            row[j + 1] = next
                        }
                    }
                    return row[b.count]
                }
            }
        }
    }
}
