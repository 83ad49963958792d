import AccordJSON

extension Importer {
    /// `enum` (and 3.1's `const`, an enum of one): strings as a string enum, integers as an integer enum with
    /// names (`x-enum-varnames` when the document gives them), booleans as `bool`; `null` among the values makes it nullable.
    mutating func enumeration(_ spot: Spot, types: [String], hint: String) -> (SchemaShape, nullable: Bool) {
        var values = spot["const"].map { [$0.json] } ?? spot["enum"]?.items.map(\.json) ?? []
        let nullable = values.contains(.null)
        values.removeAll { $0 == .null }
        if types == ["string"] { values = values.map(Self.asText) }
        var members: [JSONValue.Member] = []
        if let description = spot["description"]?.text { members.append(.init("description", .string(description))) }
        if spot["deprecated"]?.bool == true { members.append(.init("deprecated", .bool(true))) }
        let texts = values.compactMap { value -> String? in if case .string(let text) = value { text } else { nil } }
        let numbers = values.compactMap { value -> Int? in if case .int(let number) = value { number } else { nil } }
        if !values.isEmpty, texts.count == values.count {
            members.append(.init("enum", .array(Self.uniqued(texts).map(JSONValue.string))))
        } else if !values.isEmpty, numbers.count == values.count {
            let names = spot["x-enum-varnames"]?.items.compactMap(\.text) ?? []
            var taken: Set<String> = []
            let cases = Self.uniqued(numbers).enumerated().map { offset, number in
                let written = offset < names.count ? Names.parameter(names[offset]) : (number < 0 ? "minus\(-number)" : "value\(number)")
                return JSONValue.Member(String(number), .string(Names.unique(written, in: &taken, separator: "_")))
            }
            members.append(.init("enum", .object(cases)))
        } else if !values.isEmpty, values.allSatisfy({ if case .bool = $0 { true } else { false } }) {
            return (.use(annotated(TypeUse(expression: "bool"), spot)), nullable)
        } else {
            if !values.isEmpty {
                log.warn("enum-mixed", "an enum of \(values.map(\.typeName).joined(separator: ", ")) values has no contract type; imported as 'any'",
                         at: spot["enum"] ?? spot)
                summary.schemasFreeForm += 1
            }
            return (.use(.any), nullable)
        }
        if let value = spot["default"] {
            if values.contains(types == ["string"] ? Self.asText(value.json) : value.json) {
                members.append(.init("default", types == ["string"] ? Self.asText(value.json) : value.json))
            } else {
                log.warn("default-invalid", "the default \(value.json.summary) is not one of the enum's values; not imported", at: value)
            }
        }
        return (.declared(.object(members)), nullable)
    }

    /// A scalar as the text a string enum holds (`1` written for a string enum is `"1"`).
    private static func asText(_ value: JSONValue) -> JSONValue {
        switch value {
        case .int(let number): .string(String(number))
        case .double(let number): .string(String(number))
        case .bool(let flag): .string(flag ? "true" : "false")
        default: value
        }
    }

    private static func uniqued<T: Hashable>(_ values: [T]) -> [T] {
        var seen: Set<T> = []
        return values.filter { seen.insert($0).inserted }
    }
}
