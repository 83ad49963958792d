import Foundation

nonisolated extension URL {
    /// A URL from a generated fixture, whose text the mock checked; `file:///` if
    /// Foundation does not read it after all.
    public init(fixture text: String) {
        self = URL(string: text) ?? URL(fileURLWithPath: "/")
    }
}
