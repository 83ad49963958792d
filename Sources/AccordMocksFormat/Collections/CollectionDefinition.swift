import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordSync

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
    package let seeds: [TemplatedJSON]
    /// Where the collection was declared.
    public var location: SourceLocation
    /// The type's shape (``TypeShape``): a hot reload that changes it drops the
    /// collection's stored records, which may no longer fit.
    package var shape: String
    /// The seeds as last rendered, shared by the sessions seeded at the same mock time.
    package let renderedSeeds = RenderedSeeds()

    /// The default and the largest ``limit``.
    public static let defaultLimit = 1_000
    public static let maxLimit = 100_000

    /// The number of seed records.
    public var seedCount: Int { seeds.count }
}

/// A collection's seeds as last rendered, for the next session seeded at the same mock
/// time: when every hole in them reads only the time (`{{now - 2h}}`), its rendering is
/// the same, so those sessions share one array of records, and each record until the
/// session changes it, instead of holding a copy each (256 sessions of 1,000 seeded
/// records were 256 copies). Seeds with `uuid`, `seq`, `random` or state in them are
/// rendered for every session, as before.
package final class RenderedSeeds: Sendable {
    private struct Rendering {
        var now: Int64
        var records: [JSONValue]
    }

    /// Whether the seeds vary only with the time, found at the first rendering.
    private let sharable = Locked<Bool?>(nil)
    private let last = Locked<Rendering?>(nil)

    package init() {}

    /// The seeds `seeds` rendered at `now` by `render`: the last rendering when it was
    /// at the same time and the seeds vary only with it.
    package func records<Failure: Error>(of seeds: [TemplatedJSON], at now: Int64,
                                         render: () throws(Failure) -> [JSONValue]) throws(Failure) -> [JSONValue] {
        let shared = sharable.withLock { known in
            if let known { return known }
            known = seeds.allSatisfy(\.variesOnlyWithTime)
            return known!
        }
        guard shared else { return try render() }
        if let rendering = last.withLock({ $0 }), rendering.now == now { return rendering.records }
        let records = try render()
        last.withLock { $0 = Rendering(now: now, records: records) }
        return records
    }
}

/// A type's shape as text: kinds, members with their optional and nullable flags,
/// constraints and enum values, through references, without the positions they were
/// written at; two declarations have the same shape when records of one fit the other.
package enum TypeShape {
    package static func of(_ typeName: String, in contract: Contract) -> String {
        var visiting: Set<String> = []
        return text(Schema(.reference(typeName), location: SourceLocation(file: "")), contract, &visiting)
    }

    private static func text(_ schema: Schema, _ contract: Contract, _ visiting: inout Set<String>) -> String {
        let limits = schema.constraints.isEmpty ? "" : "\(schema.constraints)"
        switch schema.kind {
        case .primitive(let primitive):
            return primitive.rawValue + limits
        case .array(let item):
            return "[" + text(item, contract, &visiting) + "]" + limits
        case .map(let value):
            return "{string:" + text(value, contract, &visiting) + "}" + limits
        case .reference(let name):
            guard let declaration = contract.types[name], visiting.insert(name).inserted else { return "@" + name }
            defer { visiting.remove(name) }
            return text(declaration.schema, contract, &visiting) + limits
        case .object(let fields):
            return "{" + fields.map { field in
                field.name + (field.isOptional ? "?" : "") + (field.isNullable ? "!" : "") + ":" + text(field.schema, contract, &visiting)
            }.joined(separator: ",") + "}"
        case .enumeration(let cases):
            return "(" + cases.cases.map(\.value.description).joined(separator: "|") + ")"
        case .union(let union):
            return "<" + union.discriminator + ":" + union.cases.map { $0.value + "=" + text(Schema(.reference($0.typeName), location: $0.location), contract, &visiting) }
                .joined(separator: "|") + ">"
        }
    }
}

extension CollectionDefinition {
    /// The keys of the seed records that write their key out (not as a template).
    package var seedKeys: [JSONValue] {
        seeds.compactMap { seed in
            switch seed {
            case .literal(let record): record[key]
            case .object(let members): members.first { $0.key == key }.flatMap { if case .literal(let value) = $0.value { value } else { nil } }
            default: nil
            }
        }
    }
}
