import AccordContract
import AccordJSON
import AccordMocksFormat
import AccordValidation

/// Runs a fixture's effects on the session's collections and makes the answer's `data`
/// from what they did: the record acted on (cut to the response type, the fixture's
/// `data` over it), a page of records, counts.
package struct EffectRunner: Sendable {
    package let contract: Contract
    package let collections: [String: CollectionDefinition]
    package let state: MockState
    package let envelopes: Envelopes
    /// What tags the page cursors it hands out and checks those it is handed.
    package let signer: any StateSigner
    private let validator: SchemaValidator
    package let memo = ListMemo()
    /// What each endpoint's answer keeps of a record, by endpoint id.
    private let responses: [String: Projection]

    /// The largest page a list effect answers, whatever the request asks.
    package static let maxPageSize = 1_000
    /// The largest page number a numbered list reads.
    package static let maxPageNumber = 1_000_000

    package init(contract: Contract, collections: [String: CollectionDefinition], state: MockState, envelopes: Envelopes, signer: any StateSigner) {
        self.contract = contract
        self.collections = collections
        self.state = state
        self.envelopes = envelopes
        self.signer = signer
        validator = SchemaValidator(contract: contract, unknownMembers: .reject)
        responses = Dictionary(uniqueKeysWithValues: contract.endpoints.map { ($0.id, Projection($0.response, contract: contract)) })
    }

    /// Why the effects did not give an answer's data.
    package enum Refusal: Error {
        /// No record with the key: the fixture's `missing` code.
        case missing(code: Int, collection: String, key: String?)
        /// A list cursor this server did not issue for this list.
        case badCursor(String)
        /// A page number or size out of range.
        case badPage(parameter: String, value: String)
        /// The fixture made a record its collection's type refuses: a mocks bug.
        case unfit(collection: String, problem: String)
        /// The records could not be read or written: not an answer, the storage's failure.
        case storage(StorageError)
    }

    /// `template` for this request.
    package func render(_ template: TemplatedJSON, _ context: TemplateContext) throws(Refusal) -> JSONValue {
        try stored { () throws(StorageError) in try template.render(context) }
    }

    /// `filter` with its templates rendered for this request.
    package func bind(_ filter: RecordFilter, _ context: TemplateContext) throws(Refusal) -> BoundRecordFilter {
        try stored { () throws(StorageError) in try filter.bound(context) }
    }

    /// `operation`, its storage failure a ``Refusal/storage(_:)``.
    package func stored<Value>(_ operation: () throws(StorageError) -> Value) throws(Refusal) -> Value {
        do {
            return try operation()
        } catch {
            throw .storage(error)
        }
    }

    /// Whether `conditions` hold for the session, and the first record each found.
    package func check(_ conditions: [StateCondition], session: String, context: TemplateContext) throws(StorageError) -> [String: JSONValue]? {
        var found: [String: JSONValue] = [:]
        for condition in conditions {
            guard let definition = collections[condition.collection] else { return nil }
            let filter = try condition.filter.bound(context)
            var count = 0
            for record in try state.collections.records(of: definition, session: session, state: state) where filter.accepts(record) {
                if count == 0 { found[condition.collection] = record }
                count += 1
                if count >= condition.atLeast { break }
            }
            guard count >= condition.atLeast else { return nil }
        }
        return found
    }

    /// Runs `effects` in order and returns the answer's data, built on `data` (the
    /// fixture's, rendered after the effects so it can read `{{record.…}}`), for the
    /// endpoint whose id is `endpoint`.
    package func run(_ effects: [Effect], data: TemplatedJSON?, endpoint: String, session: String,
             context: inout TemplateContext) throws(Refusal) -> EffectAnswer {
        var answerRecord: JSONValue?
        var page: (listing: Effect.Listing, rows: ArraySlice<ListMemo.Row>, next: String?, hasMore: Bool)?
        for effect in effects {
            guard let action = effect.action, let name = effect.collection, let definition = collections[name] else { continue }
            switch action {
            case .insert:
                let record = try insert(effect, into: definition, session: session, context: context)
                answerRecord = answerRecord ?? record
            case .update, .delete, .read:
                let record = try change(effect, action: action, in: definition, session: session, context: context)
                if action != .delete { answerRecord = answerRecord ?? record }
            case .list:
                guard let listing = effect.listing else { continue }
                let (rows, next, hasMore) = try list(effect, listing: listing, of: definition, session: session, context: context)
                page = (listing, rows, next, hasMore)
            }
            if context.record == nil { context.record = answerRecord }
        }
        var answer: JSONValue = .object([])
        if let data { answer = try render(data, context) }
        if let answerRecord {
            answer = RecordShape.overlay(answer, on: (responses[endpoint] ?? .whole).apply(to: answerRecord))
        }
        var items: (pointer: JSONPointer, items: [[UInt8]])?
        if let page {
            // The items' place holds the marker; the answer's bytes copy the rows' JSON there.
            if page.listing.items.set(.string(EffectAnswer.marker), in: &answer) { items = (page.listing.items, page.rows.map(\.json)) }
            page.listing.nextCursor?.set(page.next.map(JSONValue.string), in: &answer)
            page.listing.hasMore?.set(.bool(page.hasMore), in: &answer)
        }
        for effect in effects {
            for (index, count) in effect.counts.enumerated() {
                guard let definition = collections[count.collection] else { continue }
                let filter = try bind(count.filter, context)
                let (records, version) = try stored { () throws(StorageError) in
                    try state.collections.versioned(definition, session: session, state: state)
                }
                let key = ListMemo.Key(session: session, collection: definition.name, version: version,
                                       asker: .count(index: index, place: effect.place), values: filter.memoParts)
                count.target.set(.int(memo.count(for: key) { records.count(where: filter.accepts) }), in: &answer)
            }
        }
        return EffectAnswer(data: answer, page: items)
    }

    /// The answer's body: the envelope around the `data` that ``run(_:data:endpoint:session:context:)``
    /// builds. An answer that reads the records and the query alone (`reads`, see
    /// ``RecordReads``) is kept in the ``memo`` while the records' versions and those query
    /// parameters stay, so the same page read again is a lookup.
    package func body(_ effects: [Effect], data: TemplatedJSON?, endpoint: String, fixture: String, reads: RecordReads?,
                      session: String, context: inout TemplateContext) throws(Refusal) -> [UInt8] {
        guard let reads else {
            return try run(effects, data: data, endpoint: endpoint, session: session, context: &context).bytes { envelope($0) }
        }
        let key = try key(reads, endpoint: endpoint, fixture: fixture, session: session, query: context.request.query)
        return try memo.body(for: key) { () throws(Refusal) in
            try run(effects, data: data, endpoint: endpoint, session: session, context: &context).bytes { envelope($0) }
        }
    }

    /// A success's envelope around `data`.
    private func envelope(_ data: JSONValue) -> JSONValue {
        envelopes.service.answerBody(code: 0, message: nil, data: data)
    }

    /// The memo's key for an answer that reads `reads`: the versions of its collections
    /// and the values the query has for its parameters.
    private func key(_ reads: RecordReads, endpoint: String, fixture: String, session: String,
                     query: [(name: String, value: String)]) throws(Refusal) -> ListMemo.Key {
        var versions: [UInt64] = []
        versions.reserveCapacity(reads.collections.count)
        for name in reads.collections {
            // Unknown collections are skipped by `run` too; lint refuses them.
            guard let definition = collections[name] else { continue }
            versions.append(try stored { () throws(StorageError) in
                try state.collections.versioned(definition, session: session, state: state).version
            })
        }
        var values: [ListMemo.Part] = []
        values.reserveCapacity(versions.count + reads.parameters.count)
        for version in versions.dropFirst() { values.append(.version(version)) }
        for parameter in reads.parameters { values.append(.parameter(query.first { $0.name == parameter }?.value)) }
        return ListMemo.Key(session: session, collection: reads.collections[0], version: versions.first ?? 0,
                            asker: .answer(endpoint: endpoint, fixture: fixture), values: values)
    }

    // MARK: Effects

    private func insert(_ effect: Effect, into definition: CollectionDefinition, session: String,
                        context: TemplateContext) throws(Refusal) -> JSONValue {
        var record: JSONValue = .object([])
        if let defaults = effect.defaults { record = try render(defaults, context) }
        record = RecordShape.overlay(bodyMembers(of: definition, context: context, keepingNull: false), on: record)
        if let template = effect.record { record = RecordShape.overlay(try render(template, context), on: record) }
        try checkFit(record, definition)
        try stored { () throws(StorageError) in
            try state.collections.put(record, key: keyText(of: record, definition), into: definition, session: session, state: state)
        }
        return record
    }

    private func change(_ effect: Effect, action: Effect.Action, in definition: CollectionDefinition, session: String,
                        context: TemplateContext) throws(Refusal) -> JSONValue {
        let key: String? = if let template = effect.key { InterpolatedText.text(of: try render(template, context)) } else { nil }
        let filter = try bind(effect.filter, context)
        let selects = { (record: JSONValue) in (key == nil || keyText(of: record, definition) == key) && filter.accepts(record) }
        let missing = Refusal.missing(code: effect.missingCode ?? 0, collection: definition.name, key: key)
        if action == .read {
            let records = try stored { () throws(StorageError) in try state.collections.records(of: definition, session: session, state: state) }
            guard let record = records.first(where: selects) else { throw missing }
            return record
        }
        // Rendered before the atomic step, which may run again after a conflicting write.
        var changes: [(pointer: JSONPointer, value: JSONValue)] = []
        for change in effect.changes { changes.append((change.pointer, try render(change.value, context))) }
        let outcome: Result<JSONValue, Refusal> = try stored { () throws(StorageError) in
            try modify(effect, action: action, in: definition, session: session, context: context,
                       change: Change(selects: selects, values: changes, missing: missing))
        }
        return try outcome.get()
    }

    /// What an `update` or `delete` does to the records: the record it takes, the values it sets, the refusal when none is taken.
    private struct Change {
        var selects: (JSONValue) -> Bool
        var values: [(pointer: JSONPointer, value: JSONValue)]
        var missing: Refusal
    }

    /// An `update` or `delete` of the first record the change selects, as one atomic step on the records.
    private func modify(_ effect: Effect, action: Effect.Action, in definition: CollectionDefinition, session: String, context: TemplateContext,
                        change: Change) throws(StorageError) -> Result<JSONValue, Refusal> {
        try state.collections.modify(definition, session: session, state: state) { records in
            let (selects, missing) = (change.selects, change.missing)
            guard let index = records.firstIndex(where: selects) else { return .failure(missing) }
            if action == .delete { return .success(records.remove(at: index)) }
            var record = records[index]
            if effect.mergesBody { record = RecordShape.overlay(bodyMembers(of: definition, context: context, keepingNull: true), on: record) }
            for value in change.values { value.pointer.set(value.value, in: &record) }
            for increment in effect.increments {
                let current: Int = if case .int(let value)? = increment.pointer.value(in: record) { value } else { 0 }
                let (sum, overflow) = current.addingReportingOverflow(increment.by)
                if !overflow { increment.pointer.set(.int(sum), in: &record) }
            }
            do throws(Refusal) {
                try checkFit(record, definition)
            } catch {
                return .failure(error)
            }
            records[index] = record
            return .success(record)
        }
    }

    /// The body's members that the collection's type declares (null ones only when
    /// `keepingNull`: a patch clears a nullable member with null).
    private func bodyMembers(of definition: CollectionDefinition, context: TemplateContext, keepingNull: Bool) -> JSONValue {
        guard case .object(let members)? = context.body, let declaration = contract.types[definition.typeName],
              case .object(let fields) = declaration.schema.kind else { return .object([]) }
        let names = Set(fields.map(\.name))
        return .object(members.filter { names.contains($0.key) && (keepingNull || $0.value != .null) })
    }

    private func checkFit(_ record: JSONValue, _ definition: CollectionDefinition) throws(Refusal) {
        let schema = Schema(.reference(definition.typeName), location: definition.location)
        if let violation = validator.validate(record, against: schema).first {
            throw .unfit(collection: definition.name, problem: "\(violation.pointer.isEmpty ? "" : violation.pointer + ": ")\(violation.message)")
        }
    }

    private func keyText(of record: JSONValue, _ definition: CollectionDefinition) -> String {
        ListOrder.key(of: record, definition.key)
    }
}
