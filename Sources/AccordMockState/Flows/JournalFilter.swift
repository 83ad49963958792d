import AccordHTTP
import AccordJSON

/// Which journal entries a reader wants (`GET /__accord/requests`, `GET /__accord/events`):
/// every condition given must hold.
public struct JournalFilter: Sendable, Equatable {
    public var session: String?
    public var user: Int?
    /// An endpoint id (`signal.publish`), or a domain's prefix with a star (`signal.*`).
    public var endpoint: String?
    /// A status (`401`), or a class (`4xx`).
    public var status: StatusMatch?
    public var verdict: Verdict?

    /// A status, or every status of a class.
    public enum StatusMatch: Sendable, Equatable {
        case exactly(Int)
        /// `4` for `4xx`.
        case hundreds(Int)

        package func admits(_ status: Int) -> Bool {
            switch self {
            case .exactly(let value): status == value
            case .hundreds(let digit): status / 100 == digit
            }
        }
    }

    public init(session: String? = nil, user: Int? = nil, endpoint: String? = nil, status: StatusMatch? = nil, verdict: Verdict? = nil) {
        self.session = session
        self.user = user
        self.endpoint = endpoint
        self.status = status
        self.verdict = verdict
    }

    /// Why a query's filter cannot be read.
    public struct Invalid: Error, Sendable {
        public var message: String
    }

    /// The filter of a query: `session`, `user`, `endpoint`, `status`, `verdict`.
    public init(query: [(name: String, value: String)]) throws(Invalid) {
        for (name, value) in query {
            switch name {
            case "session":
                session = value
            case "user":
                guard let uid = Int(value), uid >= 0 else { throw Invalid(message: "'user' takes a user id, found '\(value)'") }
                user = uid
            case "endpoint":
                endpoint = value
            case "status":
                let digits = value.lowercased()
                if digits.count == 3, digits.hasSuffix("xx"), let first = Int(digits.prefix(1)), (1...5).contains(first) {
                    status = .hundreds(first)
                } else if let code = Int(value), (100...599).contains(code) {
                    status = .exactly(code)
                } else {
                    throw Invalid(message: "'status' takes a status from 100 to 599 or a class such as 4xx, found '\(value)'")
                }
            case "verdict":
                guard let match = Verdict(rawValue: value) else {
                    throw Invalid(message: "'verdict' is one of \(Verdict.allCases.map(\.rawValue).joined(separator: ", ")), found '\(value)'")
                }
                verdict = match
            default:
                continue
            }
        }
    }

    /// Whether `entry` meets every condition.
    public func admits(_ entry: JournalEntry) -> Bool {
        if let session, entry.session != session { return false }
        if let user, entry.user != user { return false }
        if let endpoint {
            if endpoint.hasSuffix("*") {
                guard entry.endpoint?.hasPrefix(endpoint.dropLast()) == true else { return false }
            } else if entry.endpoint != endpoint {
                return false
            }
        }
        if let status, !status.admits(entry.status) { return false }
        if let verdict, entry.verdict != verdict { return false }
        return true
    }
}
