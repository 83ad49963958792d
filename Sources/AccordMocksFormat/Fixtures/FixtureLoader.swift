import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordValidation
import AccordYAML
import Foundation

/// Loads fixture files (`mocks/*.yaml`) and checks each fixture against the contract.
///
/// ```yaml
/// signal.inbox:                      # an endpoint id
///   - name: unread                   # Prefer: example=unread picks it
///     when: {query: {filter: unread}}
///     data: {items: [], unread_count: 0}
///   - name: default
///     default: true
///     data: …
/// ```
public struct FixtureLoader: Sendable {
    public let contract: Contract
    private let values: TemplatedValues
    private let effects: EffectLoader

    /// A loader for fixtures whose effects act on `collections` (docs/mocks.md, "Effects").
    public init(contract: Contract, collections: [String: CollectionDefinition] = [:]) {
        self.contract = contract
        values = TemplatedValues(contract: contract)
        effects = EffectLoader(contract: contract, collections: collections, values: values)
    }

    package static let fixtureKeys = MocksKeys.fixture.names

    /// Loads every `*.yaml`/`*.yml` file directly inside `directory` (sub-folders such
    /// as `scenarios/` are not fixtures). A missing directory yields no fixtures.
    public func load(directory: String) -> (FixtureSet, [Diagnostic]) {
        guard let (sources, unreadable) = ContractLoader.Source.yamlFiles(in: directory) else { return (FixtureSet(), []) }
        let (fixtures, diagnostics) = load(sources)
        return (fixtures, (unreadable + diagnostics).sortedByLocation())
    }

    /// Loads the given fixture files.
    public func load(_ sources: [ContractLoader.Source]) -> (FixtureSet, [Diagnostic]) {
        var set = FixtureSet()
        var diagnostics: [Diagnostic] = []
        var seen: [String: [String: SourceLocation]] = [:]
        for source in sources {
            let document = YAMLParser.parse(source.bytes, file: source.path)
            diagnostics += document.diagnostics
            guard let root = document.root else { continue }
            var reader = NodeReader(document: document)
            for pair in reader.mapping(root, "a fixture file") ?? [] {
                guard let id = reader.key(pair, "a fixture file") else { continue }
                guard let endpoint = contract.endpoint(id) else {
                    reader.error("unknown endpoint '\(id)'\(NameSuggestion.hint(for: id, in: contract.endpoints.map(\.id)))", at: pair.key)
                    continue
                }
                for node in reader.sequence(pair.value, "the fixtures of '\(id)'") ?? [] {
                    guard let fixture = fixture(node, endpoint: endpoint, reader: &reader) else { continue }
                    if let first = seen[id]?[fixture.name] {
                        reader.error("duplicate fixture '\(fixture.name)' for '\(id)' (first at \(first))", at: fixture.location)
                        continue
                    }
                    seen[id, default: [:]][fixture.name] = fixture.location
                    if fixture.isDefault, let other = set.fixtures(for: id).first(where: \.isDefault) {
                        reader.error("'\(id)' already has a default fixture, '\(other.name)' (\(other.location))", at: fixture.location)
                        continue
                    }
                    set.byEndpoint[id, default: []].append(fixture)
                }
            }
            diagnostics += reader.diagnostics
        }
        diagnostics += Self.shadowing(in: set)
        return (set, diagnostics.sortedByLocation())
    }

