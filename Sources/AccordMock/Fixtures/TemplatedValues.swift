import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordValidation

/// Checks values written in mock files that may hold templates (fixture data, stream
/// events, collection seeds): the templates must compile, and the value must fit its
/// schema wherever no template stands; a templated string (or what is inside one) is
/// left to the rendered value.
struct TemplatedValues: Sendable {
    let validator: SchemaValidator

    init(contract: Contract) {
        validator = SchemaValidator(contract: contract, unknownMembers: .reject)
    }

    /// Compiles the templates and checks the value against `schema`, reporting each
    /// problem at its position.
    func check(_ data: SourcedJSON, against schema: Schema, what: String, reader: inout NodeReader) {
        guard compileCheck(data, what: what, reader: &reader) else { return }
        let templated = Self.templatedPointers(data.value, pointer: "")
        for violation in validator.validate(data.value, against: schema) where !templated.contains(where: { violation.pointer.hasPrefix($0) }) {
            let pointer = violation.pointer.isEmpty ? "" : " \(violation.pointer)"
            reader.error("\(what)\(pointer): \(violation.message)", at: data.location(of: violation.pointer) ?? reader.location(of: data))
        }
    }

    /// Compiles the templates; false (reported) when one does not.
    @discardableResult
    func compileCheck(_ data: SourcedJSON, what: String, reader: inout NodeReader) -> Bool {
        do {
            _ = try CompiledJSON(data.value)
            return true
        } catch {
            reader.error("\(what) \(error.pointer.isEmpty ? "" : error.pointer + " ")template: \(error.message)",
                         at: data.location(of: error.pointer) ?? reader.location(of: data))
            return false
        }
    }

    private static func templatedPointers(_ value: JSONValue, pointer: String) -> [String] {
        switch value {
        case .string(let text) where text.contains("{{"): [pointer]
        case .array(let items): items.enumerated().flatMap { templatedPointers($0.element, pointer: "\(pointer)/\($0.offset)") }
        case .object(let members): members.flatMap { templatedPointers($0.value, pointer: "\(pointer)/\($0.key.jsonPointerEscaped)") }
        default: []
        }
    }
}
