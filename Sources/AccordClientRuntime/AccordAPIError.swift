import Foundation

/// Why a call failed, told apart so the app can react to each.
public nonisolated enum AccordAPIError<Service: AccordContractService>: Error, Equatable, Sendable, CustomStringConvertible {
    /// A business code of the contract (`code != 0`), with its message and the whole envelope.
    case business(Service.Code, message: String, envelope: Data?)
    /// 1008: the account is banned, with the `data` the contract declares for the ban
    /// code (``BanPayload``: `{ban_info: {reason, until?, appeal_url?}}` in this contract).
    case banned(Service.BanPayload)
    /// 1006, 1007 or a failed refresh: the tokens are cleared; show the login.
    case sessionEnded(Service.Code)
    /// No network.
    case offline
    case timeout
    /// A 4xx or 5xx answer without the envelope.
    case http(status: Int, body: String)
    /// The answer could not be read as the contract says.
    case undecodable(String)
    /// Another transport failure.
    case transport(String)
    /// The calling task was cancelled (while sending, or while waiting for a refresh).
    case cancelled
    /// The token storage failed (a Keychain locked before first unlock, say); the
    /// session is kept, so a later call can succeed.
    case storage(String)

    public var description: String {
        switch self {
        case .business(let code, let message, _): "\(message) (\(code.rawValue))"
        case .banned: "banned"
        case .sessionEnded(let code): "session ended (\(code.rawValue)); log in again"
        case .offline: "offline"
        case .timeout: "the request timed out"
        case .http(let status, let body): "HTTP \(status): \(body.prefix(200))"
        case .undecodable(let reason): "unreadable answer: \(reason)"
        case .transport(let reason): "network error: \(reason)"
        case .cancelled: "cancelled"
        case .storage(let reason): "token storage failed: \(reason)"
        }
    }
}

nonisolated extension AccordAPIError {
    /// The envelope's `data` (a plain API's whole error body) of a business error read as
    /// `type`: the payload the code table declares for the code (the generated `…Data`
    /// properties call this).
    public func payload<Payload: Decodable>(_ type: Payload.Type) -> Payload? {
        guard case .business(_, _, let envelope?) = self else { return nil }
        return Service.payload(type, in: envelope)
    }
}
