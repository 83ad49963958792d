import AccordContract
import AccordDiagnostics

/// The changes from one version of the contracts to another, each classified: what an
/// app built on the old version, or a backend built on it, would trip over.
///
/// Requests and responses are compared in their own direction: a new required request
/// member breaks apps (their requests are refused); a removed response member breaks
/// apps (their decoding fails); a response member added as required, or a business
/// code removed, breaks backends that still answer the old way.
public struct ContractDiff: Sendable {
    public let old: Contract
    public let new: Contract

    public init(old: Contract, new: Contract) {
        self.old = old
        self.new = new
    }

    /// Every change, in the new contract's order (removals where they were).
    public func changes() -> [ContractChange] {
        var walker = Walker(old: old, new: new)
        walker.compareService()
        let newEndpoints = Dictionary(new.endpoints.map { ($0.id, $0) }) { first, _ in first }
        let oldEndpoints = Dictionary(old.endpoints.map { ($0.id, $0) }) { first, _ in first }
        for endpoint in old.endpoints where newEndpoints[endpoint.id] == nil {
            walker.add("endpoint '\(endpoint.id)' (\(endpoint.method.rawValue) \(endpoint.path)) removed", breaks: [.app], old: endpoint.location, new: nil)
        }
        for endpoint in new.endpoints {
            guard let before = oldEndpoints[endpoint.id] else {
                walker.add("endpoint '\(endpoint.id)' (\(endpoint.method.rawValue) \(endpoint.path)) added", breaks: [], old: nil, new: endpoint.location)
                continue
            }
            walker.compare(before, endpoint)
        }
        return walker.changes
    }
}

/// Walks both contracts side by side, collecting changes.
struct Walker {
    enum Direction: String {
        case request, response

        /// Whom a value the contract no longer allows breaks: in a request the app
        /// (it still sends it), in a response the backend (it still answers it).
        var narrowing: Set<ContractChange.Party> { self == .request ? [.app] : [.backend] }
        /// Whom a value the contract newly allows breaks: in a request the backend (it
        /// refuses it), in a response the app (it cannot read it).
        var widening: Set<ContractChange.Party> { self == .request ? [.backend] : [.app] }
        /// Why an enum value or union shape newly answered breaks no app: the generated
        /// enums are open, so one an app does not know decodes as `unknown`.
        var openNote: String {
            self == .response ? " (safe for apps Accord generates: a value they do not know decodes as .unknown; a hand-written strict decoder fails)" : ""
        }
    }

    let old: Contract
    let new: Contract
    private(set) var changes: [ContractChange] = []
    /// Named types already compared in a direction, so a type used by many endpoints
    /// (or by itself) is reported once.
    private var compared: Set<String> = []

    init(old: Contract, new: Contract) {
        self.old = old
        self.new = new
    }

    mutating func add(_ message: String, breaks: Set<ContractChange.Party>, old: SourceLocation?, new: SourceLocation?) {
        let change = ContractChange(message, breaks: breaks, old: old, new: new)
        if !changes.contains(change) { changes.append(change) }
    }

