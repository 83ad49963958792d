import AccordDiagnostics
import AccordYAML
import Foundation

/// A decoded type position: the schema and the field-level flags written with it.
struct TypeSpec {
    var schema: Schema
    var isOptional = false
    var isNullable = false
}

extension NodeReader {
    /// Keys of the long form `{type: …, min: …}`.
    static let longFormKeys = ContractKeys.longForm.names

    /// Decodes any type position: a shorthand string, `[T]`, `{string: T}`, `{}`, an
    /// inline object, `{fields: …}`, `{enum: …}` or the long form `{type: …, …}`.
    mutating func typeSpec(_ node: Node, _ what: String) -> TypeSpec? {
        switch node.content {
        case .scalar(let scalar):
            return shorthand(scalar, at: node, what)
        case .sequence(let items):
            guard items.count == 1, let item = typeSpec(items[0], "the items of \(what)") else {
                if items.count != 1 { error("an array type is written [T] with exactly one item type", at: node) }
                return nil
            }
            return TypeSpec(schema: Schema(.array(item.schema), location: location(node)))
        case .mapping(let pairs):
            let keys = pairs.compactMap { $0.key.scalar?.value }
            if keys.contains("fields") { return object(fields: pairs, at: node, what) }
            if keys.contains("one_of") { return union(pairs, at: node, what) }
            if keys.contains("enum") { return enumeration(pairs, at: node, what) }
            if keys.contains("type"), keys.allSatisfy(Self.longFormKeys.contains) { return longForm(pairs, at: node, what) }
            if keys.contains("type"), reportsLongFormTrap(pairs, what) { return nil }
            if keys == ["string"], let value = typeSpec(pairs[0].value, "the values of \(what)") {
                return TypeSpec(schema: Schema(.map(value.schema), location: location(node)))
            }
            let fields = self.fields(pairs, of: what)
            return TypeSpec(schema: Schema(.object(fields), location: location(node)))
        }
    }

    /// The fields of an inline object (`{name: type, …}`).
    mutating func fields(_ pairs: [Node.Pair], of what: String) -> [Field] {
        pairs.compactMap { pair in
            guard let name = key(pair, what), let spec = typeSpec(pair.value, "field '\(name)'") else { return nil }
            return Field(name: name, schema: spec.schema, isOptional: spec.isOptional, isNullable: spec.isNullable, location: location(pair.key))
        }
    }

    private mutating func shorthand(_ scalar: Node.Scalar, at node: Node, _ what: String) -> TypeSpec? {
        guard scalar.resolved != .null else {
            error("expected a type for \(what), found null", at: node)
            return nil
        }
        // Offsets inside the text map to columns when the scalar sits on one line.
        let quote = (scalar.style == .singleQuoted || scalar.style == .doubleQuoted) ? 1 : 0
        let base = location(node)
        let locate = { (offset: Int) -> SourceLocation in
            var location = base
            location.column += offset + quote
            return location
        }
        do {
            let expression = try TypeExpression(parsing: scalar.value)
            return TypeSpec(schema: schema(expression.term, locate: locate), isOptional: expression.isOptional)
        } catch {
            self.error("invalid type '\(scalar.value)': \(error.message)", at: locate(error.offset))
            return nil
        }
    }

    private func schema(_ term: TypeExpression.Term, locate: (Int) -> SourceLocation) -> Schema {
        switch term {
        case .name(let name, let offset):
            let kind: Schema.Kind = Primitive(rawValue: name).map(Schema.Kind.primitive) ?? .reference(name)
            return Schema(kind, location: locate(offset))
        case .array(let item, let offset):
            return Schema(.array(schema(item, locate: locate)), location: locate(offset))
        case .map(let value, let offset):
            return Schema(.map(schema(value, locate: locate)), location: locate(offset))
        case .enumeration(let words, let offset):
            let cases = words.map { EnumCases.Case(name: $0.0, value: .string($0.0), location: locate($0.1)) }
            return Schema(.enumeration(EnumCases(cases)), location: locate(offset))
        case .generic(let name, let arguments, let offset):
            // A reference to the instance, which the loader declares (``GenericInstances``).
            return Schema(.reference(GenericInstance.name(name, arguments)), location: locate(offset))
        }
    }

