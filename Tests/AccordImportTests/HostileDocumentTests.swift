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

    /// A document that joins more than 1,000 files (here a schema with 1,001 members, each in a file of its own) stops reading at the limit.
    @Test func aDocumentOfTooManyFilesStopsAtTheLimit() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        for index in 0..<1_001 {
            try "type: string\n".write(to: directory.appendingPathComponent("f\(index).yaml"), atomically: true, encoding: .utf8)
        }
        let members = (0..<1_001).map { "          m\($0): {$ref: 'f\($0).yaml'}" }.joined(separator: "\n")
        try document(schema: "        type: object\n        properties:\n" + members).write(to: directory.appendingPathComponent("openapi.yaml"),
                                                                                         atomically: true, encoding: .utf8)
        let result = OpenAPIImport().run(path: directory.appendingPathComponent("openapi.yaml").path)
        let refused = result.diagnostics.filter { $0.message.hasPrefix("[too-many-files] the document joins more than 1000 files") }
        #expect(refused.count == 2, "\(result.diagnostics.prefix(3))")
    }

    /// Schemas nested through a chain of 500 files end with a diagnostic at the depth limit, not a stack overflow.
    @Test func schemasNestedTooDeepAreCut() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        for index in 0..<500 {
            try "type: object\nproperties:\n  next: {$ref: 'f\(index + 1).yaml'}\n".write(to: directory.appendingPathComponent("f\(index).yaml"),
                                                                                              atomically: true, encoding: .utf8)
        }
        try document(schema: "        $ref: 'f0.yaml'").write(to: directory.appendingPathComponent("openapi.yaml"), atomically: true, encoding: .utf8)
        let result = OpenAPIImport().run(path: directory.appendingPathComponent("openapi.yaml").path)
        #expect(result.diagnostics.map(\.message).filter { $0.hasPrefix("[schema-too-deep]") }
                    == ["[schema-too-deep] schemas nest more than 100 deep here; imported as 'any' (#/properties/next)"])
    }

    private func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A document with one operation answering `schema` (indented under `schema:`).
    private func document(schema: String) -> String {
        """
        openapi: 3.1.0
        info: {title: t, version: '1'}
        paths:
          /a:
            get:
              operationId: a
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema:
        \(schema.split(separator: "\n").map { "          " + $0 }.joined(separator: "\n"))
        """
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
