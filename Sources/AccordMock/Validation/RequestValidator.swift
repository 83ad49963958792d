import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordValidation
import Foundation

/// Checks a routed request against its endpoint: path parameters, query, headers,
/// content type and body, collecting every violation with a pointer such as
/// `/query/limit`, `/headers/X-OS` or `/body/device_info/os`.
///
/// Everything that depends only on the contract (resolved aliases, lowercased header
/// names, pointers) is worked out once per endpoint when the validator is made.
public struct RequestValidator: Sendable {
    public let contract: Contract
    private let validator: SchemaValidator
    private let plans: [String: Plan]
    private let rejectsUnknown: Bool
    /// The query parameter carrying the API key, which no endpoint declares but every one may carry.
    private var credentialQuery: String?

    /// One string-valued input (path parameter, query parameter or header), ready to
    /// check; a class, so the per-request loops share it rather than copy its schema.
    final class StringField: Sendable {
        let name: String
        let lowercasedName: String
        let pointer: String
        /// The field's schema as declared, which values are validated against.
        let schema: Schema
        /// What the string is read as: the kind with aliases followed.
        let readAs: Schema.Kind
        /// What each value is read as when the field is an array (repeated query keys).
        let itemReadAs: Schema.Kind?
        let isOptional: Bool

        init(name: String, pointer: String, schema: Schema, readAs: Schema.Kind, itemReadAs: Schema.Kind?, isOptional: Bool) {
            self.name = name
            lowercasedName = name.lowercased()
            self.pointer = pointer
            self.schema = schema
            self.readAs = readAs
            self.itemReadAs = itemReadAs
            self.isOptional = isOptional
        }
    }

    /// What one endpoint's string inputs need; a class, so a request borrows its
    /// endpoint's plan instead of copying (and retaining) its four lists.
    final class Plan: Sendable {
        let parameters: [StringField]
        let query: [StringField]
        let headers: [StringField]
        /// The text parts of a multipart body (`/body/NAME`), read like query parameters.
        let textParts: [StringField]

        init(parameters: [StringField], query: [StringField], headers: [StringField], textParts: [StringField]) {
            self.parameters = parameters
            self.query = query
            self.headers = headers
            self.textParts = textParts
        }
    }

    public init(contract: Contract) {
        self.contract = contract
        self.validator = SchemaValidator(contract: contract)
        self.rejectsUnknown = contract.service.validation.unknownMembers == .reject
        if let key = contract.service.auth.apiKey, key.location == .query { credentialQuery = key.name }
        func plan(_ fields: [Field], _ prefix: String) -> [StringField] {
            fields.map { field in
                let readAs = contract.resolvedKind(of: field.schema)
                var itemReadAs: Schema.Kind?
                if case .array(let items) = readAs { itemReadAs = contract.resolvedKind(of: items) }
                return StringField(name: field.name, pointer: "\(prefix)/\(field.name.jsonPointerEscaped)", schema: field.schema,
                                   readAs: readAs, itemReadAs: itemReadAs, isOptional: field.isOptional)
            }
        }
        let serviceHeaders = contract.service.headers
        plans = Dictionary(uniqueKeysWithValues: contract.endpoints.map { endpoint in
            (endpoint.id, Plan(parameters: plan(endpoint.parameters, "/params"), query: plan(endpoint.query, "/query"),
                               headers: plan(serviceHeaders + endpoint.headers, "/headers"), textParts: plan(endpoint.textParts, "/body")))
        })
    }

