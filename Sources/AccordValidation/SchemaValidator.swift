import AccordContract
import AccordJSON
import Foundation

/// Checks JSON values against contract schemas and lists every violation, not
/// only the first.
///
/// Patterns are compiled once, when the validator is made, so validating stays
/// cheap on a request path.
public struct SchemaValidator: Sendable {
    public let types: [String: TypeDeclaration]
    public let unknownMembers: Service.Validation.UnknownMembers
    /// The schemas' patterns, compiled, by their text.
    let patterns: [String: CompiledPattern]
    /// The named types' schemas, each behind a reference: following a `.reference` to
    /// one retains an object instead of copying a declaration.
    private let schemas: [String: NamedSchema]

    /// A named type's schema, shared.
    private final class NamedSchema: Sendable {
        let schema: Schema

        init(_ schema: Schema) {
            self.schema = schema
        }
    }

    /// - Parameter schemas: schemas beyond the named types whose patterns values will be
    ///   held to (endpoints' inline members, headers); a pattern compiled nowhere is not checked.
    public init(types: [String: TypeDeclaration], unknownMembers: Service.Validation.UnknownMembers = .reject, schemas: [Schema] = []) {
        self.types = types
        self.unknownMembers = unknownMembers
        self.schemas = types.mapValues { NamedSchema($0.schema) }
        var patterns: [String: CompiledPattern] = [:]
        var pending = types.values.map(\.schema) + schemas
        while let schema = pending.popLast() {
            if let pattern = schema.constraints.pattern, patterns[pattern] == nil,
               let compiled = try? CompiledPattern(pattern, wholeString: true) {
                patterns[pattern] = compiled
            }
            switch schema.kind {
            case .array(let item), .map(let item): pending.append(item)
            case .object(let fields): pending += fields.map(\.schema)
            case .primitive, .reference, .enumeration, .union: break
            }
        }
        self.patterns = patterns
    }

    /// A validator for `contract`'s types and every schema its endpoints, headers and
    /// codes declare, with its unknown-member policy.
    public init(contract: Contract) {
        self.init(contract: contract, unknownMembers: contract.service.validation.unknownMembers)
    }

    /// A validator for every schema `contract` declares, with `unknownMembers` as the policy.
    public init(contract: Contract, unknownMembers: Service.Validation.UnknownMembers) {
        self.init(types: contract.types, unknownMembers: unknownMembers,
                  schemas: contract.endpoints.flatMap(\.schemas) + contract.service.headers.map(\.schema) + contract.service.codes.compactMap(\.data))
    }

    /// Every way `value` breaks `schema`, up to ``Violation/limit``; `pointer` prefixes
    /// the reported pointers.
    public func validate(_ value: JSONValue, against schema: Schema, at pointer: String = "") -> [Violation] {
        var violations: [Violation] = []
        var path = ValuePath(prefix: pointer)
        validate(value, schema, &path, depth: 0, into: &violations)
        Violation.cut(&violations)
        return violations
    }

    /// Every way the members of `object` break `fields` (path params, query, headers), up
    /// to ``Violation/limit``.
    public func validate(_ object: JSONValue, fields: [Field], at pointer: String = "") -> [Violation] {
        var violations: [Violation] = []
        var path = ValuePath(prefix: pointer)
        validateObject(object, fields, &path, depth: 0, into: &violations)
        Violation.cut(&violations)
        return violations
    }

    // MARK: Walking

    private func validate(_ value: JSONValue, _ schema: Schema, _ path: inout ValuePath, depth: Int, into violations: inout [Violation]) {
        guard depth < 128, violations.count < Violation.limit else { return }
        switch schema.kind {
        case .reference(let name):
            // Unknown names are reported by the contract checks; nothing to hold the value to here.
            guard let named = schemas[name] else { return }
            validate(value, referencing: named, schema.constraints, &path, depth: depth, into: &violations)
        case .primitive(let primitive):
            validate(value, primitive, schema.constraints, path, into: &violations)
        case .enumeration(let cases):
            let matches = cases.cases.contains { enumCase in
                switch (enumCase.value, value) {
                case let (.string(allowed), .string(found)): allowed == found
                case let (.int(allowed), .int(found)): allowed == found
                default: false
                }
            }
            if !matches {
                let expected = "one of " + cases.cases.map(\.value.description).joined(separator: ", ")
                violations.append(violation(path.text, expected: expected, actual: value))
            }
        case .array(let item):
            guard case .array(let items) = value else {
                violations.append(violation(path.text, expected: "array", actual: value))
                return
            }
            // Items of a named type look the type up once, not once an item.
            let named: NamedSchema? = if case .reference(let name) = item.kind { schemas[name] } else { nil }
            for (index, element) in items.enumerated() where violations.count < Violation.limit {
                path.push(.index(index))
                if let named {
                    validate(element, referencing: named, item.constraints, &path, depth: depth + 1, into: &violations)
                } else {
                    validate(element, item, &path, depth: depth + 1, into: &violations)
                }
                path.pop()
            }
            check(value, schema.constraints, path, into: &violations)
        case .map(let valueSchema):
            guard case .object(let members) = value else {
                violations.append(violation(path.text, expected: "object", actual: value))
                return
            }
            for member in members where violations.count < Violation.limit {
                path.push(.key(member.key))
                validate(member.value, valueSchema, &path, depth: depth + 1, into: &violations)
                path.pop()
            }
        case .object(let fields):
            validateObject(value, fields, &path, depth: depth, into: &violations)
        case .union(let union):
            validateUnion(value, union, &path, depth: depth, into: &violations)
        }
    }

