import AccordContract

/// `Support/Service.swift` as declarations: the business codes with their Swift case
/// names, the flow codes, the payload types of codes that carry data, the refresh call
/// and the responses that issue tokens. The service's settings are the contract's
/// values, written as they are.
struct ServiceDeclaration: Sendable {
    /// An entry of the code table and its case of `BusinessCode`.
    struct Code: Sendable {
        var entry: BusinessCode
        /// The case as declared (`` `default` ``); ``Naming/bare(_:)`` for a reference.
        var caseName: String
        /// The entry `init(rawValue:)` gives for its number (the first of a status's entries).
        var isCanonical: Bool
    }

    /// A typed accessor on `APIError` for the `data` of a code other than the ban.
    struct Payload: Sendable {
        var code: BusinessCode
        /// `quotaExceededData`.
        var property: String
        var type: String
    }

    /// The token refresh call the client makes.
    struct Refresh: Sendable {
        var responseType: String
        /// `API.auth.refresh(RefreshRequest(refreshToken: refreshToken))`
        var call: String
    }

    /// The table, by number.
    var codes: [Code]
    /// Each role's code in Swift: the table's case, or the role's number when it names none.
    var roleCodes: [FlowCodes.Role: String]
    /// The ban's payload type, and the entry it is declared for.
    var banPayloadType: String
    var banCode: BusinessCode?
    var payloads: [Payload]
    /// The types the payloads declare inline.
    var nested: [Declaration]
    /// Nil when the contract's refresh endpoint cannot serve the client.
    var refresh: Refresh?
    /// The response types that carry a token pair.
    var tokenIssuers: [String]
}
