import AccordContract
import AccordDiagnostics
import AccordJSON

/// What a fixture does to a collection before it answers (docs/mocks.md, "Effects"):
/// insert the request as a record, update, delete or read one record, or list a page of
/// them; and count records into the answer.
///
/// ```yaml
/// effect:
///   update: signals                   # the collection
///   where: {/status: active}          # others count as missing
///   increment: {/replies_count: 1}
///   set: {/viewer_state/has_replied: true}
///   missing: 3001                     # no such record: this business code
/// ```
public struct Effect: Sendable {
    /// The operation on the collection.
    public enum Action: String, Sendable, CaseIterable {
        /// Puts a record made of `defaults`, the request body and `record` (a record
        /// with the same key is replaced: a repeated insert is idempotent).
        case insert
        /// Changes the keyed record: the request body's members (with `body: merge`),
        /// then `set`, then `increment`.
        case update
        /// Removes the keyed record.
        case delete
        /// Answers the keyed record.
        case read
        /// Answers a page of the records that pass the filters, in order.
        case list
    }

    public var action: Action?
    /// The collection acted on; nil for an effect that only counts.
    public var collection: String?
    /// `insert`: members that win over the body's (generated ids, the caller, times).
    var record: TemplatedJSON?
    /// `insert`: members the body may leave out.
    var defaults: TemplatedJSON?
    /// `update`: the request body's members are patched in.
    var mergesBody = false
    /// `update`, `delete`, `read`: the key of the record, rendered per request; nil for
    /// the first record that passes `filter`.
    var key: TemplatedJSON?
    var filter = RecordFilter()
    var changes: [(pointer: JSONPointer, value: TemplatedJSON)] = []
    var increments: [(pointer: JSONPointer, by: Int)] = []
    /// The business code answered when no record has the key (or passes the filter).
    var missingCode: Int?
    var listing: Listing?
    var counts: [Count] = []
    public var location: SourceLocation

    /// How a list effect pages and orders.
    struct Listing: Sendable {
        /// Query parameter → member: records whose member equals the parameter, when sent.
        var queryFilters: [(parameter: String, pointer: JSONPointer)] = []
        var order: Order?
        var paging: Paging?
        /// Where the page's records go in the answer.
        var items = JSONPointer(tokens: ["items"])
        /// What the answer's items keep of a record.
        var itemProjection = Projection.whole
        /// Where the answer takes `next_cursor` and `has_more`, when its type declares them.
        var nextCursor: JSONPointer?
        var hasMore: JSONPointer?
    }

    /// Sorting by one member, the key breaking ties (in the same direction).
    struct Order: Sendable {
        var pointer: JSONPointer
        var descending: Bool
    }

    /// How a list is cut into pages: `cursor` gives opaque `next_cursor` tokens over
    /// the `cursor` and `limit` query parameters; `number` reads `page` (from 1) and
    /// `size`. The size is the one sent, else the parameter's declared default, else 20.
    struct Paging: Sendable {
        enum Style: String, Sendable, CaseIterable {
            case cursor, number
        }

        var style: Style
        var parameter: String
        var sizeParameter: String
        var defaultSize: Int
    }

    /// A number of records written into the answer at `target`.
    struct Count: Sendable {
        var target: JSONPointer
        var collection: String
        var filter: RecordFilter
    }

    /// Whether the answer is the record acted on.
    var answersRecord: Bool {
        action == .insert || action == .update || action == .read
    }

    /// Where the effect was written, as text: its name in ``ListMemo`` keys.
    let place: String

    init(location: SourceLocation) {
        self.location = location
        place = location.description
    }
}

/// Conditions on a record's members, each a member pointer, a comparison and a value
/// that may be a template: `/sender/uid: '{{user}}'` (equal), `{not: …}`, `{min: …}`,
/// `{max: …}` (inclusive bounds; times in UTC compare in time order). Equality compares
/// as text, like `when` matchers.
public struct RecordFilter: Sendable {
    /// How a member is compared with the condition's value.
    enum Comparison: String, Sendable, CaseIterable {
        case equals, not, min, max
    }

    struct Condition: Sendable {
        var pointer: JSONPointer
        var comparison: Comparison
        var value: TemplatedJSON
    }

    var conditions: [Condition] = []

    /// The filter with its templates rendered for one request.
    func bound(_ context: TemplateContext) -> BoundRecordFilter {
        BoundRecordFilter(conditions: conditions.map { condition in
            let value = condition.value.render(context)
            return .init(pointer: condition.pointer, comparison: condition.comparison, value: value, text: InterpolatedText.text(of: value))
        })
    }
}

/// A ``RecordFilter`` rendered for one request.
struct BoundRecordFilter {
    struct Condition {
        var pointer: JSONPointer
        var comparison: RecordFilter.Comparison
        var value: JSONValue
        var text: String
    }

    var conditions: [Condition]

    /// The conditions as text, for ``ListMemo`` keys.
    var memoKey: [String] {
        conditions.map { "\($0.pointer) \($0.comparison.rawValue) \(JSONWriter.string($0.value))" }
    }

    func accepts(_ record: JSONValue) -> Bool {
        conditions.allSatisfy { condition in
            let member = condition.pointer.value(in: record)
            switch condition.comparison {
            case .equals: return member.map { Self.same($0, condition) } ?? false
            case .not: return !(member.map { Self.same($0, condition) } ?? false)
            case .min: return member.map { RecordShape.ascending($0, condition.value) >= 0 } ?? false
            case .max: return member.map { RecordShape.ascending($0, condition.value) <= 0 } ?? false
            }
        }
    }

    /// Equal as text, like matchers (`20031` equals `"20031"`); values of the same kind
    /// compare directly, without making text.
    private static func same(_ member: JSONValue, _ condition: Condition) -> Bool {
        switch (member, condition.value) {
        case (.string(let a), .string(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        default: InterpolatedText.text(of: member) == condition.text
        }
    }
}

/// A `when: {state: …}` condition: at least `atLeast` of the session's records of
/// `collection` pass `filter`.
///
/// ```yaml
/// when:
///   state:
///     likers: {/uid: '{{request.path.user_id}}'}                  # some record
///     signals: {where: {/sender/uid: '{{user}}'}, at_least: 20}    # a count
/// ```
public struct StateCondition: Sendable {
    var collection: String
    var filter: RecordFilter
    var atLeast: Int
}
