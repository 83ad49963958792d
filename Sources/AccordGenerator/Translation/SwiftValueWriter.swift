import AccordContract
import AccordJSON

/// Writes a JSON value as the Swift expression of the generated type at its place:
/// `Signal(id: "sg_1", sender: UserBrief(…), …)`.
///
/// The Swift type of each value follows the names ``TypeTranslator`` gives, nested
/// inline types qualified by the struct that declares them.
struct SwiftValueWriter {
    let contract: Contract
    /// The generation's one type translator (it indexes every endpoint's stream toggle).
    private let translator: TypeTranslator
    var naming: Naming { translator.naming }

    init(contract: Contract, translator: TypeTranslator) {
        self.contract = contract
        self.translator = translator
    }

    /// The Swift type and value expression of `value` at a place of `schema`'s type, or
    /// nil when the value does not fit it.
    func typedValue(_ value: JSONValue, schema: Schema, suggested: String) -> (type: String, value: String)? {
        var nested: [Declaration] = []
        let type = translator.type(for: schema, suggestedName: suggested, file: "", nested: &nested)
        guard let expression = expression(value, schema: schema, suggested: suggested, qualifier: nil) else { return nil }
        return (type, expression)
    }

    /// `suggested` is the name an inline type here gets; `qualifier` the struct it is
    /// nested in, if any.
    private func expression(_ value: JSONValue, schema: Schema, suggested: String, qualifier: String?) -> String? {
        let qualified = qualifier.map { "\($0).\(suggested)" } ?? suggested
        switch schema.kind {
        case .reference(let name):
            guard let declared = contract.types[name] else { return nil }
            switch declared.schema.kind {
            case .object(let fields): return fields.isEmpty ? "AccordEmpty()" : structure(value, fields: fields, name: name, qualified: name)
            case .enumeration(let cases): return enumeration(value, cases: cases, type: name)
            case .union(let union): return self.union(value, union: union, type: name)
            default: return expression(value, schema: declared.schema, suggested: name + "Value", qualifier: nil)
            }
        case .primitive(let primitive):
            return self.primitive(value, primitive)
        case .array(let item):
            guard case .array(let items) = value else { return nil }
            var elements: [String] = []
            for element in items {
                guard let text = expression(element, schema: item, suggested: TypeTranslator.singular(suggested), qualifier: qualifier) else { return nil }
                elements.append(text)
            }
            return "[" + elements.joined(separator: ", ") + "]"
        case .map(let valueSchema):
            guard case .object(let members) = value else { return nil }
            if members.isEmpty { return "[:]" }
            var pairs: [String] = []
            for member in members {
                guard let element = expression(member.value, schema: valueSchema, suggested: suggested + "Value", qualifier: qualifier) else { return nil }
                pairs.append("\(member.key.swiftLiteral): \(element)")
            }
            return "[" + pairs.joined(separator: ", ") + "]"
        case .object(let fields):
            return fields.isEmpty ? "AccordEmpty()" : structure(value, fields: fields, name: suggested, qualified: qualified)
        case .enumeration(let cases):
            return enumeration(value, cases: cases, type: qualified)
        case .union(let union):
            return self.union(value, union: union, type: qualified)
        }
    }

    /// `Card.user(UserCard(…))` for the shape the discriminator selects; a value the
    /// contract does not know is `.unknown(kind:raw:)` with the whole object.
    private func union(_ value: JSONValue, union: Union, type: String) -> String? {
        guard case .object(let members) = value, case .string(let tag)? = value[union.discriminator] else { return nil }
        let names = naming.caseNames(union.cases.map { naming.property($0.value) })
        guard let index = union.cases.firstIndex(where: { $0.value == tag }) else {
            return "\(type).unknown(kind: \(tag.swiftLiteral), raw: \(anyJSON(value)))"
        }
        let shape = union.cases[index]
        let rest = JSONValue.object(members.filter { $0.key != union.discriminator })
        guard let fields = contract.types.objectFields(of: Schema(.reference(shape.typeName), location: shape.location)),
              let payload = fields.isEmpty ? "AccordEmpty()" : structure(rest, fields: fields, name: shape.typeName, qualified: shape.typeName)
        else { return nil }
        return "\(type).\(Naming.bare(names[index].name))(\(payload))"
    }

    /// `Name(member: value, …)` in the initializer's order; absent or null optionals left
    /// to their default.
    private func structure(_ value: JSONValue, fields: [Field], name: String, qualified: String) -> String? {
        guard case .object = value else { return nil }
        var arguments: [String] = []
        for (field, swiftName) in zip(fields, naming.memberNames(fields)) {
            let member = value[field.name]
            if member == nil || member == .null {
                guard field.isOptional || field.isNullable else { return nil }
                continue
            }
            let nestedName = naming.nestedTypeName(of: field, member: swiftName, in: name)
            guard let member, let argument = expression(member, schema: field.schema, suggested: nestedName, qualifier: qualified) else { return nil }
            arguments.append("\(Naming.argumentLabel(swiftName.name)): \(argument)")
        }
        return "\(qualified)(\(arguments.joined(separator: ", ")))"
    }

    private func enumeration(_ value: JSONValue, cases: EnumCases, type: String) -> String? {
        let names = naming.caseNames(cases.cases.map(\.name))
        for (item, name) in zip(cases.cases, names) {
            switch (item.value, value) {
            case (.string(let text), .string(let wire)) where text == wire: return "\(type).\(Naming.bare(name.name))"
            case (.int(let number), .int(let wire)) where number == wire: return "\(type).\(Naming.bare(name.name))"
            default: continue
            }
        }
        switch value {
        case .string(let wire): return "\(type).unknown(\(wire.swiftLiteral))"
        case .int(let wire) where cases.isIntegral: return "\(type).unknown(\(wire))"
        default: return nil
        }
    }

    private func primitive(_ value: JSONValue, _ primitive: Primitive) -> String? {
        switch (primitive, value) {
        case (.string, .string(let text)): text.swiftLiteral
        case (.int, .int(let number)), (.int64, .int(let number)): String(number)
        case (.double, .int(let number)): String(number)
        case (.double, .double(let number)) where number.isFinite: "\(number)"
        case (.bool, .bool(let flag)): flag ? "true" : "false"
        case (.decimal, .string(let text)): "AccordDecimal(fixture: \(text.swiftLiteral))"
        case (.decimal, .int), (.decimal, .double): "AccordDecimal(fixture: \(JSONWriter.string(value).swiftLiteral))"
        case (.dateTime, .string(let text)): "AccordDateTime(fixture: \(text.swiftLiteral))"
        case (.date, .string(let text)): "AccordDate(fixture: \(text.swiftLiteral))"
        case (.url, .string(let text)): "URL(fixture: \(text.swiftLiteral))"
        case (.any, _): anyJSON(value)
        default: nil
        }
    }

    private func anyJSON(_ value: JSONValue) -> String {
        switch value {
        case .null: "AccordJSON.null"
        case .bool(let flag): "AccordJSON.bool(\(flag))"
        case .int(let number): "AccordJSON.integer(\(number))"
        case .double(let number): "AccordJSON.number(\(number.isFinite ? "\(number)" : "0"))"
        case .string(let text): "AccordJSON.string(\(text.swiftLiteral))"
        case .array(let items): "AccordJSON.array([" + items.map(anyJSON).joined(separator: ", ") + "])"
        case .object(let members):
            members.isEmpty ? "AccordJSON.object([:])"
                : "AccordJSON.object([" + members.map { "\($0.key.swiftLiteral): \(anyJSON($0.value))" }.joined(separator: ", ") + "])"
        }
    }
}
