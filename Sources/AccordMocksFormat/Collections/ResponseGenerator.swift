import AccordContract
import AccordJSON
import AccordValidation

/// Makes a deterministic value for a schema, for endpoints with neither fixture nor
/// example: the same contract always gives the same bytes.
package struct ResponseGenerator {
    package let types: [String: TypeDeclaration]

    package init(types: [String: TypeDeclaration]) {
        self.types = types
    }

    package func value(for schema: Schema, name: String = "value", depth: Int = 0) -> JSONValue {
        guard depth < 12 else { return .null }
        if let fallback = schema.defaultValue { return fallback.value }
        let constraints = schema.constraints
        switch schema.kind {
        case .primitive(let primitive):
            switch primitive {
            case .string:
                // A pattern's shortest match, when the pattern is simple enough and the length fits.
                if let pattern = constraints.pattern, let example = PatternExample.shortest(matching: pattern),
                   example.unicodeScalars.count >= (constraints.minLength ?? 0), example.unicodeScalars.count <= (constraints.maxLength ?? .max) {
                    return .string(example)
                }
                let minimum = constraints.minLength ?? 0
                return .string(name.count >= minimum ? name : name + String(repeating: "x", count: minimum - name.count))
            case .int, .int64:
                // A contract's minimum is a Double; one beyond Int's range (1e300) must not trap here.
                let minimum = (constraints.minimum ?? 0).rounded(.up)
                return .int(minimum.isFinite && abs(minimum) < 9.0e18 ? Int(minimum) : 0)
            case .double: return .double(constraints.minimum ?? 0)
            case .bool: return .bool(false)
            case .decimal: return .string("0.00")
            case .dateTime: return .string("2026-01-01T00:00:00Z")
            case .date: return .string("2026-01-01")
            case .url: return .string("https://example.com/\(name)")
            case .any: return .null
            }
        case .enumeration(let cases):
            switch cases.cases.first?.value {
            case .string(let text)?: return .string(text)
            case .int(let int)?: return .int(int)
            case nil: return .null
            }
        case .array(let item):
            let count = max(1, constraints.minItems ?? 1)
            return .array((0..<count).map { _ in value(for: item, name: name, depth: depth + 1) })
        case .map(let item):
            return .object([.init("key", value(for: item, name: "key", depth: depth + 1))])
        case .object(let fields):
            return .object(fields.map { .init($0.name, value(for: $0.schema, name: $0.name, depth: depth + 1)) })
        case .reference(let type):
            guard let declaration = types[type] else { return .null }
            return value(for: declaration.schema, name: name, depth: depth + 1)
        case .union(let union):
            // The first shape, with its discriminator first.
            guard let first = union.cases.first,
                  case .object(let members) = value(for: Schema(.reference(first.typeName), location: schema.location), name: name, depth: depth + 1)
            else { return .null }
            return .object([.init(union.discriminator, .string(first.value))] + members)
        }
    }
}
