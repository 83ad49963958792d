import AccordDiagnostics

/// The shape of a value on the wire, with its constraints and documentation.
public struct Schema: Sendable, Hashable {
    /// What kind of value the schema describes.
    public indirect enum Kind: Sendable, Hashable {
        case primitive(Primitive)
        case array(Schema)
        /// A JSON object with arbitrary string keys: `{string: T}`.
        case map(Schema)
        /// A named type declared in some contract file.
        case reference(String)
        case object([Field])
        case enumeration(EnumCases)
        /// One of several object shapes, told apart by a discriminator member.
        case union(Union)
    }

    public var kind: Kind
    public var constraints: Constraints
    public var description: String?
    public var isDeprecated: Bool
    /// The value used when the member is absent, with where it was written.
    public var defaultValue: SourcedJSON?
    /// Where the schema was written.
    public var location: SourceLocation

    public init(
        _ kind: Kind,
        constraints: Constraints = Constraints(),
        description: String? = nil,
        isDeprecated: Bool = false,
        defaultValue: SourcedJSON? = nil,
        location: SourceLocation
    ) {
        self.kind = kind
        self.constraints = constraints
        self.description = description
        self.isDeprecated = isDeprecated
        self.defaultValue = defaultValue
        self.location = location
    }
}

/// The built-in scalar types of the contract format.
public enum Primitive: String, Sendable, Hashable, CaseIterable {
    /// `int` is an integer a JavaScript or JSONSerialization reader keeps exactly:
    /// at most 2^53 - 1 either way. Wider ids are `int64`.
    case string, int, bool, double
    /// A 64-bit integer (Swift `Int64`), for ids beyond 2^53; kept exactly on the wire.
    case int64
    /// A decimal number carried as a string (`"9.99"`), so no precision is lost.
    case decimal
    /// An RFC 3339 timestamp, with or without fractional seconds.
    case dateTime = "date-time"
    /// A calendar date, `yyyy-MM-dd`.
    case date
    case url
    /// Any JSON value; for free-form members.
    case any
}

extension Primitive {
    /// The largest magnitude an `int` may have: 2^53 - 1, beyond which a double loses integers.
    public static let largestExactInteger = 9_007_199_254_740_991
}

/// A member of an object, a path parameter, a query parameter or a header.
public struct Field: Sendable, Hashable {
    /// The name on the wire.
    public var name: String
    public var schema: Schema
    /// May be absent (and, like a Swift optional, may be `null`). Written `T?`.
    public var isOptional: Bool
    /// Must be present but may be `null`. Written in the long form as `nullable: true`.
    public var isNullable: Bool
    /// Where the field's name was written.
    public var location: SourceLocation

    public init(name: String, schema: Schema, isOptional: Bool = false, isNullable: Bool = false, location: SourceLocation) {
        self.name = name
        self.schema = schema
        self.isOptional = isOptional
        self.isNullable = isNullable
        self.location = location
    }
}

/// The cases of an enumeration: all strings, or all integers with Swift-facing names.
public struct EnumCases: Sendable, Hashable {
    /// One allowed value.
    public struct Case: Sendable, Hashable {
        /// The Swift-facing name (for string enums, the value itself).
        public var name: String
        public var value: Value
        public var location: SourceLocation

        public init(name: String, value: Value, location: SourceLocation) {
            self.name = name
            self.value = value
            self.location = location
        }
    }

    /// A case's wire value.
    public enum Value: Sendable, Hashable, CustomStringConvertible {
        case string(String)
        case int(Int)

        public var description: String {
            switch self {
            case .string(let value): value
            case .int(let value): String(value)
            }
        }
    }

    public var cases: [Case]

    public init(_ cases: [Case]) {
        self.cases = cases
    }

    /// Whether the wire values are integers.
    public var isIntegral: Bool {
        if case .int = cases.first?.value { return true }
        return false
    }
}

/// A tagged union: an object whose discriminator member (`kind: user`) selects the
/// named object type its other members follow. The union owns the discriminator; the
/// case types do not declare it.
public struct Union: Sendable, Hashable {
    /// One value of the discriminator and the type it selects.
    public struct Case: Sendable, Hashable {
        /// The discriminator's value on the wire (`user`).
        public var value: String
        /// The named object type that value selects (`UserCard`).
        public var typeName: String
        public var location: SourceLocation

        public init(value: String, typeName: String, location: SourceLocation) {
            self.value = value
            self.typeName = typeName
            self.location = location
        }
    }

    /// The member that tells the shapes apart (`kind`).
    public var discriminator: String
    public var cases: [Case]

    public init(discriminator: String, cases: [Case]) {
        self.discriminator = discriminator
        self.cases = cases
    }

    /// The case selected by `value`, if the contract declares it.
    public func selected(by value: String) -> Case? {
        cases.first { $0.value == value }
    }
}

/// Limits a value must respect, beyond its type.
public struct Constraints: Sendable, Hashable {
    /// Inclusive numeric bounds.
    public var minimum: Double?
    public var maximum: Double?
    /// Bounds on a string's length in characters.
    public var minLength: Int?
    public var maxLength: Int?
    /// Bounds on an array's item count.
    public var minItems: Int?
    public var maxItems: Int?
    /// A regular expression the whole string must match.
    public var pattern: String?

    public init() {}

    /// Whether no constraint is set.
    public var isEmpty: Bool {
        // Each member looked at, not a comparison with `Constraints()`: a validator asks this of every value.
        minimum == nil && maximum == nil && minLength == nil && maxLength == nil && minItems == nil && maxItems == nil && pattern == nil
    }
}
