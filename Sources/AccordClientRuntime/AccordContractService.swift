import Foundation

/// What the client, the in-process mock and their errors need of a contract: its
/// settings, its code table and the flow of each code, its refresh call and its mock
/// routes. The generated `Service` conforms, and names the runtime's generic types for
/// it (`typealias APIClient = AccordAPIClient<Service>`), so the runtime compiles and is
/// tested without any contract.
public nonisolated protocol AccordContractService: Sendable {
    /// The code table (`BusinessCode`).
    associatedtype Code: AccordBusinessCode
    /// The `data` of a ban answer.
    associatedtype BanPayload: Codable, Hashable, Sendable
    /// Who the client is and where it calls (`ClientConfiguration`).
    associatedtype Configuration: AccordClientConfiguration
    /// What the refresh call answers (``Tokens`` when the client cannot refresh).
    associatedtype RefreshResponse: Decodable, Sendable, TokenIssuing

    /// The path every endpoint's path follows (`/api/v1`).
    static var basePath: String { get }
    /// Whether every answer is an envelope; without one, an error is an HTTP status.
    static var usesEnvelope: Bool { get }
    static var envelopeCode: String { get }
    static var envelopeMessage: String { get }
    static var envelopeData: String { get }
    /// The media type of a plain API's error answers.
    static var errorMediaType: String { get }
    // accord:if signing
    static var appKeyHeader: String { get }
    static var timestampHeader: String { get }
    static var nonceHeader: String { get }
    static var signatureHeader: String { get }
    /// The contract's app keys and secrets (development ones: the mock checks signatures with them).
    static var apps: [String: String] { get }
    /// Endpoints that need no signature.
    static var unsignedEndpoints: Set<String> { get }
    static var signatureInvalidCode: Code { get }
    // accord:end
    /// Whether requests carry bearer tokens that the login endpoints issue.
    static var usesTokens: Bool { get }
    static var authHeader: String { get }
    static var authScheme: String { get }
    /// Where the API key travels, if the contract has one, and the development keys it declares.
    static var apiKeyHeader: String? { get }
    static var apiKeyQuery: String? { get }
    static var apiKeys: Set<String> { get }
    /// What a refresh that fails without an answer ends the session with.
    static var refreshFailedCode: Code { get }
    static var tokenExpiredCode: Code { get }
    static var tokenInvalidCode: Code { get }
    static var forceLogoutCode: Code { get }
    static var bannedCode: Code { get }
    static var loginEndpoints: Set<String> { get }
    static var refreshEndpoint: String { get }
    /// Every endpoint with its typed fixtures, for the in-process mock.
    static var mockRoutes: [MockRoute] { get }

    /// The message of `code` in the table.
    static func message(_ code: Code) -> String
    /// The code of a plain API's error answer, or nil when the table has none for `status`.
    static func errorCode(status: Int, body: Data) -> Code?
    /// The member of the error body, and its value, that marks `code`.
    static func discriminator(_ code: Code) -> (member: String, value: String)?
    static func refreshesAndRetries(_ code: Code) -> Bool
    static func endsSession(_ code: Code) -> Bool
    static func bans(_ code: Code) -> Bool
    static func alerts(_ code: Code) -> Bool
    /// The token refresh call, or nil when the client cannot refresh.
    static func refresh(_ refreshToken: String) -> Endpoint<RefreshResponse>?
}

/// A contract's code table as an open enum: every number is a code, known or not.
public nonisolated protocol AccordBusinessCode: Hashable, Sendable {
    init(rawValue: Int)
    var rawValue: Int { get }
}

/// Who the client is and where it calls, as the contract needs it.
public nonisolated protocol AccordClientConfiguration: Sendable {
    /// The server, such as `https://api.example.com` (the base path is added).
    var serverURL: URL { get }
    // accord:if signing
    var appKey: String { get }
    var appSecret: String { get }
    // accord:end
    /// Seconds before a call gives up.
    var timeout: TimeInterval { get }
    var retryPolicy: RetryPolicy { get }
    /// For previews and tests over the in-process mock.
    static var preview: Self { get }
    /// The service-wide headers, and the API key when `requiresAuth` and it travels in a header.
    func headers(requiresAuth: Bool) -> [(String, String)]
    /// The API key when `requiresAuth` and it travels in the query.
    func queryItems(requiresAuth: Bool) -> [QueryItem]
}
