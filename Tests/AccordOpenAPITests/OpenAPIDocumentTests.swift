import AccordContract
import AccordJSON
import AccordOpenAPI
import AccordTesting
import AccordYAML
import Testing

/// The OpenAPI export of the repository's contracts: its shape, its references, and
/// the YAML form reading back as the same tree. (openapi-spec-validator and
/// Schemathesis check it against the specification in scripts/schemathesis/run.)
@Suite struct OpenAPIDocumentTests {
    let document = OpenAPIDocument(contract: Repository.contract)

    @Test func everyEndpointIsAnOperationWithTheEnvelopeFolded() throws {
        let json = document.json
        #expect(json["openapi"] == .string("3.1.0"))
        var operations: [String] = []
        if case .object(let paths)? = json["paths"] {
            for path in paths {
                guard case .object(let methods) = path.value else { continue }
                for method in methods { if case .string(let id)? = method.value["operationId"] { operations.append(id) } }
            }
        }
        #expect(operations.sorted() == Repository.contract.endpoints.map(\.id).sorted())
        let publish = try #require(json.value(at: "/paths/~1signals/post"))
        #expect(publish.value(at: "/responses/200/content/application~1json/schema/oneOf/0/properties/data/$ref")
            == .string("#/components/schemas/Signal"))
        #expect(publish.value(at: "/responses/200/content/application~1json/schema/oneOf/1/properties/code/enum")
            == .array([1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 3002, 3008].map { .int($0) }))
        #expect(publish.value(at: "/responses/400/content/application~1json/schema/properties/code/enum") == .array([.int(1000)]))
        #expect(publish.value(at: "/security/0/bearerAuth") == .array([]))
        #expect(publish.value(at: "/x-accord-codes/0/name") == .string("quota"))
        #expect(publish.value(at: "/x-accord-codes/0/flow") == .string("alert"))
        let startConfig = try #require(json.value(at: "/paths/~1app~1start-config/get"))
        guard case .array(let parameters)? = startConfig["parameters"] else { Issue.record("no parameters"); return }
        #expect(!parameters.contains { $0["$ref"] == .string("#/components/parameters/signing-X-Sign") }, "start-config is exempt from signing")
        #expect(startConfig["security"] == .array([]))
    }

    @Test func everyReferenceResolves() {
        let json = document.json
        var references: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let members):
                for member in members {
                    if member.key == "$ref", case .string(let target) = member.value { references.append(target) } else { collect(member.value) }
                }
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        collect(json)
        #expect(references.count > 100)
        for reference in Set(references) {
            #expect(json.value(at: String(reference.dropFirst())) != nil, "\(reference) does not resolve")
        }
    }

    @Test func optionalMembersAdmitNullAndObjectsAreClosed() throws {
        let signal = try #require(document.json.value(at: "/components/schemas/Signal"))
        #expect(signal["additionalProperties"] == .bool(false))
        guard case .object(let properties)? = signal["properties"], case .array(let required)? = signal["required"] else {
            Issue.record("Signal has no properties")
            return
        }
        for property in properties where !required.contains(.string(property.key)) {
            #expect(property.value.value(at: "/anyOf/1/type") == .string("null"), "\(property.key) is optional but refuses null")
        }
    }

    @Test func yamlReadsBackAsTheSameTree() throws {
        let yaml = try document.rendered(as: .yaml)
        let parsed = YAMLParser.parse(Array(yaml.utf8), file: "openapi.yaml")
        #expect(parsed.diagnostics.isEmpty)
        var reader = NodeReader(document: parsed)
        let root = try #require(parsed.root)
        #expect(reader.json(root).value == document.json)
    }

    @Test func stringsThatLookLikeOtherTypesAreQuoted() throws {
        let tree = JSONValue.object(["true", "1.0", "2026-11-30", "", "null", "-1", "plain", "多行\n文本"].map { .init($0, .string($0)) })
        let yaml = try YAMLEmitter.document(tree)
        let document = YAMLParser.parse(Array(yaml.utf8), file: "t.yaml")
        let parsed = try #require(document.root)
        var reader = NodeReader(document: document)
        guard case .object(let members) = reader.json(parsed).value else { Issue.record("not a mapping: \(yaml)"); return }
        for member in members { #expect(member.value == .string(member.key), "\(member.key) read back as \(member.value)") }
    }
}