    mutating func compare(_ before: Endpoint, _ after: Endpoint) {
        let id = after.id
        if before.method != after.method || before.path.shape != after.path.shape {
            add("'\(id)' moved from \(before.method.rawValue) \(before.path) to \(after.method.rawValue) \(after.path)", breaks: [.app, .backend],
                old: before.location, new: after.location)
        }
        if !before.requiresAuth && after.requiresAuth {
            add("'\(id)' now requires a signed-in user", breaks: [.app], old: before.location, new: after.location)
        } else if before.requiresAuth && !after.requiresAuth {
            add("'\(id)' no longer requires a signed-in user", breaks: [], old: before.location, new: after.location)
        }
        for code in before.codes where !after.codes.contains(code) {
            add("'\(id)' no longer declares business code \(code)", breaks: [.backend], old: before.location, new: after.location)
        }
        for code in after.codes where !before.codes.contains(code) {
            add("'\(id)' declares business code \(code)", breaks: [], old: before.location, new: after.location)
        }
        compareFields(before.parameters, after.parameters, owner: "'\(id)' request /params", direction: .request,
                      oldOwner: before.location, newOwner: after.location)
        compareFields(before.query, after.query, owner: "'\(id)' request /query", direction: .request,
                      oldOwner: before.location, newOwner: after.location)
        compareFields(before.headers, after.headers, owner: "'\(id)' request /headers", direction: .request,
                      oldOwner: before.location, newOwner: after.location)
        switch (before.body, after.body) {
        case (nil, let body?):
            add("'\(id)' request now has a body", breaks: [.app], old: before.location, new: body.location)
        case (let body?, nil):
            add("'\(id)' request no longer takes a body", breaks: [.app], old: body.location, new: after.location)
        case (let old?, let new?):
            compare(old, new, at: "'\(id)' request /body", direction: .request)
        case (nil, nil):
            break
        }
        compare(before.response, after.response, at: "'\(id)' response /data", direction: .response)
        if before.stream != nil && after.stream == nil {
            add("'\(id)' no longer streams", breaks: [.app], old: before.location, new: after.location)
        }
    }

    /// Compares two schemas at `place`, following named types once per direction.
    mutating func compare(_ before: Schema, _ after: Schema, at place: String, direction: Direction) {
        if case .reference(let oldName) = before.kind, case .reference(let newName) = after.kind, oldName == newName {
            let key = "\(direction.rawValue):\(newName)"
            guard !compared.contains(key), let oldType = old.types[oldName], let newType = new.types[newName] else { return }
            compared.insert(key)
            compare(oldType.schema, newType.schema, at: "type '\(newName)' (\(direction.rawValue)s)", direction: direction)
            return
        }
        let (oldKind, newKind) = (old.resolvedKind(of: before), new.resolvedKind(of: after))
        switch (oldKind, newKind) {
        case (.primitive(let a), .primitive(let b)) where a == b:
            break
        case (.array(let a), .array(let b)):
            compare(a, b, at: place + "/0", direction: direction)
        case (.map(let a), .map(let b)):
            compare(a, b, at: place + "/*", direction: direction)
        case (.object(let a), .object(let b)):
            compareFields(a, b, owner: place, direction: direction, oldOwner: before.location, newOwner: after.location)
        case (.enumeration(let a), .enumeration(let b)):
            let (oldValues, newValues) = (a.cases.map(\.value), b.cases.map(\.value))
            for removed in a.cases where !newValues.contains(removed.value) {
                add("\(place): enum value '\(removed.value)' removed", breaks: direction.narrowing, old: removed.location, new: after.location)
            }
            for added in b.cases where !oldValues.contains(added.value) {
                add("\(place): enum value '\(added.value)' added" + direction.openNote, breaks: direction.widening.subtracting([.app]),
                    old: before.location, new: added.location)
            }
        case (.union(let a), .union(let b)):
            guard a.discriminator == b.discriminator else {
                add("\(place): discriminator changed from '\(a.discriminator)' to '\(b.discriminator)'", breaks: [.app, .backend],
                    old: before.location, new: after.location)
                return
            }
            for removed in a.cases where b.selected(by: removed.value) == nil {
                add("\(place): shape '\(removed.value)' removed", breaks: direction.narrowing, old: removed.location, new: after.location)
            }
            for added in b.cases {
                guard let previous = a.selected(by: added.value) else {
                    add("\(place): shape '\(added.value)' added" + direction.openNote, breaks: direction.widening.subtracting([.app]),
                        old: before.location, new: added.location)
                    continue
                }
                compare(Schema(.reference(previous.typeName), location: previous.location), Schema(.reference(added.typeName), location: added.location),
                        at: "\(place) (\(b.discriminator) '\(added.value)')", direction: direction)
            }
        default:
            add("\(place): type changed from \(Self.name(oldKind)) to \(Self.name(newKind))", breaks: [.app, .backend],
                old: before.location, new: after.location)
            return
        }
        compareConstraints(before.constraints, after.constraints, at: place, direction: direction, old: before.location, new: after.location)
    }

