import AccordContract
import AccordValidation
import Foundation

/// Checks a routed request against its endpoint: path parameters, query, headers,
/// content type and body, collecting every violation with a pointer such as
/// `/query/limit`, `/headers/X-OS` or `/body/device_info/os`.
public struct RequestValidator: Sendable {
    public let contract: Contract
    private let validator: SchemaValidator

    public init(contract: Contract) {
        self.contract = contract
        self.validator = SchemaValidator(contract: contract)
    }

    /// Every violation of `request` (whose JSON body, if any, is already parsed).
    public func validate(_ request: MockRequest, endpoint: Endpoint, parameters: [String: String], body: JSONValue?) -> [Violation] {
        var violations: [Violation] = []
        violations += strings(parameters.map { ($0.key, $0.value) }, against: endpoint.parameters, at: "/params", rejectUnknown: false)
        violations += strings(request.query, against: endpoint.query, at: "/query",
                              rejectUnknown: contract.service.validation.unknownMembers == .reject)
        let headerFields = contract.service.headers + endpoint.headers
        let sent = headerFields.compactMap { field in request.header(field.name).map { (field.name, $0) } }
        violations += strings(sent, against: headerFields, at: "/headers", rejectUnknown: false)
        if endpoint.requiresAuth {
            let auth = contract.service.auth
            let value = request.header(auth.header) ?? ""
            if !value.hasPrefix(auth.scheme + " ") || value.count <= auth.scheme.count + 1 {
                violations.append(Violation(
                    pointer: "/headers/\(auth.header)", expected: "\(auth.scheme) <access_token>",
                    actual: value.isEmpty ? "absent" : "'\(value.prefix(20))'",
                    message: value.isEmpty ? "missing required header '\(auth.header)'" : "expected '\(auth.scheme) <access_token>'"
                ))
            }
        }
        if let schema = endpoint.body {
            if let body {
                violations += validator.validate(body, against: schema, at: "/body")
            } else {
                violations.append(Violation(pointer: "/body", expected: "a JSON body", actual: "absent", message: "missing request body"))
            }
        } else if !request.body.isEmpty && contract.service.validation.unknownMembers == .reject {
            violations.append(Violation(pointer: "/body", expected: "no body", actual: "\(request.body.count) bytes",
                                        message: "'\(endpoint.id)' takes no body"))
        }
        return violations
    }

    /// `application/json`, with or without parameters such as `charset=utf-8`.
    public static func isJSON(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    // MARK: String-valued inputs

    /// Coerces string inputs (path, query, headers) to their declared types, then
    /// validates them as an object.
    private func strings(_ pairs: [(name: String, value: String)], against fields: [Field], at prefix: String, rejectUnknown: Bool) -> [Violation] {
        var violations: [Violation] = []
        var members: [JSONValue.Member] = []
        var grouped: [String: [String]] = [:]
        var order: [String] = []
        for pair in pairs {
            if grouped[pair.name] == nil { order.append(pair.name) }
            grouped[pair.name, default: []].append(pair.value)
        }
        for name in order {
            let values = grouped[name] ?? []
            let pointer = "\(prefix)/\(name.jsonPointerEscaped)"
            guard let field = fields.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                if rejectUnknown {
                    let hint = NameSuggestion.hint(for: name, in: fields.map(\.name))
                    violations.append(Violation(pointer: pointer, expected: "one of " + fields.map(\.name).joined(separator: ", "),
                                                actual: "'\(name)'", message: "unknown parameter '\(name)'\(hint)"))
                }
                continue
            }
            let schema = resolved(field.schema)
            if case .array(let item) = schema.kind {
                var items: [JSONValue] = []
                for (index, text) in values.enumerated() {
                    switch coerce(text, to: resolved(item)) {
                    case .value(let value): items.append(value)
                    case .mismatch(let violation): violations.append(violation.at("\(pointer)/\(index)"))
                    }
                }
                members.append(.init(field.name, .array(items)))
            } else if values.count > 1 {
                violations.append(Violation(pointer: pointer, expected: "a single value", actual: "\(values.count) values",
                                            message: "'\(name)' is given \(values.count) times; it takes one value"))
            } else {
                switch coerce(values[0], to: schema) {
                case .value(let value): members.append(.init(field.name, value))
                case .mismatch(let violation): violations.append(violation.at(pointer))
                }
            }
        }
        // Fields that failed coercion count as present, so they are not also reported missing.
        let failed = Set(violations.map(\.pointer))
        let expected = fields.filter { !failed.contains("\(prefix)/\($0.name.jsonPointerEscaped)") }
        violations += validator.validate(.object(members), fields: expected, at: prefix)
            .filter { !$0.message.hasPrefix("unknown member") }
        return violations
    }

    /// Follows named aliases to the schema that says how to read a string.
    private func resolved(_ schema: Schema) -> Schema {
        var current = schema
        var hops = 0
        while case .reference(let name) = current.kind, let declaration = contract.types[name], hops < 32 {
            current = declaration.schema
            hops += 1
        }
        return current
    }

    /// A string input read as its declared type, or why it cannot be.
    private enum Coerced {
        case value(JSONValue)
        case mismatch(Violation)
    }

    private func coerce(_ text: String, to schema: Schema) -> Coerced {
        func mismatch(_ expected: String) -> Coerced {
            .mismatch(Violation(pointer: "", expected: expected, actual: "'\(text)'", message: "expected \(expected), found '\(text)'"))
        }
        switch schema.kind {
        case .primitive(.int):
            return Int(text).map { .value(.int($0)) } ?? mismatch("integer")
        case .primitive(.double):
            return Double(text).map { .value(.double($0)) } ?? mismatch("number")
        case .primitive(.bool):
            switch text {
            case "true": return .value(.bool(true))
            case "false": return .value(.bool(false))
            default: return mismatch("true or false")
            }
        case .enumeration(let cases) where cases.isIntegral:
            return Int(text).map { .value(.int($0)) } ?? mismatch("one of " + cases.cases.map(\.value.description).joined(separator: ", "))
        default:
            return .value(.string(text))
        }
    }
}

extension Violation {
    /// The same violation at another pointer.
    func at(_ pointer: String) -> Violation {
        var moved = self
        moved.pointer = pointer
        return moved
    }
}
