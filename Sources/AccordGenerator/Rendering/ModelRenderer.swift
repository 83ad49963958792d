import AccordContract

/// Writes model declarations: `Codable, Hashable, Sendable` structs with a memberwise
/// initializer and `Codable` written out by wire name (no `CodingKeys` enum: see
/// ``writeDecoder(_:into:)``), tagged unions, and open enums that keep unknown values.
struct ModelRenderer {
    /// `public ` or the empty string (internal).
    let access: String

    func write(_ declaration: Declaration, into writer: inout SwiftWriter) {
        switch declaration {
        case .structure(let structure): write(structure, into: &writer)
        case .enumeration(let enumeration): write(enumeration, into: &writer)
        case .alias(let name, let target, let documentation):
            writer.documentation(documentation.summary, remark: documentation.remark)
            writer.line("\(access)typealias \(name) = \(target)")
        case .union(let union): write(union, into: &writer)
        }
    }

    /// An enum with one case per shape and `unknown(kind:raw:)`, which keeps a kind this
    /// version does not know with its whole JSON, so an old app reads a new kind's list.
    private func write(_ union: Declaration.TaggedUnion, into writer: inout SwiftWriter) {
        let key = union.discriminator.swiftLiteral
        writer.documentation(union.documentation.summary, remark: union.documentation.remark
                             + ". Told apart by `\(union.discriminator)`; a value this version does not know decodes as `unknown` and encodes back unchanged.")
        writer.block("\(access)\(union.isIndirect ? "indirect " : "")enum \(union.name): Codable, Hashable, Sendable") { writer in
            for item in union.cases { writer.line("case \(item.name)(\(item.type))") }
            writer.line("/// A `\(union.discriminator)` this version of the contract does not know, with the whole object as sent.")
            writer.line("case unknown(kind: String, raw: AccordJSON)")
            writer.line()
            writer.line("/// The value of `\(union.discriminator)` on the wire.")
            writer.block("\(access)var kind: String") { writer in
                writer.switchBlock("self") { writer in
                    for item in union.cases { writer.line("case .\(Naming.bare(item.name)): \(item.value.swiftLiteral)") }
                    writer.line("case .unknown(let kind, _): kind")
                }
            }
            writer.line()
            writer.block("\(access)init(from decoder: any Decoder) throws") { writer in
                writer.line("let kind: String = try AccordMembersDecoder(decoder).required(\(key))")
                writer.switchBlock("kind") { writer in
                    for item in union.cases { writer.line("case \(item.value.swiftLiteral): self = .\(Naming.bare(item.name))(try \(item.type)(from: decoder))") }
                    writer.line("default: self = .unknown(kind: kind, raw: try AccordJSON(from: decoder))")
                }
            }
            writer.line()
            writer.block("\(access)func encode(to encoder: any Encoder) throws") { writer in
                writer.switchBlock("self") { writer in
                    for item in union.cases { writer.line("case .\(Naming.bare(item.name))(let value): try value.encode(to: encoder)") }
                    writer.line("case .unknown(_, let raw): try raw.encode(to: encoder); return")
                }
                writer.line("var members = AccordMembersEncoder(encoder)")
                writer.line("try members.required(kind, \(key))")
            }
        }
    }

    private func write(_ structure: Declaration.Structure, into writer: inout SwiftWriter) {
        writer.documentation(structure.documentation.summary, remark: structure.documentation.remark)
        let generics = structure.genericParameters.isEmpty ? ""
            : "<" + structure.genericParameters.map { "\($0): Codable & Hashable & Sendable" }.joined(separator: ", ") + ">"
        // A model with an `id` is `Identifiable` (`ForEach(signals)`), unless the id may be
        // missing, is deprecated, or a nested type would be taken for `ID`.
        let identifiable = structure.properties.contains { $0.swiftName == "id" && !$0.isOptional && !$0.isDeprecated }
            && !structure.nested.contains { $0.name == "ID" }
        let conformances = "Codable, Hashable, " + (identifiable ? "Identifiable, " : "") + "Sendable"
        writer.block("\(access)struct \(structure.name)\(generics): \(conformances)") { writer in
            writeProperties(structure, into: &writer)
            if !structure.properties.isEmpty { writer.line() }
            writeInitializer(structure, into: &writer)
            // An object with no members (`fields: {}`) has nothing to read or write: Swift's own Codable does.
            if !structure.properties.isEmpty {
                writer.line()
                writeDecoder(structure, into: &writer)
                writer.line()
                writeEncoder(structure, into: &writer)
            }
            for nested in structure.nested {
                writer.line()
                write(nested, into: &writer)
            }
        }
    }

