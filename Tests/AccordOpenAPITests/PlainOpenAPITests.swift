import AccordContract
import AccordJSON
import AccordOpenAPI
import AccordTesting
import Testing

/// The OpenAPI export of a plain REST API (`Tests/Projects/plain`): answers as their
/// types, errors as problem bodies by status, the credential as a security scheme and
/// no signing headers. (scripts/schemathesis/run validates it with openapi-spec-validator.)
@Suite struct PlainOpenAPITests {
    static func document(auth: String? = nil, codes: String? = nil) throws -> JSONValue {
        let directory = try codes.map { try Repository.plainContracts(auth: auth, codes: $0) } ?? Repository.plainContracts
        let contract = try #require(ContractLoader().load(directory: directory).contract)
        return OpenAPIDocument(contract: contract).json
    }

    @Test func answersAreTheirTypesAndErrorsProblemsByStatus() throws {
        let json = try Self.document()
        let create = try #require(json.value(at: "/paths/~1notes/post"))
        #expect(create.value(at: "/responses/200/content/application~1json/schema/$ref") == .string("#/components/schemas/Note"))
        #expect(create.value(at: "/responses/200/content/application~1json/examples/default/value/id") == .string("n_2"))
        #expect(create.value(at: "/responses/422/content/application~1problem+json/schema/$ref") == .string("#/components/schemas/Problem"))
        #expect(create.value(at: "/responses/403/content/application~1problem+json/schema/$ref") == .string("#/components/schemas/BanProblem"))
        #expect(create.value(at: "/responses/401/description")
            == .string("token-expired (refresh-and-retry); refresh-invalid (logout); force-logout (logout)"))
        #expect(create.value(at: "/security/0/bearerAuth") == .array([]))
        #expect(json.value(at: "/components/parameters") == .object([]), "no signing headers")
        #expect(json.value(at: "/paths/~1status/get/security") == .array([]))
    }

    @Test func anAPIKeyIsASecurityScheme() throws {
        let json = try Self.document(auth: "  api_key: {query: api_key, keys: [k]}", codes: "  401: {name: unauthorized}\n  403: {name: banned, data: BanProblem}\n  404: {name: not-found}\n  429: {name: quota}")
        #expect(json.value(at: "/components/securitySchemes") == .object([
            .init("apiKey", .object([.init("type", .string("apiKey")), .init("in", .string("query")), .init("name", .string("api_key")),
                                     .init("description", .string("One of the keys the contract declares, in the query `api_key`."))])),
        ]))
        #expect(json.value(at: "/paths/~1notes/get/security/0/apiKey") == .array([]))
        let none = try Self.document(auth: nil, codes: "  401: {name: unauthorized}\n  403: {name: banned, data: BanProblem}\n  404: {name: not-found}\n  429: {name: quota}")
        #expect(none.value(at: "/components/securitySchemes") == nil)
        #expect(none.value(at: "/paths/~1notes/get/security") == .array([]))
    }
}
