import Foundation

/// An HTTP method of the contract.
public nonisolated enum HTTPMethod: String, Sendable, Hashable {
    case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
}