    private mutating func object(fields pairs: [Node.Pair], at node: Node, _ what: String) -> TypeSpec? {
        checkKeys(pairs, allowed: ContractKeys.objectForm.names, in: what)
        var schema = Schema(.object([]), location: location(node))
        for pair in pairs {
            switch pair.key.scalar?.value {
            case "fields":
                guard let fieldPairs = mapping(pair.value, "the fields of \(what)") else { return nil }
                schema.kind = .object(fields(fieldPairs, of: what))
            case "description": schema.description = text(pair.value, "description")
            case "deprecated": schema.isDeprecated = bool(pair.value, "deprecated") ?? false
            default: break
            }
        }
        return TypeSpec(schema: schema)
    }

    /// `{discriminator: kind, one_of: {user: UserCard, ad: AdCard}}`: a tagged union.
    private mutating func union(_ pairs: [Node.Pair], at node: Node, _ what: String) -> TypeSpec? {
        checkKeys(pairs, allowed: ContractKeys.unionForm.names, in: what)
        guard let discriminatorNode = node["discriminator"] else {
            error("a union ('one_of') needs 'discriminator', the member whose value selects the shape", at: node)
            return nil
        }
        guard let discriminator = text(discriminatorNode, "'discriminator'"), let casePairs = node["one_of"].flatMap({ mapping($0, "'one_of'") })
        else { return nil }
        var cases: [Union.Case] = []
        for pair in casePairs {
            guard let value = key(pair, "'one_of'") else { continue }
            guard case .scalar(let scalar) = pair.value.content, case .string(let typeName) = scalar.resolved,
                  Self.isTypeName(typeName) else {
                error("the shape of '\(value)' in 'one_of' is a named object type (UpperCamelCase), found \(pair.value.kindDescription)", at: pair.value)
                continue
            }
            cases.append(Union.Case(value: value, typeName: typeName, location: location(pair.value)))
        }
        guard !cases.isEmpty else {
            error("a union needs at least one shape in 'one_of'", at: node)
            return nil
        }
        var schema = Schema(.union(Union(discriminator: discriminator, cases: cases)), location: location(node))
        schema.description = node["description"].flatMap { text($0, "description") }
        schema.isDeprecated = node["deprecated"].flatMap { bool($0, "deprecated") } ?? false
        return TypeSpec(schema: schema)
    }

    /// `UpperCamelCase`: how named types are written.
    static func isTypeName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    private mutating func enumeration(_ pairs: [Node.Pair], at node: Node, _ what: String) -> TypeSpec? {
        checkKeys(pairs, allowed: ContractKeys.enumForm.names, in: what,
                  misplaced: ["type": "an enum's values give its type; write {enum: [a, b]} (or 'a | b') without 'type'"])
        var spec = TypeSpec(schema: Schema(.enumeration(EnumCases([])), location: location(node)))
        for pair in pairs {
            switch pair.key.scalar?.value {
            case "enum":
                guard let cases = enumCases(pair.value, what) else { return nil }
                spec.schema.kind = .enumeration(cases)
            case "description": spec.schema.description = text(pair.value, "description")
            case "deprecated": spec.schema.isDeprecated = bool(pair.value, "deprecated") ?? false
            case "default": spec.schema.defaultValue = json(pair.value)
            case "optional": spec.isOptional = bool(pair.value, "optional") ?? false
            default: break
            }
        }
        return spec
    }

    /// `[a, b]` (string values) or `{0: unset, 1: male}` (integer values with names).
    private mutating func enumCases(_ node: Node, _ what: String) -> EnumCases? {
        var cases: [EnumCases.Case] = []
        switch node.content {
        case .sequence(let items):
            for item in items {
                guard case .string(let value)? = item.scalar?.resolved else {
                    error("values of a string enum must be strings; give integer values names with {0: name, …}", at: item)
                    continue
                }
                cases.append(EnumCases.Case(name: value, value: .string(value), location: location(item)))
            }
        case .mapping(let pairs):
            for pair in pairs {
                guard case .int(let value)? = pair.key.scalar?.resolved else {
                    error("keys of an integer enum must be integers, found \(pair.key.kindDescription)", at: pair.key)
                    continue
                }
                guard let name = text(pair.value, "the name of enum value \(value)") else { continue }
                cases.append(EnumCases.Case(name: name, value: .int(value), location: location(pair.key)))
            }
        case .scalar:
            error("expected the values of \(what) as [a, b] or {0: name, …}, found \(node.kindDescription)", at: node)
            return nil
        }
        guard !cases.isEmpty else {
            error("an enum needs at least one value", at: node)
            return nil
        }
        return EnumCases(cases)
    }

