import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordYAML

/// Reads a fixture's `effect` and `when: {state: …}` (docs/mocks.md, "Effects") and
/// checks them against the collections and the contract: every collection and member
/// named exists, counters are integers, a list's page parameters are declared, the
/// records an insert makes fit their type, and the answer the effects build fits the
/// endpoint's response.
package struct EffectLoader {
    package let contract: Contract
    package let collections: [String: CollectionDefinition]
    package let values: TemplatedValues

    package static let actionKeys = Effect.Action.allCases.map(\.rawValue)
    package static let keys: [Effect.Action?: [String]] = [
        .insert: ["record", "defaults"], .update: ["key", "where", "set", "increment", "body", "missing"],
        .delete: ["key", "where", "missing"], .read: ["key", "where", "missing"],
        .list: ["where", "filter", "order", "page", "items"], nil: [],
    ]
    /// The largest `increment` step.
    package static let maxStep = 1_000_000

    // MARK: Effects

    /// The effects of `node`: one mapping or a sequence of them, run in order.
    package func effects(_ node: Node, endpoint: Endpoint, reader: inout NodeReader) -> [Effect] {
        let nodes = node.sequence ?? [node]
        return nodes.compactMap { effect($0, endpoint: endpoint, reader: &reader) }
    }

    private func effect(_ node: Node, endpoint: Endpoint, reader: inout NodeReader) -> Effect? {
        guard let pairs = reader.mapping(node, "an effect") else { return nil }
        let named = pairs.filter { Self.actionKeys.contains($0.key.scalar?.value ?? "") }
        guard named.count <= 1 else {
            reader.error("an effect does one of \(Self.actionKeys.joined(separator: ", ")); found \(named.count); write several effects as a sequence",
                         at: named[1].key)
            return nil
        }
        var effect = Effect(location: reader.location(node))
        effect.action = named.first.flatMap { $0.key.scalar.flatMap { Effect.Action(rawValue: $0.value) } }
        reader.checkKeys(pairs, allowed: Self.actionKeys + (Self.keys[effect.action] ?? []) + ["count"],
                         in: effect.action.map { "a '\($0.rawValue)' effect" } ?? "an effect")
        if let pair = named.first {
            guard let definition = collection(pair.value, reader: &reader) else { return nil }
            effect.collection = definition.name
            read(pair.key, node: node, into: &effect, definition: definition, endpoint: endpoint, reader: &reader)
        } else if node["count"] == nil {
            reader.error("an effect needs one of \(Self.actionKeys.joined(separator: ", ")) naming a collection, or 'count'", at: node)
            return nil
        }
        if let countNode = node["count"] { effect.counts = counts(countNode, default: effect.collection, endpoint: endpoint, reader: &reader) }
        return effect
    }

    private func read(_ actionNode: Node, node: Node, into effect: inout Effect, definition: CollectionDefinition, endpoint: Endpoint,
                      reader: inout NodeReader) {
        let type = schema(of: definition)
        if let whereNode = node["where"] { effect.filter = filter(whereNode, type: type, of: definition, reader: &reader) }
        switch effect.action {
        case .insert?:
            effect.defaults = node["defaults"].flatMap { compiled($0, what: "'defaults'", reader: &reader) }
            effect.record = node["record"].flatMap { compiled($0, what: "'record'", reader: &reader) }
            checkInsert(node, definition: definition, endpoint: endpoint, reader: &reader)
        case .update?, .delete?, .read?:
            if let keyNode = node["key"] {
                effect.key = compiled(keyNode, what: "'key'", reader: &reader)
            } else if endpoint.parameters.count == 1 {
                effect.key = try? TemplatedJSON(.string("{{request.path.\(endpoint.parameters[0].name)}}"))
            }
            effect.missingCode = missingCode(node["missing"], endpoint: endpoint, at: actionNode, reader: &reader)
            if effect.action == .update { readChanges(node, into: &effect, type: type, definition: definition, reader: &reader) }
        case .list?:
            effect.listing = listing(node, type: type, definition: definition, endpoint: endpoint, reader: &reader)
        case nil:
            break
        }
    }

    private func readChanges(_ node: Node, into effect: inout Effect, type: Schema, definition: CollectionDefinition, reader: inout NodeReader) {
        for pair in node["set"].flatMap({ reader.mapping($0, "'set'") }) ?? [] {
            guard let pointer = member(pair.key, type: type, of: definition, reader: &reader),
                  let value = compiled(pair.value, what: "'set \(pointer)'", reader: &reader) else { continue }
            effect.changes.append((pointer, value))
        }
        for pair in node["increment"].flatMap({ reader.mapping($0, "'increment'") }) ?? [] {
            guard let pointer = member(pair.key, type: type, of: definition, reader: &reader), let step = reader.int(pair.value, "'increment \(pointer)'")
            else { continue }
            if let schema = RecordShape.schema(at: pointer, in: type, contract: contract), contract.resolvedKind(of: schema) != .primitive(.int) {
                reader.error("'increment': '\(pointer)' of '\(definition.typeName)' is not an int", at: pair.key)
            } else if abs(step) > Self.maxStep {
                reader.error("'increment' takes a step from -\(Self.maxStep) to \(Self.maxStep), found \(step)", at: pair.value)
            } else {
                effect.increments.append((pointer, step))
            }
        }
        if let bodyNode = node["body"], let mode = reader.text(bodyNode, "'body'") {
            if mode == "merge" { effect.mergesBody = true } else { reader.error("'body' takes 'merge' (patch the record with the request body's members), found '\(mode)'", at: bodyNode) }
        }
    }

    private func listing(_ node: Node, type: Schema, definition: CollectionDefinition, endpoint: Endpoint,
                         reader: inout NodeReader) -> Effect.Listing? {
        var listing = Effect.Listing()
        for pair in node["filter"].flatMap({ reader.mapping($0, "'filter'") }) ?? [] {
            guard let parameter = reader.key(pair, "'filter'") else { continue }
            guard endpoint.query.contains(where: { $0.name == parameter }) else {
                reader.error("'filter': '\(endpoint.id)' declares no query parameter '\(parameter)'\(NameSuggestion.hint(for: parameter, in: endpoint.query.map(\.name)))",
                             at: pair.key)
                continue
            }
            if let pointer = member(pair.value, type: type, of: definition, reader: &reader) { listing.queryFilters.append((parameter, pointer)) }
        }
        if let orderNode = node["order"], var text = reader.text(orderNode, "'order'") {
            let descending = text.hasPrefix("-")
            if descending || text.hasPrefix("+") { text.removeFirst() }
            if let pointer = memberPointer(text, at: orderNode, type: type, of: definition, reader: &reader) {
                listing.order = Effect.Order(pointer: pointer, descending: descending)
            }
        }
        if let pageNode = node["page"] { listing.paging = paging(pageNode, endpoint: endpoint, reader: &reader) }
        if let itemsNode = node["items"], let text = reader.text(itemsNode, "'items'") {
            guard let pointer = JSONPointer(text.hasPrefix("/") ? text : "/" + text.jsonPointerEscaped) else { return nil }
            listing.items = pointer
        }
        guard let items = RecordShape.schema(at: listing.items, in: endpoint.response, contract: contract),
              case .array(let item) = contract.resolvedKind(of: items) else {
            reader.error("'\(endpoint.id)' answers no array at '\(listing.items)' for the records; name it with 'items'", at: node["items"] ?? node)
            return nil
        }
        listing.itemProjection = Projection(item, contract: contract)
        let parent = Array(listing.items.tokens.dropLast())
        for (name, member) in [("next_cursor", \Effect.Listing.nextCursor), ("has_more", \Effect.Listing.hasMore)] {
            let pointer = JSONPointer(tokens: parent + [name])
            if RecordShape.schema(at: pointer, in: endpoint.response, contract: contract) != nil { listing[keyPath: member] = pointer }
        }
        let sample = listing.itemProjection.apply(to: sampleRecord(definition))
        let validator = values.validator
        if let violation = validator.validate(sample, against: item).first {
            let itemName = if case .reference(let name) = item.kind { name } else { "its" }
            reader.error("'\(endpoint.id)' lists \(itemName) items, which records of '\(definition.typeName)' cannot give: \(violation.pointer) \(violation.message)",
                         at: node)
        }
        return listing
    }

    private func paging(_ node: Node, endpoint: Endpoint, reader: inout NodeReader) -> Effect.Paging? {
        let styles = Effect.Paging.Style.allCases.map(\.rawValue)
        var styleNode = node
        var names: [String: String] = [:]
        if let pairs = node.mapping {
            reader.checkKeys(pairs, allowed: MocksKeys.page.names, in: "'page'")
            guard let style = node["style"] else {
                reader.error("'page' needs a 'style': \(styles.joined(separator: " or "))", at: node)
                return nil
            }
            styleNode = style
            for key in ["parameter", "size"] { if let value = node[key] { names[key] = reader.text(value, "'page.\(key)'") } }
        }
        guard let text = reader.text(styleNode, "'page'") else { return nil }
        guard let style = Effect.Paging.Style(rawValue: text) else {
            reader.error("unknown page style '\(text)'\(NameSuggestion.hint(for: text, in: styles)); expected \(styles.joined(separator: " or "))", at: styleNode)
            return nil
        }
        let parameter = names["parameter"] ?? (style == .cursor ? "cursor" : "page")
        let size = names["size"] ?? (style == .cursor ? "limit" : "size")
        var defaultSize = 20
        for name in [parameter, size] {
            guard let field = endpoint.query.first(where: { $0.name == name }) else {
                reader.error("'page: \(style.rawValue)' reads the query parameter '\(name)', which '\(endpoint.id)' does not declare", at: node)
                return nil
            }
            if name == size, case .int(let value)? = field.schema.defaultValue?.value { defaultSize = value }
        }
        return Effect.Paging(style: style, parameter: parameter, sizeParameter: size, defaultSize: defaultSize)
    }

    private func counts(_ node: Node, default collection: String?, endpoint: Endpoint, reader: inout NodeReader) -> [Effect.Count] {
        var counts: [Effect.Count] = []
        for pair in reader.mapping(node, "'count'") ?? [] {
            guard let text = reader.key(pair, "'count'"),
                  let target = JSONPointer(text.hasPrefix("/") ? text : "/" + text.jsonPointerEscaped) else { continue }
            guard let schema = RecordShape.schema(at: target, in: endpoint.response, contract: contract),
                  contract.resolvedKind(of: schema) == .primitive(.int) else {
                reader.error("'count': '\(endpoint.id)' answers no int member at '\(target)'", at: pair.key)
                continue
            }
            var definition = collection.flatMap { collections[$0] }
            var filterNode: Node?
            if let pairs = pair.value.mapping, pairs.allSatisfy({ ["from", "where"].contains($0.key.scalar?.value ?? "") }) {
                if let from = pair.value["from"] { definition = self.collection(from, reader: &reader) }
                filterNode = pair.value["where"]
            } else {
                reader.error("'count \(target)' takes {from: COLLECTION, where: {…}}", at: pair.value)
                continue
            }
            guard let definition else {
                reader.error("'count \(target)' needs 'from': the collection whose records it counts", at: pair.value)
                continue
            }
            let filter = filterNode.map { self.filter($0, type: self.schema(of: definition), of: definition, reader: &reader) } ?? RecordFilter()
            counts.append(Effect.Count(target: target, collection: definition.name, filter: filter))
        }
        return counts
    }

    // MARK: State conditions

    /// `when: {state: {NAME: {/member: value, …}}}` or `{NAME: {where: {…}, at_least: N}}`.
    package func conditions(_ node: Node, reader: inout NodeReader) -> [StateCondition] {
        var conditions: [StateCondition] = []
        for pair in reader.mapping(node, "'when.state'") ?? [] {
            guard let definition = collection(pair.key, reader: &reader) else { continue }
            let type = schema(of: definition)
            var atLeast = 1
            var whereNode: Node? = pair.value
            if let pairs = pair.value.mapping, !pairs.isEmpty, pairs.allSatisfy({ ["where", "at_least"].contains($0.key.scalar?.value ?? "") }) {
                whereNode = pair.value["where"]
                if let countNode = pair.value["at_least"], let count = reader.int(countNode, "'at_least'") {
                    if (1...CollectionDefinition.maxLimit).contains(count) { atLeast = count } else {
                        reader.error("'at_least' takes a number of records from 1 to \(CollectionDefinition.maxLimit), found \(count)", at: countNode)
                    }
                }
            }
            let filter = whereNode.map { self.filter($0, type: type, of: definition, reader: &reader) } ?? RecordFilter()
            conditions.append(StateCondition(collection: definition.name, filter: filter, atLeast: atLeast))
        }
        return conditions
    }

    // MARK: The answer

    /// Checks the answer the effects build: the fixture's `data` over the record acted on
    /// (cut to the response type), or with the page's records and counts filled in.
    package func checkAnswer(_ data: SourcedJSON?, effects: [Effect], endpoint: Endpoint, fixture: String, at location: SourceLocation,
                     reader: inout NodeReader) {
        var value = data?.value ?? .object([])
        if let recordEffect = effects.first(where: \.answersRecord), let name = recordEffect.collection, let definition = collections[name] {
            value = RecordShape.overlay(value, on: Projection(endpoint.response, contract: contract).apply(to: sampleRecord(definition)))
        }
        for effect in effects {
            if let listing = effect.listing {
                listing.items.set(.array([]), in: &value)
                let hasMore = JSONPointer(tokens: listing.items.tokens.dropLast() + ["has_more"])
                if RecordShape.schema(at: hasMore, in: endpoint.response, contract: contract) != nil { hasMore.set(.bool(false), in: &value) }
            }
            for count in effect.counts { count.target.set(.int(0), in: &value) }
        }
        let locations = data?.locations ?? ["": location]
        values.check(SourcedJSON(value: value, locations: locations.isEmpty ? ["": location] : locations), against: endpoint.response,
                     what: "fixture '\(fixture)' answer", reader: &reader)
    }
}
