import AccordDiagnostics
import AccordJSON

/// One entry of the code table: a non-zero `code` in the envelope, or for a plain API
/// an HTTP error status, told apart from the status's other entries by a member of
/// the error body (``discriminator``).
public struct BusinessCode: Sendable, Hashable {
    /// The member of a plain API's error body, and its value, that mark this entry
    /// (`type: https://example.com/problems/token-expired`).
    public struct Discriminator: Sendable, Hashable {
        public var member: String
        public var value: String

        public init(member: String, value: String) {
            self.member = member
            self.value = value
        }
    }

    /// What a correct client does when it meets the code.
    public enum Flow: String, Sendable, Hashable, CaseIterable {
        /// Nothing automatic; show or log the message.
        case none
        /// Refresh the access token once (single-flight) and retry the request.
        case refreshAndRetry = "refresh-and-retry"
        /// Clear the tokens and go to login.
        case logout
        /// Show the ban screen with `data.ban_info`.
        case ban
        /// Show a global alert with the message.
        case alert
    }

    public var code: Int
    /// A short kebab-case name, usable wherever a code is (`token-expired`).
    public var name: String
    /// The envelope's `msg`.
    public var message: String
    public var flow: Flow
    /// The HTTP status the code travels with (200 unless the contract says otherwise).
    public var httpStatus: Int
    public var description: String?
    /// The shape of the envelope's `data` when this code is answered (`{ban_info: …}` for a
    /// ban), if the contract declares one: fixtures, the mock and the generated client use it.
    public var data: Schema?
    /// What tells this entry from its status's others (plain APIs only).
    public var discriminator: Discriminator?
    public var location: SourceLocation

    public init(
        code: Int, name: String, message: String, flow: Flow = .none, httpStatus: Int = 200,
        description: String? = nil, location: SourceLocation
    ) {
        self.code = code
        self.name = name
        self.message = message
        self.flow = flow
        self.httpStatus = httpStatus
        self.description = description
        self.location = location
    }
}

extension BusinessCode {
    /// Whether `other` is the same entry of the table: the same code, told apart by the
    /// same discriminator (or by none).
    public func clashes(with other: BusinessCode) -> Bool {
        code == other.code && discriminator == other.discriminator
    }

    /// The error body's members that make an answer of this code this entry and not
    /// another of its status (`{type: …token-expired}`); nil when no `when` tells them apart.
    public var discriminatingData: JSONValue? {
        discriminator.map { JSONValue.object([.init($0.member, .string($0.value))]) }
    }
}