    /// A warning at every fixture that has no `when` and is not the default, when other
    /// fixtures of its endpoint come after it: it matches every request, so the server
    /// never reaches them (docs/mocks.md, "Which answer"); only `Prefer` can.
    package static func shadowing(in set: FixtureSet) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for (id, fixtures) in set.byEndpoint {
            for streams in [false, true] {
                let tried = fixtures.filter { ($0.events != nil) == streams }.inTryOrder
                guard let index = tried.firstIndex(where: { !$0.isDefault && $0.matchers.isEmpty && $0.conditions.isEmpty }),
                      index + 1 < tried.count else { continue }
                let shadowed = tried[(index + 1)...].map { "'\($0.name)'" + ($0.isDefault ? " (the default)" : "") }
                let fixture = tried[index]
                warnings.append(.warning("fixture '\(fixture.name)' of '\(id)' has no 'when', so it answers every request before "
                                         + shadowed.joined(separator: ", ") + "; give it a 'when' (or reach it with 'Prefer: example=\(fixture.name)')",
                                         at: fixture.location))
            }
        }
        return warnings
    }

    // MARK: One fixture

    private func fixture(_ node: Node, endpoint: Endpoint, reader: inout NodeReader) -> Fixture? {
        guard let pairs = reader.mapping(node, "a fixture of '\(endpoint.id)'") else { return nil }
        reader.checkKeys(pairs, allowed: Self.fixtureKeys, in: "a fixture of '\(endpoint.id)'")
        guard let nameNode = node["name"], let name = reader.text(nameNode, "'name'") else {
            reader.error("a fixture of '\(endpoint.id)' needs a 'name'", at: node)
            return nil
        }
        var fixture = Fixture(endpoint: endpoint.id, name: name, location: reader.location(node))
        var dataNode: Node?
        for pair in pairs {
            let value = pair.value
            switch pair.key.scalar?.value {
            case "description": fixture.description = reader.text(value, "'description'")
            case "default": fixture.isDefault = reader.bool(value, "'default'") ?? false
            case "priority": fixture.priority = reader.int(value, "'priority'") ?? 0
            case "status":
                guard let status = reader.int(value, "'status'") else { break }
                if (100...599).contains(status) { fixture.status = status } else {
                    reader.error("'status' must be an HTTP status from 100 to 599, found \(status)", at: value)
                }
            case "headers":
                for header in reader.mapping(value, "'headers'") ?? [] {
                    guard let headerName = reader.key(header, "'headers'"), let text = reader.text(header.value, "header '\(headerName)'") else { continue }
                    fixture.headers.append((headerName, text))
                }
            case "delay": fixture.delayMilliseconds = reader.milliseconds(value, "'delay'") ?? 0
            case "code":
                guard let code = reader.int(value, "'code'") else { break }
                if code != 0 && contract.service.code(code) == nil {
                    let codes = contract.service.codes.map(\.code)
                    let nearest = codes.min { abs($0 - code) < abs($1 - code) }
                    reader.error("unknown business code \(code)\(nearest.map { "; nearest declared: \($0)" } ?? "")", at: value)
                }
                fixture.code = code
            case "msg": fixture.message = reader.text(value, "'msg'")
            case "data": dataNode = value
            case "stream": fixture.events = events(value, endpoint: endpoint, fixture: name, reader: &reader)
            case "when": (fixture.matchers, fixture.conditions) = matchers(value, endpoint: endpoint, reader: &reader)
            case "effect": fixture.effects = effects.effects(value, endpoint: endpoint, reader: &reader)
            default: break
            }
        }
        // A plain API's fixture answers an error by its status: the status is its code.
        if contract.service.envelope == nil, fixture.code == 0, let status = fixture.status, status >= 400 { fixture.code = status }
        checkData(dataNode, of: &fixture, endpoint: endpoint, reader: &reader)
        return fixture
    }

    /// The fixture's `data`, checked: against what its effects answer, its endpoint's response, or its code's payload.
    private func checkData(_ dataNode: Node?, of fixture: inout Fixture, endpoint: Endpoint, reader: inout NodeReader) {
        if !fixture.effects.isEmpty && fixture.code == 0 {
            let sourced = dataNode.map { reader.json($0) }
            fixture.data = sourced?.value
            if let sourced { values.compileCheck(sourced, what: "fixture '\(fixture.name)' data", reader: &reader) }
            effects.checkAnswer(sourced, effects: fixture.effects, endpoint: endpoint, fixture: fixture.name, at: fixture.location, reader: &reader)
        } else if let dataNode {
            let sourced = reader.json(dataNode)
            fixture.data = sourced.value
            if fixture.code == 0 {
                values.check(sourced, against: endpoint.response, what: "fixture '\(fixture.name)' data", reader: &reader)
                let narrowed = Set(fixture.matchers.map { "\($0.source.rawValue):\($0.key)" })
                values.checkHoles(sourced, against: endpoint.response, endpoint: endpoint, narrowed: narrowed, what: "fixture '\(fixture.name)' data",
                                  reader: &reader)
            } else if let payload = contract.service.code(status: fixture.code, body: contract.service.envelope == nil ? sourced.value : nil)?.data
                        ?? (contract.service.envelope == nil ? contract.service.errors.body : nil) {
                values.check(sourced, against: payload, what: "fixture '\(fixture.name)' data (code \(fixture.code))", reader: &reader)
            } else {
                values.compileCheck(sourced, what: "fixture '\(fixture.name)' data", reader: &reader)
            }
        }
    }

    private func events(_ node: Node, endpoint: Endpoint, fixture: String, reader: inout NodeReader) -> [Fixture.Event]? {
        guard let stream = endpoint.stream else {
            reader.error("'\(endpoint.id)' does not stream; only endpoints with 'stream' in the contract take stream fixtures", at: node)
            return nil
        }
        return (reader.sequence(node, "'stream'") ?? []).compactMap { item in
            guard let pairs = reader.mapping(item, "a stream event") else { return nil }
            reader.checkKeys(pairs, allowed: MocksKeys.streamEvent.names, in: "a stream event")
            guard let dataNode = item["data"] else {
                reader.error("a stream event needs 'data'", at: item)
                return nil
            }
            let data = reader.json(dataNode)
            values.check(data, against: stream.event, what: "fixture '\(fixture)' event", reader: &reader)
            let delay = item["delay"].flatMap { reader.milliseconds($0, "'delay'") } ?? 0
            return Fixture.Event(data: data.value, delayMilliseconds: delay)
        }
    }

    private func matchers(_ node: Node, endpoint: Endpoint, reader: inout NodeReader) -> ([Matcher], [StateCondition]) {
        var matchers: [Matcher] = []
        var conditions: [StateCondition] = []
        for sourcePair in reader.mapping(node, "'when'") ?? [] {
            guard let sourceName = reader.key(sourcePair, "'when'") else { continue }
            if sourceName == "state" {
                conditions += effects.conditions(sourcePair.value, reader: &reader)
                continue
            }
            guard let source = Matcher.Source(rawValue: sourceName) else {
                let names = Matcher.Source.allCases.map(\.rawValue) + ["state"]
                reader.error("unknown request part '\(sourceName)' in 'when'\(NameSuggestion.hint(for: sourceName, in: names)); expected one of \(names.joined(separator: ", "))", at: sourcePair.key)
                continue
            }
            let declared: [String]? = switch source {
            case .params: endpoint.parameters.map(\.name)
            case .query: endpoint.query.map(\.name)
            case .headers, .body: nil
            }
            for pair in reader.mapping(sourcePair.value, "'when.\(sourceName)'") ?? [] {
                guard var key = reader.key(pair, "'when.\(sourceName)'") else { continue }
                if let declared, !declared.contains(key) {
                    reader.error("'\(endpoint.id)' declares no \(source == .params ? "path parameter" : "query parameter") '\(key)'\(NameSuggestion.hint(for: key, in: declared))", at: pair.key)
                    continue
                }
                if source == .body && !key.hasPrefix("/") { key = "/" + key.jsonPointerEscaped }
                guard let condition = condition(pair.value, reader: &reader) else { continue }
                matchers.append(Matcher(source: source, key: key, condition: condition))
            }
        }
        return (matchers, conditions)
    }

    /// `value`, `{equals: value}`, `{regex: '…'}` or `{present: true|false}`.
    private func condition(_ node: Node, reader: inout NodeReader) -> Matcher.Condition? {
        switch node.content {
        case .scalar(let scalar):
            return .equals(scalar.value)
        case .sequence:
            reader.error("a matcher is a value, {equals: …}, {regex: …} or {present: …}, found a sequence", at: node)
            return nil
        case .mapping(let pairs):
            guard pairs.count == 1, let kind = pairs[0].key.scalar?.value else {
                reader.error("a matcher has exactly one of 'equals', 'regex', 'present'", at: node)
                return nil
            }
            let value = pairs[0].value
            switch kind {
            case "equals":
                if let scalar = value.scalar { return .equals(scalar.value) }
                return .equals(JSONWriter.string(reader.json(value).value))
            case "regex":
                guard let pattern = reader.text(value, "'regex'") else { return nil }
                do {
                    return .regex(try CompiledPattern(pattern, wholeString: false))
                } catch {
                    reader.error("invalid regular expression '\(pattern)'", at: value)
                    return nil
                }
            case "present":
                return reader.bool(value, "'present'").map(Matcher.Condition.present)
            default:
                reader.error("unknown matcher '\(kind)'\(NameSuggestion.hint(for: kind, in: MocksKeys.matcherForm.names))", at: pairs[0].key)
                return nil
            }
        }
    }
}

extension NodeReader {
    /// A delay such as `150ms`, `2s` or a bare number of milliseconds.
    package mutating func milliseconds(_ node: Node, _ what: String) -> Int? {
        if case .int(let value)? = node.scalar?.resolved, value >= 0 { return value }
        if let text = node.scalar?.value, let value = DurationText.milliseconds(text) { return value }
        error("expected a delay for \(what) such as 150ms or 2s, found \(node.kindDescription) '\(node.scalar?.value ?? "")'", at: node)
        return nil
    }

    /// Where a sourced value starts.
    package func location(of value: SourcedJSON) -> SourceLocation {
        value.locations[""] ?? SourceLocation(file: file)
    }
}
