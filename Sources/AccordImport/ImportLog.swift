import AccordDiagnostics

/// What the import reports: every construct not carried over, one diagnostic each,
/// `SPEC:line:col: warning: [ID] message (#/json/pointer)`, with a stable id per kind.
struct ImportLog {
    private(set) var diagnostics: [Diagnostic] = []
    /// Once-only reports already made, by id and subject (an unknown format is named once, with its count).
    private var repeated: [String: (index: Int, count: Int)] = [:]
    private var added: Set<Diagnostic> = []

    mutating func warn(_ id: String, _ message: String, at spot: Spot) {
        diagnostics.append(.warning("[\(id)] \(message) (\(spot.reference))", at: spot.location))
    }

    mutating func error(_ id: String, _ message: String, at spot: Spot) {
        diagnostics.append(.error("[\(id)] \(message) (\(spot.reference))", at: spot.location))
    }

    /// Adds a diagnostic made elsewhere (reading a file, resolving a reference), once: a broken reference
    /// followed from several places is one problem.
    mutating func add(_ diagnostic: Diagnostic) {
        guard added.insert(diagnostic).inserted else { return }
        diagnostics.append(diagnostic)
    }

    /// A warning reported at its first place only; later places add to the count it ends with.
    mutating func warnOnce(_ id: String, subject: String, _ message: String, at spot: Spot) {
        let key = id + "\u{0}" + subject
        if let seen = repeated[key] {
            repeated[key] = (seen.index, seen.count + 1)
            return
        }
        repeated[key] = (diagnostics.count, 1)
        warn(id, message, at: spot)
    }

    /// The diagnostics, each once-only warning ending with how many places it stands for.
    var finished: [Diagnostic] {
        var result = diagnostics
        for (index, count) in repeated.values where count > 1 {
            result[index].message += "; \(count) places in all"
        }
        return result
    }
}
