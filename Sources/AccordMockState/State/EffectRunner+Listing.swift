import AccordContract
import AccordHTTP
import AccordJSON
import AccordMocksFormat
import AccordValidation

extension EffectRunner {
    /// A `list` effect's page of the session's records: those that pass its filters, in
    /// its order, cut at its cursor or page number; the next cursor and whether more follow.
    package func list(_ effect: Effect, listing: Effect.Listing, of definition: CollectionDefinition, session: String,
                      context: TemplateContext) throws(Refusal) -> (ArraySlice<ListMemo.Row>, String?, Bool) {
        let filter = try bind(effect.filter, context)
        let query = context.request.query
        let sent = listing.queryFilters.compactMap { filter in
            query.first { $0.name == filter.parameter }.map { (filter.pointer, $0.value) }
        }
        let order = ListOrder(pointer: listing.order?.pointer, descending: listing.order?.descending ?? false, keyName: definition.key)
        var after: ListOrder.Position?
        var number = 1
        if let paging = listing.paging, let text = query.first(where: { $0.name == paging.parameter })?.value {
            switch paging.style {
            case .cursor where !text.isEmpty:
                let secret = try stored { () throws(StorageError) in try state.cursorSecret }
                guard let cursor = PageCursor(decoding: text, secret: secret, signer: signer), cursor.session == session,
                      cursor.collection == definition.name else { throw .badCursor(text) }
                after = ListOrder.Position(value: cursor.sortValue, key: cursor.key)
            case .cursor:
                break
            case .number:
                guard let value = Int(text), (1...Self.maxPageNumber).contains(value) else {
                    throw .badPage(parameter: paging.parameter, value: text)
                }
                number = value
            }
        }
        // The records that pass the filters, in order: computed once per version of the records.
        let (records, version) = try stored { () throws(StorageError) in try state.collections.versioned(definition, session: session, state: state) }
        let key = ListMemo.Key(session: session, collection: definition.name, version: version, asker: .list(place: effect.place),
                               values: filter.memoParts + sent.map { .query(pointer: $0.0, text: $0.1) })
        let rows = memo.rows(for: key) {
            let passing = records.lazy
                .filter { record in filter.accepts(record) && sent.allSatisfy { $0.0.value(in: record).map(InterpolatedText.text) == $0.1 } }
                .map { (position: order.position(of: $0), record: $0) }
            // Kept as the answer shows them: cut to the items' type and written once, not on every read.
            return order.sorted(Array(passing)).map { row in (row.position, JSONWriter.bytes(listing.itemProjection.apply(to: row.record))) }
        }
        // After the cursor: the first row that comes after its position (rows are in order).
        let start = after.map { after in order.firstIndex(in: rows.lazy.map(\.position)) { order.precedes(after, $0) } } ?? 0
        guard let paging = listing.paging else { return (rows[...], nil, false) }
        let size = pageSize(paging, query: query)
        // Both factors are bounded (10^6 × 10^3), so the product fits.
        let first = start + (paging.style == .number ? (number - 1) * size : 0)
        guard first < rows.count else { return ([], nil, false) }
        let page = rows[first..<min(rows.count, first + size)]
        let hasMore = rows.count > first + size
        guard hasMore, paging.style == .cursor, let last = page.last else { return (page, nil, hasMore) }
        let secret = try stored { () throws(StorageError) in try state.cursorSecret }
        let next = PageCursor(session: session, collection: definition.name, sortValue: last.position.value, key: last.position.key)
            .encoded(secret: secret, signer: signer)
        return (page, next, hasMore)
    }

    /// The page size the request asks for, else the default; within 1…``maxPageSize``.
    private func pageSize(_ paging: Effect.Paging, query: [(name: String, value: String)]) -> Int {
        let sent = query.first { $0.name == paging.sizeParameter }.flatMap { Int($0.value) }
        return min(max(sent ?? paging.defaultSize, 1), Self.maxPageSize)
    }
}