    /// Members (or parameters, or headers) of `owner` (a place ending in a pointer), by name.
    mutating func compareFields(_ before: [Field], _ after: [Field], owner: String, direction: Direction,
                                oldOwner: SourceLocation, newOwner: SourceLocation) {
        let rejectsUnknown = new.service.validation.unknownMembers == .reject
        for field in before where !after.contains(where: { $0.name == field.name }) {
            let place = "\(owner)\(owner.hasSuffix(")") ? " " : "")/\(field.name.jsonPointerEscaped)"
            switch direction {
            case .request:
                add("\(place): member removed", breaks: rejectsUnknown ? [.app] : [], old: field.location, new: newOwner)
            case .response:
                add("\(place): member removed", breaks: field.isOptional ? [] : [.app], old: field.location, new: newOwner)
            }
        }
        for field in after {
            let place = "\(owner)\(owner.hasSuffix(")") ? " " : "")/\(field.name.jsonPointerEscaped)"
            guard let previous = before.first(where: { $0.name == field.name }) else {
                switch direction {
                case .request:
                    add("\(place): new \(field.isOptional ? "optional" : "required") member", breaks: field.isOptional ? [] : [.app],
                        old: oldOwner, new: field.location)
                case .response:
                    add("\(place): new \(field.isOptional ? "optional" : "required") member", breaks: field.isOptional ? [] : [.backend],
                        old: oldOwner, new: field.location)
                }
                continue
            }
            if previous.isOptional && !field.isOptional {
                add("\(place): optional → required", breaks: direction == .request ? [.app] : [.backend], old: previous.location, new: field.location)
            } else if !previous.isOptional && field.isOptional {
                add("\(place): required → optional", breaks: direction == .request ? [.backend] : [.app], old: previous.location, new: field.location)
            }
            if !previous.isNullable && field.isNullable && !field.isOptional && direction == .response {
                add("\(place): may now be null", breaks: [.app], old: previous.location, new: field.location)
            }
            compare(previous.schema, field.schema, at: place, direction: direction)
        }
    }

    /// Bounds and patterns: tighter in a request breaks apps, looser in a response breaks apps.
    mutating func compareConstraints(_ before: Constraints, _ after: Constraints, at place: String, direction: Direction,
                                     old: SourceLocation, new: SourceLocation) {
        func bound(_ name: String, _ a: Double?, _ b: Double?, tighterWhenLarger: Bool) {
            guard a != b else { return }
            let tighter: Bool = switch (a, b) {
            case (nil, _?): true
            case (_?, nil): false
            case (let a?, let b?): tighterWhenLarger ? b > a : b < a
            default: false
            }
            let text = { (value: Double?) in value.map { $0.rounded() == $0 ? String(Int($0)) : String($0) } ?? "none" }
            add("\(place): \(name) changed from \(text(a)) to \(text(b))", breaks: tighter ? direction.narrowing : direction.widening, old: old, new: new)
        }
        bound("minimum", before.minimum, after.minimum, tighterWhenLarger: true)
        bound("maximum", before.maximum, after.maximum, tighterWhenLarger: false)
        bound("min_length", before.minLength.map(Double.init), after.minLength.map(Double.init), tighterWhenLarger: true)
        bound("max_length", before.maxLength.map(Double.init), after.maxLength.map(Double.init), tighterWhenLarger: false)
        bound("min_items", before.minItems.map(Double.init), after.minItems.map(Double.init), tighterWhenLarger: true)
        bound("max_items", before.maxItems.map(Double.init), after.maxItems.map(Double.init), tighterWhenLarger: false)
        if before.pattern != after.pattern {
            add("\(place): pattern changed from \(before.pattern ?? "none") to \(after.pattern ?? "none")", breaks: [.app, .backend], old: old, new: new)
        }
    }

    static func name(_ kind: Schema.Kind) -> String {
        switch kind {
        case .primitive(let primitive): primitive.rawValue
        case .array: "array"
        case .map: "map"
        case .object: "object"
        case .enumeration: "enum"
        case .union: "union"
        case .reference(let name): name
        }
    }
}
