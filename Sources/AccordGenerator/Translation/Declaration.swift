import AccordContract
import AccordDiagnostics

/// A Swift type to emit, with the nested types it owns.
indirect enum Declaration: Sendable {
    /// A struct with stored properties.
    case structure(Structure)
    /// An open enum: known cases plus `unknown(raw)`.
    case enumeration(Enumeration)
    /// `typealias Name = Target`.
    case alias(name: String, target: String, documentation: Documentation)
    /// A tagged union: one case per shape, plus `unknown(kind:raw:)`.
    case union(TaggedUnion)

    struct Structure {
        var name: String
        /// Type parameters of a generic struct (`Page<T>`), each `Codable & Hashable & Sendable`.
        var genericParameters: [String] = []
        var properties: [Property]
        var nested: [Declaration]
        var documentation: Documentation
        /// A warning at every field whose property had to be renamed (``Naming/unique(_:reserved:)``).
        var renames: [Diagnostic] = []
    }

    struct Property {
        var wireName: String
        var swiftName: String
        var type: String
        /// What the initializer's parameter defaults to, if anything (optionals default to nil).
        var defaultValue: String? = nil
        var isOptional: Bool
        var documentation: String?
        var isDeprecated: Bool
        /// Kept on the heap (in an `AccordIndirect`): the member closes a cycle of types held by value.
        var isIndirect = false

        /// Stored in a private property of its own (``storageName``) behind the public one:
        /// boxed, or deprecated (the generated code reads the storage without a warning).
        var isStoredApart: Bool { isIndirect || isDeprecated }

        /// `_name`, the private stored property of one ``isStoredApart``.
        var storageName: String { "_" + Naming.bare(swiftName) }

        /// What reads the stored value: `_parent.value` from a box, `_old` past a deprecated
        /// property, else the property itself.
        var storedValue: String { isIndirect ? storageName + ".value" : isStoredApart ? storageName : Naming.bare(swiftName) }
    }

    struct Enumeration {
        var name: String
        /// (Swift case name, wire value)
        var cases: [(name: String, value: EnumCases.Value)]
        var isIntegral: Bool
        var documentation: Documentation
        /// A warning at every value whose case had to be renamed (``Naming/caseNames(_:)``).
        var renames: [Diagnostic] = []
    }

    struct TaggedUnion {
        var name: String
        /// The discriminator's wire name (`kind`).
        var discriminator: String
        /// (Swift case name, discriminator value, the shape's Swift type)
        var cases: [(name: String, value: String, type: String)]
        var documentation: Documentation
        /// `indirect`: a shape holds the union again by value.
        var isIndirect = false
        /// A warning at every value whose case had to be renamed (``Naming/caseNames(_:)``).
        var renames: [Diagnostic] = []
    }

    /// A doc comment: the contract's description and where the type comes from.
    struct Documentation {
        var summary: String?
        var remark: String
    }

    /// The warnings of this declaration and of the types nested in it.
    var warnings: [Diagnostic] {
        switch self {
        case .structure(let structure): structure.renames + structure.nested.flatMap(\.warnings)
        case .enumeration(let enumeration): enumeration.renames
        case .union(let union): union.renames
        case .alias: []
        }
    }

    var name: String {
        switch self {
        case .structure(let structure): structure.name
        case .enumeration(let enumeration): enumeration.name
        case .alias(let name, _, _): name
        case .union(let union): union.name
        }
    }
}