    /// Every violation of `request` (whose JSON body, if any, is already parsed, and
    /// whose multipart body, if any, is split into `parts`), up to ``Violation/limit``.
    func validate(_ request: MockRequest, endpoint: Endpoint, parameters: [String: String], body: JSONValue?,
                  parts: [MultipartBody.Part]?) -> [Violation] {
        var violations = validate(request, endpoint: endpoint, parameters: parameters, body: endpoint.multipart == nil ? body : nil)
        guard let declared = endpoint.multipart, let plan = plans[endpoint.id] else { return violations }
        guard let parts else {
            violations.append(Violation(pointer: "/body", expected: "a multipart/form-data body", actual: "absent", message: "missing request body"))
            Violation.cut(&violations)
            return violations
        }
        for field in plan.textParts {
            let sent = parts.filter { $0.name == field.name }
            check(field, values: sent.map(\.text), into: &violations)
        }
        for part in declared {
            guard let rule = part.file else { continue }
            let sent = parts.filter { $0.name == part.name }
            violations += check(file: sent, part: part, rule: rule)
        }
        let names = declared.map(\.name)
        for (index, part) in parts.enumerated() where !names.contains(part.name) && !parts[..<index].contains(where: { $0.name == part.name }) {
            violations.append(Violation(pointer: "/body/\(part.name.jsonPointerEscaped)", expected: "one of the parts " + names.joined(separator: ", "),
                                        actual: "part '\(part.name)'",
                                        message: "unknown part '\(part.name)'" + NameSuggestion.hint(for: part.name, in: names)))
        }
        Violation.cut(&violations)
        return violations
    }

    /// A file part: present once, within its size, of a declared media type, and its
    /// bytes what the media type says (magic bytes, not the name or the header).
    private func check(file sent: [MultipartBody.Part], part: MultipartPart, rule: MultipartPart.FileRule) -> [Violation] {
        let pointer = "/body/\(part.name.jsonPointerEscaped)"
        let allowed = rule.contentTypes.joined(separator: ", ")
        guard let file = sent.first else {
            return part.isOptional ? [] : [Violation(pointer: pointer, expected: "a file (\(allowed))", actual: "absent",
                                                     message: "missing required file part '\(part.name)'")]
        }
        guard sent.count == 1 else {
            return [Violation(pointer: pointer, expected: "one file", actual: "\(sent.count) files", message: "'\(part.name)' is sent \(sent.count) times; it takes one file")]
        }
        var violations: [Violation] = []
        let name = file.filename.map { " (\($0))" } ?? ""
        if file.bytes.count > rule.maxSize {
            violations.append(Violation(pointer: pointer, expected: "at most \(rule.maxSize) bytes", actual: "\(file.bytes.count) bytes",
                                        message: "file '\(part.name)'\(name) is \(file.bytes.count) bytes; at most \(rule.maxSize) are allowed"))
        }
        let declaredType = file.contentType ?? ""
        guard MediaTypes.matches(declaredType, rule.contentTypes) else {
            violations.append(Violation(pointer: pointer, expected: "one of \(allowed)", actual: declaredType.isEmpty ? "no Content-Type" : "'\(declaredType)'",
                                        message: "file '\(part.name)'\(name) is sent as \(declaredType.isEmpty ? "no Content-Type" : "'\(declaredType)'"); expected one of \(allowed)"))
            return violations
        }
        let sniffed = MediaSniffing.mediaType(of: file.bytes)
        if sniffed != declaredType, declaredType.hasPrefix("image/") {
            let found = sniffed ?? MediaSniffing.describe(file.bytes)
            violations.append(Violation(pointer: pointer, expected: "the bytes of \(declaredType)", actual: found,
                                        message: "file '\(part.name)'\(name) is sent as \(declaredType) but its bytes are \(found)"))
        }
        return violations
    }

    /// Every violation of `request` (whose JSON body, if any, is already parsed), up to
    /// ``Violation/limit``.
    public func validate(_ request: MockRequest, endpoint: Endpoint, parameters: [String: String], body: JSONValue?) -> [Violation] {
        guard let plan = plans[endpoint.id] else { return [] }
        var violations: [Violation] = []
        for field in plan.parameters {
            check(field, value: parameters[field.name], into: &violations)
        }
        check(query: request.query, against: plan.query, into: &violations)
        for field in plan.headers {
            check(field, value: request.headers[field.lowercasedName], into: &violations)
        }
        if let schema = endpoint.body {
            if let body {
                violations += validator.validate(body, against: schema, at: "/body")
            } else {
                violations.append(Violation(pointer: "/body", expected: "a JSON body", actual: "absent", message: "missing request body"))
            }
        } else if !request.body.isEmpty && rejectsUnknown && endpoint.multipart == nil {
            violations.append(Violation(pointer: "/body", expected: "no body", actual: "\(request.body.count) bytes",
                                        message: "'\(endpoint.id)' takes no body"))
        }
        Violation.cut(&violations)
        return violations
    }

