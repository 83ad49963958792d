import AccordDiagnostics
import AccordJSON

/// One difference between two versions of the contracts, with where it is in each and
/// whom it breaks.
public struct ContractChange: Sendable, Hashable {
    /// Who a change can break.
    public enum Party: String, Sendable, Hashable, CaseIterable, Comparable {
        /// An app built on the old contract, talking to a server on the new one.
        case app
        /// A server built on the old contract, meeting clients (or a verification) on the new one.
        case backend

        public static func < (lhs: Party, rhs: Party) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What changed, for people: `signal.publish request /body/topic: new required member`.
    public var message: String
    /// Whom it breaks; empty for a compatible change.
    public var breaks: Set<Party>
    /// Where the changed thing was written in the old version, if it existed there.
    public var old: SourceLocation?
    /// Where it is written in the new version, if it exists there.
    public var new: SourceLocation?

    public init(_ message: String, breaks: Set<Party>, old: SourceLocation?, new: SourceLocation?) {
        self.message = message
        self.breaks = breaks
        self.old = old
        self.new = new
    }

    public var isBreaking: Bool { !breaks.isEmpty }

    /// `breaking (app, backend)` or `compatible`.
    public var classification: String {
        isBreaking ? "breaking (\(breaks.sorted().map(\.rawValue).joined(separator: ", ")))" : "compatible"
    }

    /// `new.yaml:14:5: breaking (app): … [old: old.yaml:12:5]`, positioned where an
    /// editor should jump: the new place, or the old one for something removed.
    public var line: String { line(prefix: "") }

    /// ``line`` with `prefix` before the classification (`accepted (baseline), `).
    public func line(prefix: String) -> String {
        let primary = new ?? old
        let secondary = new != nil ? old.map { " [old: \($0)]" } ?? "" : ""
        return "\(primary.map { "\($0): " } ?? "")\(prefix)\(classification): \(message)\(secondary)"
    }

    public var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("classification", .string(isBreaking ? "breaking" : "compatible")),
            .init("breaks", .array(breaks.sorted().map { .string($0.rawValue) })), .init("message", .string(message)),
        ]
        if let old { members.append(.init("old", .string(old.description))) }
        if let new { members.append(.init("new", .string(new.description))) }
        return .object(members)
    }
}
