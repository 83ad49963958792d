import AccordContract
import AccordJSON
import Foundation

// The leaves of a value: a primitive's type and format, a schema's constraints, and
// how a violation names what was expected.
extension SchemaValidator {
    /// What was expected, if `value` is not of `primitive`'s type or format.
    func mismatch(_ value: JSONValue, _ primitive: Primitive) -> String? {
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

    func check(_ value: JSONValue, _ constraints: Constraints, _ path: ValuePath, into violations: inout [Violation]) {
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

    func violation(_ pointer: String, expected: String, actual: JSONValue, found: String? = nil) -> Violation {
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
