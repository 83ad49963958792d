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
    private let patterns: [String: CompiledPattern]

    /// - Parameter schemas: schemas beyond the named types whose patterns values will be
    ///   held to (endpoints' inline members, headers); a pattern compiled nowhere is not checked.
    public init(types: [String: TypeDeclaration], unknownMembers: Service.Validation.UnknownMembers = .reject, schemas: [Schema] = []) {
        self.types = types
        self.unknownMembers = unknownMembers
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

    /// Every way `value` breaks `schema`; `pointer` prefixes the reported pointers.
    public func validate(_ value: JSONValue, against schema: Schema, at pointer: String = "") -> [Violation] {
        var violations: [Violation] = []
        var path = ValuePath(prefix: pointer)
        validate(value, schema, &path, depth: 0, into: &violations)
        return violations
    }

    /// Every way the members of `object` break `fields` (path params, query, headers).
    public func validate(_ object: JSONValue, fields: [Field], at pointer: String = "") -> [Violation] {
        var violations: [Violation] = []
        var path = ValuePath(prefix: pointer)
        validateObject(object, fields, &path, depth: 0, into: &violations)
        return violations
    }

    // MARK: Walking

    private func validate(_ value: JSONValue, _ schema: Schema, _ path: inout ValuePath, depth: Int, into violations: inout [Violation]) {
        guard depth < 128 else { return }
        switch schema.kind {
        case .reference(let name):
            // Unknown names are reported by the contract checks; nothing to hold the value to here.
            guard let declaration = types[name] else { return }
            validate(value, declaration.schema, &path, depth: depth + 1, into: &violations)
            check(value, schema.constraints, path, into: &violations)
        case .primitive(let primitive):
            if let expected = mismatch(value, primitive) {
                violations.append(violation(path.text, expected: expected, actual: value))
            } else if case .string(let text) = value, schema.constraints.maxLength == nil, text.utf8.count > Self.undeclaredStringLimit {
                violations.append(violation(path.text, expected: "at most \(Self.undeclaredStringLimit) bytes (the server's cap where no max_length is declared)",
                                            actual: value))
            } else {
                check(value, schema.constraints, path, into: &violations)
            }
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
            for (index, element) in items.enumerated() {
                path.push(.index(index))
                validate(element, item, &path, depth: depth + 1, into: &violations)
                path.pop()
            }
            check(value, schema.constraints, path, into: &violations)
        case .map(let valueSchema):
            guard case .object(let members) = value else {
                violations.append(violation(path.text, expected: "object", actual: value))
                return
            }
            for member in members {
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
        for field in fields {
            // Every member of every body passes here: its pointer is written out only for a violation.
            guard let member = members.first(where: { $0.key == field.name }) else {
                if !field.isOptional {
                    violations.append(Violation(
                        pointer: path.text(adding: field.name), expected: describe(field.schema), actual: "absent",
                        message: "missing required member '\(field.name)'"
                    ))
                }
                continue
            }
            if member.value == .null {
                if !field.isOptional && !field.isNullable {
                    violations.append(violation(path.text(adding: field.name), expected: describe(field.schema), actual: .null))
                }
                continue
            }
            path.push(.key(field.name))
            validate(member.value, field.schema, &path, depth: depth + 1, into: &violations)
            path.pop()
        }
        guard unknownMembers == .reject else { return }
        for member in members where member.key != owned && !fields.contains(where: { $0.name == member.key }) {
            let names = fields.map(\.name)
            violations.append(Violation(
                pointer: path.text(adding: member.key),
                expected: names.isEmpty ? "no members" : "one of the members " + names.joined(separator: ", "),
                actual: "member '\(member.key)'",
                message: "unknown member '\(member.key)'" + NameSuggestion.hint(for: member.key, in: names)
            ))
        }
    }

    // MARK: Leaves

    /// What was expected, if `value` is not of `primitive`'s type or format.
    private func mismatch(_ value: JSONValue, _ primitive: Primitive) -> String? {
        switch (primitive, value) {
        case (.int, .int(let number)):
            // Compared both ways: abs(Int.min) would trap.
            return (-Primitive.largestExactInteger...Primitive.largestExactInteger).contains(number) ? nil : "integer within ±(2^53 - 1) (declare ids beyond it int64)"
        case (.int, .double(let double)) where Int(exactly: double) != nil:
            // An integral number written with a fraction or exponent (`1080.0`) is an integer, as JSON Schema counts it.
            return mismatch(.int(Int(exactly: double) ?? 0), primitive)
        case (.int64, .double(let double)) where Int(exactly: double) != nil:
            return nil
        case (.any, _), (.string, .string), (.int64, .int), (.bool, .bool), (.double, .int), (.double, .double):
            return nil
        case (.decimal, .string(let text)):
            return WireFormat.isDecimal(text) ? nil : "decimal string such as \"9.99\""
        case (.dateTime, .string(let text)):
            return WireFormat.isDateTime(text) ? nil : "date-time (RFC 3339, such as 2026-11-30T08:00:00Z)"
        case (.date, .string(let text)):
            return WireFormat.isDate(text) ? nil : "date (yyyy-MM-dd)"
        case (.url, .string(let text)):
            return WireFormat.isURL(text) ? nil : "absolute URL"
        default:
            return expectedName(primitive)
        }
    }

    /// The longest string, in UTF-8 bytes, where the contract declares no `max_length`:
    /// without it one client could fill the server's records with strings of megabytes.
    public static let undeclaredStringLimit = 1 << 20

    private func check(_ value: JSONValue, _ constraints: Constraints, _ path: ValuePath, into violations: inout [Violation]) {
        guard !constraints.isEmpty else { return }
        let number: Double? = switch value {
        case .int(let int): Double(int)
        case .double(let double): double
        case .string(let text) where constraints.minimum != nil || constraints.maximum != nil: Double(text)
        default: nil
        }
        if let number {
            if let minimum = constraints.minimum, number < minimum {
                violations.append(violation(path.text, expected: "at least \(NodeReader.format(minimum))", actual: value))
            }
            if let maximum = constraints.maximum, number > maximum {
                violations.append(violation(path.text, expected: "at most \(NodeReader.format(maximum))", actual: value))
            }
        }
        if case .string(let text) = value {
            // Lengths count Unicode scalars (JSON Schema's code points): linear in the
            // bytes, unlike grapheme clusters, and not fooled by combining marks; counted
            // only when a bound asks for them.
            let length = constraints.minLength == nil && constraints.maxLength == nil ? 0 : UTF8Text.scalarCount(text)
            if let minimum = constraints.minLength, length < minimum {
                violations.append(violation(path.text, expected: "at least \(minimum) character\(minimum == 1 ? "" : "s")", actual: value, found: "\(length)"))
            }
            if let maximum = constraints.maxLength, length > maximum {
                violations.append(violation(path.text, expected: "at most \(maximum) characters", actual: value, found: "\(length)"))
            }
            // A string already too long is not also run through the pattern: its cost is the client's choice.
            if let pattern = constraints.pattern, let compiled = patterns[pattern], length <= constraints.maxLength ?? .max {
                if !compiled.matches(text) {
                    violations.append(violation(path.text, expected: "a string matching /\(pattern)/", actual: value))
                }
            }
        }
        if case .array(let items) = value {
            if let minimum = constraints.minItems, items.count < minimum {
                violations.append(violation(path.text, expected: "at least \(minimum) item\(minimum == 1 ? "" : "s")", actual: value))
            }
            if let maximum = constraints.maxItems, items.count > maximum {
                violations.append(violation(path.text, expected: "at most \(maximum) items", actual: value))
            }
        }
    }

    private func violation(_ pointer: String, expected: String, actual: JSONValue, found: String? = nil) -> Violation {
        let actualText = found.map { "\(actual.summary) (\($0) characters)" } ?? actual.summary
        return Violation(pointer: pointer, expected: expected, actual: actualText, message: "expected \(expected), found \(actualText)")
    }

    /// A short description of what a schema accepts, for "missing" and "null" messages.
    public func describe(_ schema: Schema) -> String {
        switch schema.kind {
        case .primitive(let primitive): expectedName(primitive)
        case .array: "array"
        case .map, .object: "object"
        case .reference(let name): name
        case .enumeration(let cases): "one of " + cases.cases.map(\.value.description).joined(separator: ", ")
        case .union(let union): "one of " + union.cases.map(\.typeName).joined(separator: ", ") + " by '\(union.discriminator)'"
        }
    }

    private func expectedName(_ primitive: Primitive) -> String {
        switch primitive {
        case .string: "string"
        case .int: "integer"
        case .int64: "64-bit integer"
        case .bool: "boolean"
        case .double: "number"
        case .decimal: "decimal string such as \"9.99\""
        case .dateTime: "date-time (RFC 3339, such as 2026-11-30T08:00:00Z)"
        case .date: "date (yyyy-MM-dd)"
        case .url: "absolute URL"
        case .any: "any value"
        }
    }

}