    /// `value` against the named type a reference at `depth` leads to, then the
    /// reference's own constraints.
    private func validate(_ value: JSONValue, referencing named: NamedSchema, _ constraints: Constraints, _ path: inout ValuePath, depth: Int,
                          into violations: inout [Violation]) {
        validate(value, named.schema, &path, depth: depth + 1, into: &violations)
        check(value, constraints, path, into: &violations)
    }

    /// A leaf: `value` against a primitive type and the constraints beside it.
    private func validate(_ value: JSONValue, _ primitive: Primitive, _ constraints: Constraints, _ path: ValuePath, into violations: inout [Violation]) {
        if let expected = mismatch(value, primitive) {
            violations.append(violation(path.text, expected: expected, actual: value))
        } else if case .string(let text) = value, constraints.maxLength == nil, text.utf8.count > Self.undeclaredStringLimit {
            violations.append(violation(path.text, expected: "at most \(Self.undeclaredStringLimit) bytes (the server's cap where no max_length is declared)",
                                        actual: value))
        } else {
            check(value, constraints, path, into: &violations)
        }
    }

    /// The discriminator selects a shape; the other members are held to it, and each of
    /// their violations names the value and the shape it selected.
    private func validateUnion(_ value: JSONValue, _ union: Union, _ path: inout ValuePath, depth: Int, into violations: inout [Violation]) {
        guard case .object(let members) = value else {
            violations.append(violation(path.text, expected: "object", actual: value))
            return
        }
        let values = union.cases.map(\.value).joined(separator: ", ")
        let tagPointer = path.text(adding: union.discriminator)
        guard let tag = members.first(where: { $0.key == union.discriminator })?.value else {
            violations.append(Violation(pointer: tagPointer, expected: "one of \(values)", actual: "absent",
                                        message: "missing required member '\(union.discriminator)' (one of \(values)), which selects the shape"))
            return
        }
        guard case .string(let text) = tag, let selected = union.selected(by: text) else {
            violations.append(violation(tagPointer, expected: "one of \(values)", actual: tag))
            return
        }
        guard let fields = types.objectFields(of: Schema(.reference(selected.typeName), location: selected.location)) else { return }
        var inner: [Violation] = []
        validateObject(value, fields, &path, depth: depth + 1, ignoring: union.discriminator, into: &inner)
        let selection = " (\(union.discriminator) '\(text)' selects \(selected.typeName))"
        violations += inner.map { found in
            var found = found
            found.message += selection
            return found
        }
    }

    private func validateObject(_ value: JSONValue, _ fields: [Field], _ path: inout ValuePath, depth: Int, ignoring owned: String? = nil,
                                into violations: inout [Violation]) {
        guard case .object(let members) = value else {
            violations.append(violation(path.text, expected: "object", actual: value))
            return
        }
        // Members usually come in the order of the fields: each field's is looked for
        // first just after the previous field's, so a well-formed object costs one
        // comparison a field, not a search. Fields are read in place, not copied.
        var next = 0
        var matched = 0
        for position in fields.indices {
            let name = fields[position].name
            // Every member of every body passes here: its pointer is written out only for a violation.
            let found = next < members.count && members[next].key == name ? next : members.firstIndex { $0.key == name }
            guard let found else {
                if !fields[position].isOptional {
                    violations.append(Violation(
                        pointer: path.text(adding: name), expected: describe(fields[position].schema), actual: "absent",
                        message: "missing required member '\(name)'"
                    ))
                }
                continue
            }
            next = found + 1
            matched += 1
            if case .null = members[found].value {
                if !fields[position].isOptional && !fields[position].isNullable {
                    violations.append(violation(path.text(adding: name), expected: describe(fields[position].schema), actual: .null))
                }
                continue
            }
            path.push(.key(name))
            // A leaf is checked here: handing its whole schema to `validate` would copy it.
            if violations.count < Violation.limit, case .primitive(let primitive) = fields[position].schema.kind {
                validate(members[found].value, primitive, fields[position].schema.constraints, path, into: &violations)
            } else {
                validate(members[found].value, fields[position].schema, &path, depth: depth + 1, into: &violations)
            }
            path.pop()
        }
        // Each field found one member: when they found them all, none is unknown.
        guard unknownMembers == .reject, matched < members.count else { return }
        for member in members where violations.count < Violation.limit && member.key != owned && !fields.contains(where: { $0.name == member.key }) {
            let names = fields.map(\.name)
            violations.append(Violation(
                pointer: path.text(adding: member.key),
                expected: names.isEmpty ? "no members" : "one of the members " + names.joined(separator: ", "),
                actual: "member '\(member.key)'",
                message: "unknown member '\(member.key)'" + NameSuggestion.hint(for: member.key, in: names)
            ))
        }
    }
}
