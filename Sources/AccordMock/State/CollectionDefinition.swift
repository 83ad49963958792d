import AccordContract
import AccordDiagnostics
import AccordJSON

/// A named set of records of one contract type, declared in
/// `mocks/collections/NAME.yaml` (docs/mocks.md): what the app writes, the mock
/// remembers, per session.
public struct CollectionDefinition: Sendable {
    /// The file's name: `signals` for `collections/signals.yaml`.
    public var name: String
    public var description: String?
    /// The contract type of every record.
    public var typeName: String
    /// The member that identifies a record (a required string or integer).
    public var key: String
    /// The most records one session keeps of this collection.
    public var limit: Int
    /// The records every session starts from, with their templates.
    var seeds: [CompiledJSON]
    /// Where the collection was declared.
    public var location: SourceLocation

    /// The default and the largest ``limit``.
    public static let defaultLimit = 1_000
    public static let maxLimit = 100_000

    /// The number of seed records.
    public var seedCount: Int { seeds.count }

    /// The seeds rendered for a session starting now: fresh ids, relative dates.
    func renderSeeds(state: MockState) -> [JSONValue] {
        let context = TemplateContext(request: MockRequest(method: "GET", target: "/"), parameters: [:], body: nil, now: state.clock.now,
                                      state: state)
        return seeds.compactMap { try? JSONReader.read($0.render(context)) }
    }
}
