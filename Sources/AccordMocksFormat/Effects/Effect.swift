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
    package var record: TemplatedJSON?
    /// `insert`: members the body may leave out.
    package var defaults: TemplatedJSON?
    /// `update`: the request body's members are patched in.
    package var mergesBody = false
    /// `update`, `delete`, `read`: the key of the record, rendered per request; nil for
    /// the first record that passes `filter`.
    package var key: TemplatedJSON?
    package var filter = RecordFilter()
    package var changes: [(pointer: JSONPointer, value: TemplatedJSON)] = []
    package var increments: [(pointer: JSONPointer, by: Int)] = []
    /// The business code answered when no record has the key (or passes the filter).
    package var missingCode: Int?
    package var listing: Listing?
    package var counts: [Count] = []
    public var location: SourceLocation

    /// How a list effect pages and orders.
    package struct Listing: Sendable {
        /// Query parameter → member: records whose member equals the parameter, when sent.
        package var queryFilters: [(parameter: String, pointer: JSONPointer)] = []
        package var order: Order?
        package var paging: Paging?
        /// Where the page's records go in the answer.
        package var items = JSONPointer(tokens: ["items"])
        /// What the answer's items keep of a record.
        package var itemProjection = Projection.whole
        /// Where the answer takes `next_cursor` and `has_more`, when its type declares them.
        package var nextCursor: JSONPointer?
        package var hasMore: JSONPointer?
    }

    /// Sorting by one member, the key breaking ties (in the same direction).
    package struct Order: Sendable {
        package var pointer: JSONPointer
        package var descending: Bool
    }

    /// How a list is cut into pages: `cursor` gives opaque `next_cursor` tokens over
    /// the `cursor` and `limit` query parameters; `number` reads `page` (from 1) and
    /// `size`. The size is the one sent, else the parameter's declared default, else 20.
    package struct Paging: Sendable {
        package enum Style: String, Sendable, CaseIterable {
            case cursor, number
        }

        package var style: Style
        package var parameter: String
        package var sizeParameter: String
        package var defaultSize: Int
    }

    /// A number of records written into the answer at `target`.
    package struct Count: Sendable {
        package var target: JSONPointer
        package var collection: String
        package var filter: RecordFilter
    }

    /// Whether the answer is the record acted on.
    package var answersRecord: Bool {
        action == .insert || action == .update || action == .read
    }

    /// Whether the effect only reads the records, through filters that hold no template:
    /// a `list` or counts alone. What it puts in the answer then depends on the session's
    /// records and the request's query alone.
    package var readsRecordsAlone: Bool {
        (action == nil || action == .list) && filter.isLiteral && counts.allSatisfy(\.filter.isLiteral)
    }

    /// Whether a template of the effect (its record, defaults, key, changes or filters) holds `expression`.
    package func uses(_ expression: TemplateExpression) -> Bool {
        ([record, defaults, key].compactMap { $0 } + changes.map(\.value)).contains { $0.uses(expression) }
            || filter.uses(expression) || counts.contains { $0.filter.uses(expression) }
    }

    /// Where the effect was written, as text: its name in ``ListMemo`` keys.
    package let place: String

    package init(location: SourceLocation) {
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
    package enum Comparison: String, Sendable, CaseIterable {
        case equals, not, min, max
    }

    package struct Condition: Sendable {
        package var pointer: JSONPointer
        package var comparison: Comparison
        package var value: TemplatedJSON
    }

    package var conditions: [Condition] = []

    /// Whether no condition's value is a template.
    package var isLiteral: Bool {
        conditions.allSatisfy(\.value.isLiteral)
    }

    /// Whether a condition's value holds `expression`.
    package func uses(_ expression: TemplateExpression) -> Bool {
        conditions.contains { $0.value.uses(expression) }
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
    package var collection: String
    package var filter: RecordFilter
    package var atLeast: Int
}
