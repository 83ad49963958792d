import AccordDiagnostics
import AccordImport
import Foundation
import Testing

/// Documents made to hurt: each is refused or imported with diagnostics that say where, never a crash or a hang.
@Suite struct HostileDocumentTests {
    private func messages(_ text: String, path: String = "doc/openapi.yaml") -> [String] {
        OpenAPIImport().run(document: Array(text.utf8), path: path).diagnostics.map(\.description)
    }

    @Test func aDocumentThatIsNotOpenAPIIsRefusedWithItsPosition() {
        #expect(messages("title: a list\nitems: [1, 2]\n") == ["doc/openapi.yaml:1:1: error: [not-openapi] no 'openapi' version: this is not an OpenAPI document (#)"])
        #expect(messages("- a\n- b\n") == ["doc/openapi.yaml:1:1: error: [not-openapi] an OpenAPI document is a mapping with 'openapi', 'info' and 'paths' (#)"])
        #expect(messages("openapi: 2.5.0\n") == ["doc/openapi.yaml:1:10: error: [version-unsupported] OpenAPI 2.5.0 is not read; the import reads 3.0.x, 3.1.x and 3.2.x (#/openapi)"])
        #expect(messages("") == ["doc/openapi.yaml:1:1: error: [empty-file] 'doc/openapi.yaml' holds no document"])
    }

    @Test func brokenYAMLAndJSONAreRefusedWithTheParsersPosition() {
        #expect(messages("openapi: 3.1.0\npaths: {a: [\n") == ["doc/openapi.yaml:3:1: error: [not-yaml] did not find expected node content (while parsing a flow node started at 3:1)"])
        #expect(messages("{\"openapi\": \"3.1.0\",}", path: "doc/openapi.json").first?.hasPrefix("doc/openapi.json:1:21: error: [not-json] ") == true)
    }

    /// A billion laughs: aliases that would expand to billions of nodes are refused by the YAML parser's limits, quickly.
    @Test func aYAMLBombIsRefusedBeforeItExpands() {
        var text = "openapi: 3.1.0\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 { text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let result = OpenAPIImport().run(document: Array(text.utf8), path: "bomb.yaml")
        #expect(result.files.isEmpty)
        #expect(result.diagnostics.count == 1 && result.diagnostics[0].message.hasPrefix("[not-yaml] "), "\(result.diagnostics)")
    }

    @Test func nestingTooDeepIsRefused() {
        let text = "openapi: 3.1.0\npaths: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "\n"
        let result = OpenAPIImport().run(document: Array(text.utf8), path: "deep.yaml")
        #expect(result.diagnostics.first?.message.hasPrefix("[not-yaml] ") == true)
    }

    /// A 50 MB document is larger than the 32 MiB a file may be: refused by its size, without parsing it.
    @Test func aFiftyMegabyteDocumentIsRefusedByItsSize() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("accord-large-\(UUID().uuidString).yaml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes = Array("openapi: 3.1.0\ninfo: {title: big, version: '1'}\nx-padding: '".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: 50_000_000)
        bytes += Array("'\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = OpenAPIImport().run(path: path)
        #expect(result.diagnostics.map(\.description) == ["\(path):1:1: error: [file-too-large] '\(path)' is larger than 32 MiB, the most the importer reads"])
    }

    /// `$ref`s that point at each other, at themselves, or through a chain longer than any real one end with a diagnostic.
    @Test func referenceCyclesEnd() {
        let text = """
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths:
              /a:
                get:
                  operationId: a
                  responses:
                    '200': {$ref: '#/components/responses/One'}
            components:
              responses:
                One: {$ref: '#/components/responses/Two'}
                Two: {$ref: '#/components/responses/One'}
              schemas:
                Self: {$ref: '#/components/schemas/Self'}
            """
        let diagnostics = messages(text)
        #expect(diagnostics.contains { $0.contains("error: [ref-cycle] '$ref' chain at #/paths/~1a/get/responses/200 never reaches a value") }, "\(diagnostics)")
    }

    /// Every parameter a path names, whatever characters the document puts in its names and values, gives a route the contract reads.
    @Test func hostileNamesBecomeNamesTheContractTakes() {
        let text = """
            openapi: 3.1.0
            info: {title: "🙂 ü", version: '1'}
            paths:
              "/ä/{id ü}/{x-y}":
                get:
                  operationId: "get.ä ü/../x"
                  tags: ["Ü ber alles!"]
                  parameters:
                    - {name: "id ü", in: path, required: true, schema: {type: string}}
                    - {name: "x-y", in: path, required: true, schema: {type: string}}
                  responses:
                    '200':
                      description: ok
                      content: {application/json: {schema: {type: object, properties: {"a b": {type: string}, "Error": {type: string}}}}}
            """
        let result = OpenAPIImport().run(document: Array(text.utf8), path: "names.yaml")
        #expect(!result.diagnostics.containsErrors, "\(result.diagnostics)")
        let domain = result.files.first { $0.path != "contracts/service.yaml" }
        #expect(domain?.text.contains("GET /ä/{id__}/{x_y}") == true, "\(domain?.text ?? "")")
    }
}
