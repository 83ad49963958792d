import AccordContract
import AccordJSON

/// A contract schema as a JSON Schema (2020-12, as OpenAPI 3.1 uses it): named types
/// become `$ref`s to components, optional and nullable members also admit `null`, and
/// objects are closed when the contract rejects unknown members.
struct SchemaTranslator: Sendable {
    /// Whether objects refuse members they do not declare (`additionalProperties: false`).
    let closed: Bool
    /// The named types, for the shapes of unions (written out with their discriminator).
    let types: [String: TypeDeclaration]

    /// A type's component key: OpenAPI allows `[A-Za-z0-9._-]`, so `Page<Match>` is `Page-Match`.
    static func componentName(_ name: String) -> String {
        guard let instance = GenericInstance(name: name) else { return name }
        return ([instance.generic] + instance.arguments).joined(separator: "-")
    }

    /// A decimal carried as a string: `"9.99"`, `"-3"`.
    static let decimalPattern = #"^-?[0-9]+(\.[0-9]+)?$"#

    func schema(_ schema: Schema) -> JSONValue {
        var members: [JSONValue.Member]
        var constraints = schema.constraints
        switch schema.kind {
        case .primitive(let primitive):
            members = Self.primitive(primitive)
            if primitive == .int {
                // An int is exact in a double: its bounds never pass ±(2^53 - 1).
                let limit = Double(Primitive.largestExactInteger)
                constraints.minimum = max(constraints.minimum ?? -limit, -limit)
                constraints.maximum = min(constraints.maximum ?? limit, limit)
            }
        case .array(let item):
            members = [.init("type", .string("array")), .init("items", self.schema(item))]
        case .map(let value):
            members = [.init("type", .string("object")), .init("additionalProperties", self.schema(value))]
        case .reference(let name):
            members = [.init("$ref", .string("#/components/schemas/\(Self.componentName(name))"))]
        case .object(let fields):
            members = [.init("type", .string("object")),
                       .init("properties", .object(fields.map { .init($0.name, field($0)) }))]
            let required = fields.filter { !$0.isOptional }.map { JSONValue.string($0.name) }
            if !required.isEmpty { members.append(.init("required", .array(required))) }
            if closed { members.append(.init("additionalProperties", .bool(false))) }
        case .union(let union):
            // Each shape written out with its discriminator value, so a closed object admits it
            // and exactly one alternative fits.
            members = [.init("oneOf", .array(union.cases.map { shape($0, of: union) }))]
        case .enumeration(let cases):
            members = [.init("type", .string(cases.isIntegral ? "integer" : "string")),
                       .init("enum", .array(cases.cases.map { enumCase in
                           switch enumCase.value {
                           case .string(let text): .string(text)
                           case .int(let number): .int(number)
                           }
                       }))]
            // An integer enum's Swift-facing names, as code generators (and `accord import openapi`) read them.
            if cases.isIntegral { members.append(.init("x-enum-varnames", .array(cases.cases.map { .string($0.name) }))) }
        }
        members += self.constraints(constraints)
        if let description = schema.description { members.append(.init("description", .string(description))) }
        if schema.isDeprecated { members.append(.init("deprecated", .bool(true))) }
        if let value = schema.defaultValue?.value { members.append(.init("default", value)) }
        return .object(members)
    }

    /// One shape of a union: the case type's members, and the discriminator fixed to its value.
    private func shape(_ unionCase: Union.Case, of union: Union) -> JSONValue {
        var fields = types.objectFields(of: Schema(.reference(unionCase.typeName), location: unionCase.location)) ?? []
        let tag = EnumCases([EnumCases.Case(name: unionCase.value, value: .string(unionCase.value), location: unionCase.location)])
        fields.insert(Field(name: union.discriminator, schema: Schema(.enumeration(tag), location: unionCase.location),
                            location: unionCase.location), at: 0)
        var shape = Schema(.object(fields), location: unionCase.location)
        shape.description = types[unionCase.typeName]?.schema.description
        // The case type's name, so `accord import openapi` gives the shape back its component.
        guard case .object(var members) = schema(shape) else { return schema(shape) }
        members.insert(.init("title", .string(unionCase.typeName)), at: 0)
        return .object(members)
    }

    /// A member's schema; one that may be absent or null also admits `null`.
    private func field(_ field: Field) -> JSONValue {
        let base = schema(field.schema)
        guard field.isOptional || field.isNullable else { return base }
        return .object([.init("anyOf", .array([base, .object([.init("type", .string("null"))])]))])
    }

    /// How a schema is named in prose: its type name, or its kind.
    func describe(_ schema: Schema) -> String {
        switch schema.kind {
        case .reference(let name): name
        case .primitive(let primitive): primitive.rawValue
        case .array: "array"
        case .map, .object: "object"
        case .enumeration: "enum"
        case .union: "union"
        }
    }

    private static func primitive(_ primitive: Primitive) -> [JSONValue.Member] {
        switch primitive {
        case .string: [.init("type", .string("string"))]
        case .int: [.init("type", .string("integer"))]
        case .int64: [.init("type", .string("integer")), .init("format", .string("int64"))]
        case .bool: [.init("type", .string("boolean"))]
        case .double: [.init("type", .string("number"))]
        case .decimal: [.init("type", .string("string")), .init("pattern", .string(decimalPattern))]
        case .dateTime: [.init("type", .string("string")), .init("format", .string("date-time"))]
        case .date: [.init("type", .string("string")), .init("format", .string("date"))]
        case .url: [.init("type", .string("string")), .init("format", .string("uri"))]
        case .any: []
        }
    }

    private func constraints(_ constraints: Constraints) -> [JSONValue.Member] {
        var members: [JSONValue.Member] = []
        func number(_ value: Double) -> JSONValue {
            value.rounded() == value && abs(value) <= Double(Primitive.largestExactInteger) ? .int(Int(value)) : .double(value)
        }
        if let minimum = constraints.minimum { members.append(.init("minimum", number(minimum))) }
        if let maximum = constraints.maximum { members.append(.init("maximum", number(maximum))) }
        if let minLength = constraints.minLength { members.append(.init("minLength", .int(minLength))) }
        if let maxLength = constraints.maxLength { members.append(.init("maxLength", .int(maxLength))) }
        if let minItems = constraints.minItems { members.append(.init("minItems", .int(minItems))) }
        if let maxItems = constraints.maxItems { members.append(.init("maxItems", .int(maxItems))) }
        if let pattern = constraints.pattern { members.append(.init("pattern", .string("^(?:\(pattern))$"))) }
        return members
    }
}
