import AccordMocksFormat

/// What an answer made of lists and counts alone, with no template in its filters or its
/// `data`, reads: the session's records of ``collections`` and the query's
/// ``parameters`` that its lists page and filter by. Nothing else shapes its bytes, so
/// ``EffectRunner/body(_:data:endpoint:fixture:reads:session:context:)`` keeps them
/// while those stay the same. Worked out once, when the fixture is compiled.
package struct RecordReads: Sendable {
    /// The collections listed or counted, each once, in the order the effects name them.
    package var collections: [String]
    /// The query parameters the lists read, in the order the effects name them.
    package var parameters: [String]

    /// What `effects` and `data` read; nil when they read anything else (a template, a
    /// record they change) or nothing at all.
    package init?(effects: [Effect], data: TemplatedJSON?) {
        guard data?.isLiteral ?? true, effects.allSatisfy(\.readsRecordsAlone) else { return nil }
        collections = []
        parameters = []
        for effect in effects {
            if effect.action == .list, let name = effect.collection, let listing = effect.listing {
                if !collections.contains(name) { collections.append(name) }
                parameters += listing.queryFilters.map(\.parameter)
                if let paging = listing.paging { parameters += [paging.parameter, paging.sizeParameter] }
            }
            for count in effect.counts where !collections.contains(count.collection) { collections.append(count.collection) }
        }
        if collections.isEmpty { return nil }
    }
}
