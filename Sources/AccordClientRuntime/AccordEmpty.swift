import Foundation

/// An object with no members: `data: {}`.
public nonisolated struct AccordEmpty: Codable, Hashable, Sendable {
    public init() {}
}