    private mutating func longForm(_ pairs: [Node.Pair], at node: Node, _ what: String) -> TypeSpec? {
        guard let typeNode = node["type"], var spec = typeSpec(typeNode, what) else { return nil }
        for pair in pairs {
            let value = pair.value
            switch pair.key.scalar?.value {
            case "description": spec.schema.description = text(value, "description")
            case "optional": spec.isOptional = bool(value, "optional") ?? spec.isOptional
            case "nullable": spec.isNullable = bool(value, "nullable") ?? false
            case "deprecated": spec.schema.isDeprecated = bool(value, "deprecated") ?? false
            case "default": spec.schema.defaultValue = json(value)
            case "min": spec.schema.constraints.minimum = number(value, "min")
            case "max": spec.schema.constraints.maximum = number(value, "max")
            case "min_length": spec.schema.constraints.minLength = int(value, "min_length")
            case "max_length": spec.schema.constraints.maxLength = int(value, "max_length")
            case "min_items": spec.schema.constraints.minItems = int(value, "min_items")
            case "max_items": spec.schema.constraints.maxItems = int(value, "max_items")
            case "pattern": spec.schema.constraints.pattern = text(value, "pattern")
            default: break
            }
        }
        checkConstraints(spec.schema, pairs)
        return spec
    }

    /// Reports bounds that contradict each other, bad patterns, and constraints that do
    /// not apply to the type, each at the key that states it.
    private mutating func checkConstraints(_ schema: Schema, _ pairs: [Node.Pair]) {
        func key(_ name: String) -> Node? { pairs.first { $0.key.scalar?.value == name }?.key }
        let constraints = schema.constraints
        let bounds: [(String, String, Double?, Double?)] = [
            ("min", "max", constraints.minimum, constraints.maximum),
            ("min_length", "max_length", constraints.minLength.map(Double.init), constraints.maxLength.map(Double.init)),
            ("min_items", "max_items", constraints.minItems.map(Double.init), constraints.maxItems.map(Double.init)),
        ]
        for (lower, upper, low, high) in bounds {
            if let low, let high, low > high, let node = key(lower) {
                error("'\(lower)' \(Self.format(low)) is greater than '\(upper)' \(Self.format(high))", at: node)
            }
        }
        for (name, value) in [("min_length", constraints.minLength), ("max_length", constraints.maxLength),
                              ("min_items", constraints.minItems), ("max_items", constraints.maxItems)] {
            if let value, value < 0, let node = key(name) {
                error("'\(name)' must not be negative, found \(value)", at: node)
            }
        }
        if let pattern = constraints.pattern, let node = key("pattern"), (try? NSRegularExpression(pattern: pattern)) == nil {
            error("invalid regular expression '\(pattern)' in 'pattern'", at: node)
        }
        let applies: [String: (Schema.Kind) -> Bool] = [
            "min": Self.isNumeric, "max": Self.isNumeric,
            "min_length": Self.isText, "max_length": Self.isText, "pattern": Self.isText,
            "min_items": Self.isArray, "max_items": Self.isArray,
        ]
        for (name, test) in applies.sorted(by: { $0.key < $1.key }) {
            if let node = key(name), !test(schema.kind) {
                error("'\(name)' does not apply to \(Self.kindName(schema.kind))", at: node)
            }
        }
    }

    private static func isNumeric(_ kind: Schema.Kind) -> Bool {
        switch kind {
        case .primitive(.int), .primitive(.int64), .primitive(.double), .primitive(.decimal), .reference: true
        default: false
        }
    }

    private static func isText(_ kind: Schema.Kind) -> Bool {
        switch kind {
        case .primitive(.string), .primitive(.url), .primitive(.decimal), .reference: true
        default: false
        }
    }

    private static func isArray(_ kind: Schema.Kind) -> Bool {
        switch kind {
        case .array, .reference: true
        default: false
        }
    }

    /// A word for a schema kind in messages: `int`, `an array`, `type 'Signal'`.
    static func kindName(_ kind: Schema.Kind) -> String {
        switch kind {
        case .primitive(let primitive): primitive.rawValue
        case .array: "an array"
        case .map: "a map"
        case .reference(let name): "type '\(name)'"
        case .object: "an object"
        case .enumeration: "an enum"
        case .union: "a union"
        }
    }

    /// `5` rather than `5.0` for whole numbers (bounds in messages).
    public static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
