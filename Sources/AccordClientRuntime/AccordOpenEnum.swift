/// An enum of a contract's values that stays open to values a later version of the
/// contract adds: each known value is a case, any other one is `unknown` with the value
/// as it came, so an answer with a new value still decodes and encodes back unchanged.
///
/// A generated enum declares its cases, `allCases` (the known values in the contract's
/// order) and `rawValue`; `init(rawValue:)` is this protocol's, one function for every
/// enum that the type checker checks once, instead of one an enum. Its `Codable` is the
/// standard library's for a `RawRepresentable`.
public nonisolated protocol AccordOpenEnum: RawRepresentable, CaseIterable, Codable, Hashable, Sendable where RawValue: Codable & Hashable & Sendable, AllCases == [Self] {
    /// The value `rawValue`, which this version of the contract does not know: the
    /// enum's `case unknown(…)`.
    static func unknown(_ rawValue: RawValue) -> Self
}

nonisolated extension AccordOpenEnum {
    /// The known case whose value is `rawValue`, the first in the contract's order, or
    /// `unknown(rawValue)`; it never fails.
    public init(rawValue: RawValue) {
        self = Self.allCases.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }
}
