import AccordContract

/// The mocks format's mappings and their keys (docs/mocks.md, docs/flows.md): what the
/// loaders accept, and what `accord schema mocks` writes.
public enum MocksKeys {
    /// A fixtures file (`mocks/*.yaml`): endpoint id → its fixtures, tried in order.
    static let fixturesFile = KeyTable.Value.map(.list(.table(fixture.name)))

    public static let fixture = KeyTable("fixture", "One answer of an endpoint, and when it is given.", required: ["name"], [
        .init("name", .text, "The fixture's name (Prefer: example=NAME picks it)."),
        .init("description", .text, "Documentation, shown in the console."),
        .init("default", .boolean, "The answer when no other fixture's 'when' matches."),
        .init("priority", .integer, "Tried before fixtures of lower priority."),
        .init("when", .table(when.name), "What the request must hold for this answer."),
        .init("status", .integer, "The HTTP status (from the code table by default)."),
        .init("headers", .map(.scalar), "Headers of the answer."),
        .init("delay", .textOrNumber, "Wait before answering: 300ms, 2s."),
        .init("code", .either([.integer, .text]), "The business code (or its name); 0 by default."),
        .init("msg", .text, "The envelope's message."),
        .init("data", .anything, "The answer's data, with {{ }} templates."),
        .init("stream", .list(.table(streamEvent.name)), "The events of a streamed answer."),
        .init("effect", .either([.table(effect.name), .list(.table(effect.name))]), "What the request does to the session's collections."),
    ])

    public static let when = KeyTable("when", "The request parts a fixture matches on.", [
        .init("params", .map(.table("matcher")), "Path parameters."), .init("query", .map(.table("matcher")), "Query parameters."),
        .init("headers", .map(.table("matcher")), "Headers."), .init("body", .map(.table("matcher")), "Body members, by name or JSON pointer."),
        .init("state", .anything, "Records of a collection that must (or must not) exist."),
    ])

    public static let matcherForm = KeyTable("matcher-form", "A matcher with its kind.", [
        .init("equals", .anything, "The value, exactly."), .init("regex", .text, "A regular expression found in the value."),
        .init("present", .boolean, "Whether the part is there at all."),
    ])

    public static let streamEvent = KeyTable("stream-event", "One event of a streamed answer.", required: ["data"], [
        .init("data", .anything, "The event's data."), .init("delay", .textOrNumber, "Wait before it: 120ms."),
    ])

    public static let effect = KeyTable("effect", "One change or read of a collection (or a count into the answer).", [
        .init("insert", .text, "Put the request body as a record of this collection."),
        .init("update", .text, "Change the keyed record of this collection."),
        .init("delete", .text, "Remove the keyed record."),
        .init("read", .text, "Answer the keyed record."),
        .init("list", .text, "Answer a page of the records that pass the filters."),
        .init("record", .anything, "insert: members that win over the body's."),
        .init("defaults", .anything, "insert: members the body may leave out."),
        .init("key", .scalar, "The record's key, usually a template."),
        .init("where", .anything, "Members the record must have."),
        .init("set", .anything, "update: members to set."),
        .init("increment", .anything, "update: counters to add to."),
        .init("body", .words(["merge"]), "update: 'merge' patches the body's members in."),
        .init("missing", .either([.integer, .text]), "The code answered when no record has the key."),
        .init("filter", .anything, "list: query parameter → member filters."),
        .init("order", .anything, "list: the order of the page."),
        .init("page", .either([.words(Effect.Paging.Style.allCases.map(\.rawValue)), .table(page.name)]), "list: how the page is cut: a style, or {style, parameter, size}."),
        .init("items", .anything, "list: where the page goes in the answer and what it keeps."),
        .init("count", .anything, "Counts of records written into the answer."),
    ])

    public static let page = KeyTable("page", "How a list is paged.", required: ["style"], [
        .init("style", .words(Effect.Paging.Style.allCases.map(\.rawValue)), "How the page is cut."),
        .init("parameter", .text, "The query parameter of the cursor or offset."), .init("size", .text, "The query parameter of the page size."),
    ])

    public static let collection = KeyTable("collection", "A collection (mocks/collections/NAME.yaml): records the app writes, per session.",
                                            required: ["type", "key"], [
        .init("description", .text, "Documentation."), .init("type", .text, "The contract type of every record."),
        .init("key", .text, "The member that identifies a record."), .init("limit", .integer, "The most records a session keeps."),
        .init("seed", .list(.anything), "The records every session starts from."),
    ])

    public static let scenario = KeyTable("scenario", "A scenario (mocks/scenarios/NAME.yaml): answers given in order.", required: ["steps"], [
        .init("description", .text, "Documentation."), .init("steps", .list(.table(step.name)), "The steps, each taken by one request."),
    ])

    public static let step = KeyTable("step", "One step of a scenario.", required: ["endpoint"], [
        .init("endpoint", .text, "The endpoint (or pattern) whose next request takes the step."),
        .init("respond", .anything, "The answer: a code or its name, or {code, msg, data}, or a fault."),
        .init("fixture", .text, "Answer with this fixture instead."),
        .init("repeat", .boolean, "true: the step answers every later request too, never used up."),
    ])

    public static let tables = [fixture, when, matcherForm, streamEvent, effect, page, collection, scenario, step]

    /// The JSON Schema of a mocks file: a scenario (with 'steps'), a collection (with
    /// 'type' and 'key'), or fixtures by endpoint.
    public static var schema: JSONSchemaDocument {
        var document = JSONSchemaDocument(id: "https://accord.dev/schemas/mocks.schema.json", title: "Accord mocks file",
                                          description: "Fixtures by endpoint (mocks/*.yaml), a collection (mocks/collections/) or a scenario (mocks/scenarios/); docs/mocks.md.",
                                          tables: tables, root: [("steps", scenario.name), ("key", collection.name)], fallback: "fixtures-file")
        document.definitions = [
            ("fixtures-file", document.schema(of: fixturesFile)),
            ("matcher", JSONSchemaDocument.choice([(.object([.init("type", .string("object"))]), JSONSchemaDocument.reference(to: matcherForm.name)),
                                                   (nil, document.schema(of: .scalar))])),
        ]
        return document
    }
}
