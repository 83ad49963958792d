import Foundation

/// A decimal number carried as a string on the wire (`"68.00"`), so no float
/// rounding touches prices; encodes back exactly as received.
public nonisolated struct AccordDecimal: StringCodable, Hashable, Sendable, CustomStringConvertible {
    public static let expectation = "a decimal string such as \"9.99\""
    public let text: String

    public init?(text: String) {
        guard Decimal(string: text) != nil, text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) else { return nil }
        self.text = text
    }

    public init(_ value: Decimal) {
        text = value.description
    }

    /// A decimal from a generated fixture, whose text the mock checked; kept as it is.
    public init(fixture text: String) {
        self.text = text
    }

    /// The value, for arithmetic.
    public var decimal: Decimal { Decimal(string: text) ?? 0 }

    public var description: String { text }
}