    /// The stored properties. One that closes a cycle of types held by value is stored in an
    /// `AccordIndirect` box (`_parent`) behind a property of the value's own type; a
    /// deprecated one is stored apart (`_old`) behind the deprecated property, so that the
    /// initializers and `encode(to:)` reach it without a deprecation warning in the app.
    private func writeProperties(_ structure: Declaration.Structure, into writer: inout SwiftWriter) {
        for property in structure.properties {
            let type = property.type + (property.isOptional ? "?" : "")
            writer.documentation(property.documentation, remark: nil)
            if property.isDeprecated { writer.line("@available(*, deprecated)") }
            guard property.isStoredApart else {
                writer.line("\(access)var \(property.swiftName): \(type)")
                continue
            }
            let storage = property.storageName
            writer.block("\(access)var \(property.swiftName): \(type)") { writer in
                writer.line("get { \(property.storedValue) }")
                writer.line(property.isIndirect ? "set { \(storage) = AccordIndirect(newValue) }" : "set { \(storage) = newValue }")
            }
            writer.line("private var \(storage): \(property.isIndirect ? "AccordIndirect<\(type)>" : type)")
        }
    }

    /// `self.name = value`, or the same into the property's storage.
    private func assignment(of value: String, to property: Declaration.Property) -> String {
        guard property.isStoredApart else { return "self.\(Naming.bare(property.swiftName)) = \(value)" }
        return "self.\(property.storageName) = " + (property.isIndirect ? "AccordIndirect(\(value))" : value)
    }

    private func writeInitializer(_ structure: Declaration.Structure, into writer: inout SwiftWriter) {
        let parameters = structure.properties.map { property in
            let type = property.type + (property.isOptional ? "?" : "")
            let defaultValue = property.defaultValue ?? (property.isOptional ? "nil" : nil)
            return "\(property.swiftName): \(type)" + (defaultValue.map { " = \($0)" } ?? "")
        }
        writer.block("\(access)init(\(parameters.joined(separator: ", ")))") { writer in
            for property in structure.properties { writer.line(assignment(of: property.swiftName, to: property)) }
        }
    }

    /// `init(from:)`, each member read by its wire name through `AccordMembersDecoder`:
    /// an optional one leniently (a value that cannot be read is nil instead of failing
    /// the whole answer), a required one or the decoding throws. The members go to the
    /// memberwise initializer in one call, in order: the type checker checks one
    /// expression a model instead of a statement a member.
    private func writeDecoder(_ structure: Declaration.Structure, into writer: inout SwiftWriter) {
        writer.block("\(access)init(from decoder: any Decoder) throws") { writer in
            writer.line("let members = try AccordMembersDecoder(decoder)")
            // Only a required member's read can throw.
            writer.line((structure.properties.allSatisfy(\.isOptional) ? "" : "try ") + "self.init(")
            for (index, property) in structure.properties.enumerated() {
                let read = "members.\(property.isOptional ? "lenient" : "required")(\(property.wireName.swiftLiteral))"
                writer.line("    \(Naming.argumentLabel(property.swiftName)): \(read)" + (index == structure.properties.count - 1 ? "" : ","))
            }
            writer.line(")")
        }
    }

    /// `encode(to:)`, each member written by its wire name, a nil optional left out, as
    /// Swift's synthesized one does.
    private func writeEncoder(_ structure: Declaration.Structure, into writer: inout SwiftWriter) {
        writer.block("\(access)func encode(to encoder: any Encoder) throws") { writer in
            writer.line("var members = AccordMembersEncoder(encoder)")
            for property in structure.properties {
                let method = property.isOptional ? "optional" : "required"
                writer.line("try members.\(method)(self.\(property.storedValue), \(property.wireName.swiftLiteral))")
            }
        }
    }

    /// An open enum, an `AccordOpenEnum`: its cases, `allCases` and `rawValue`; the
    /// protocol gives `init(rawValue:)`, and its `Codable` is the standard library's for a
    /// `RawRepresentable` of a `String` or `Int` raw value (the raw value read and written
    /// as a single value, and `init(rawValue:)` never fails here). Neither is written out
    /// for each enum: the type checker would check each one again.
    private func write(_ enumeration: Declaration.Enumeration, into writer: inout SwiftWriter) {
        let raw = enumeration.isIntegral ? "Int" : "String"
        writer.documentation(enumeration.documentation.summary, remark: enumeration.documentation.remark
                             + ". Values this version does not know decode as `unknown` and encode back unchanged.")
        writer.block("\(access)enum \(enumeration.name): AccordOpenEnum") { writer in
            for item in enumeration.cases { writer.line("case \(item.name)") }
            writer.line("/// A value this version of the contract does not know.")
            writer.line("case unknown(\(raw))")
            writer.line()
            writer.line("/// The values this version of the contract knows, in its order.")
            let known = enumeration.cases.map { "." + Naming.bare($0.name) }.joined(separator: ", ")
            writer.line("\(access)static let allCases: [Self] = [\(known)]")
            writer.line()
            writer.block("\(access)var rawValue: \(raw)") { writer in
                writer.switchBlock("self") { writer in
                    // `return` statements: a `switch` expression is one constraint system of all its branches.
                    for item in enumeration.cases { writer.line("case .\(Naming.bare(item.name)): return \(literal(item.value))") }
                    writer.line("case .unknown(let value): return value")
                }
            }
        }
    }

    private func literal(_ value: EnumCases.Value) -> String {
        switch value {
        case .string(let text): text.swiftLiteral
        case .int(let number): String(number)
        }
    }
}