    // MARK: String-valued inputs

    private func check(query: [(name: String, value: String)], against fields: [StringField], into violations: inout [Violation]) {
        for (index, pair) in query.enumerated()
        where violations.count < Violation.limit && pair.name != credentialQuery && !fields.contains(where: { HTTPHeaders.same($0.name, pair.name) }) {
            // Report an unknown key once, where it first appears.
            guard rejectsUnknown, !query[..<index].contains(where: { $0.name == pair.name }) else { continue }
            let names = fields.map(\.name)
            violations.append(Violation(pointer: "/query/\(pair.name.jsonPointerEscaped)", expected: "one of " + names.joined(separator: ", "),
                                        actual: "'\(pair.name)'",
                                        message: "unknown parameter '\(pair.name)'\(NameSuggestion.hint(for: pair.name, in: names))"))
        }
        for field in fields {
            // One value (the common case) is checked without gathering them.
            let first = query.firstIndex { HTTPHeaders.same($0.name, field.name) }
            if field.itemReadAs == nil, let first, !query[(first + 1)...].contains(where: { HTTPHeaders.same($0.name, field.name) }) {
                check(field, value: query[first].value, into: &violations)
            } else {
                check(field, values: query.compactMap { HTTPHeaders.same($0.name, field.name) ? $0.value : nil }, into: &violations)
            }
        }
    }

    /// Reads a single-valued input as the field's type and checks its constraints.
    private func check(_ field: StringField, value: String?, into violations: inout [Violation]) {
        guard let value, field.itemReadAs == nil else {
            check(field, values: value.map { [$0] } ?? [], into: &violations)
            return
        }
        switch coerce(value, to: field.readAs) {
        case .value(let coerced): violations += validator.validate(coerced, against: field.schema, at: field.pointer)
        case .mismatch(let violation): violations.append(violation.at(field.pointer))
        }
    }

    /// Reads `values` as the field's type and checks its constraints.
    private func check(_ field: StringField, values: [String], into violations: inout [Violation]) {
        guard !values.isEmpty else {
            if !field.isOptional {
                violations.append(Violation(pointer: field.pointer, expected: validator.describe(field.schema), actual: "absent",
                                            message: "missing required member '\(field.name)'"))
            }
            return
        }
        if let itemReadAs = field.itemReadAs {
            var items: [JSONValue] = []
            for (index, text) in values.enumerated() {
                switch coerce(text, to: itemReadAs) {
                case .value(let value): items.append(value)
                case .mismatch(let violation): violations.append(violation.at("\(field.pointer)/\(index)"))
                }
            }
            violations += validator.validate(.array(items), against: field.schema, at: field.pointer)
            return
        }
        guard values.count == 1 else {
            violations.append(Violation(pointer: field.pointer, expected: "a single value", actual: "\(values.count) values",
                                        message: "'\(field.name)' is given \(values.count) times; it takes one value"))
            return
        }
        switch coerce(values[0], to: field.readAs) {
        case .value(let value): violations += validator.validate(value, against: field.schema, at: field.pointer)
        case .mismatch(let violation): violations.append(violation.at(field.pointer))
        }
    }

    /// A string input read as its declared type, or why it cannot be.
    private enum Coerced {
        case value(JSONValue)
        case mismatch(Violation)
    }

    private func coerce(_ text: String, to kind: Schema.Kind) -> Coerced {
        func mismatch(_ expected: String) -> Coerced {
            .mismatch(Violation(pointer: "", expected: expected, actual: "'\(text)'", message: "expected \(expected), found '\(text)'"))
        }
        switch kind {
        case .primitive(.int), .primitive(.int64):
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
