import AccordTesting
import Foundation
import Testing

/// An OpenAPI document imported by the real `accord` and served by it on loopback: the mock answers each
/// operation that has an example with that example, and holds requests to the constraints the document wrote.
@Suite(.serialized) struct ImportEndToEndTests {
    static let accord = ServerProcess.executable.path
    static let corpus = Repository.root.appendingPathComponent("Tests/AccordImportTests/Corpus").path

    /// The document imported into a fresh directory, served.
    private func served(_ name: String) throws -> (ServerProcess, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-import-e2e-\(UUID().uuidString)").path
        let imported = try ExternalCommand.run(Self.accord, ["import", "openapi", Self.corpus + "/\(name)/openapi.yaml", "--output", directory])
        #expect(imported.status == 0, "\(imported.errors)")
        try FileManager.default.createDirectory(atPath: directory + "/mocks", withIntermediateDirectories: true)
        return (try ServerProcess(arguments: ["--quiet"], mocks: directory + "/mocks", contracts: directory + "/contracts"), directory)
    }

    private func exchange(_ server: ServerProcess, _ request: String, body: String = "") throws -> String {
        let connection = try RawConnection(port: server.port)
        let framing = body.isEmpty ? "" : "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        connection.send(request + "\r\nHost: x\r\nConnection: close\r\n" + framing + "\r\n" + body)
        return connection.receiveResponse()
    }

    @Test func theMockAnswersTheDocumentsExamplesAndItsErrorExamplesByName() throws {
        let (server, directory) = try served("examples")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let note = try exchange(server, "GET /notes/n_9 HTTP/1.1")
        #expect(note.hasPrefix("HTTP/1.1 200"))
        #expect(note.hasSuffix(#"{"id":"n_1","title":"Groceries"}"#), "\(note)")
        let created = try exchange(server, "POST /notes HTTP/1.1", body: #"{"title":"Groceries"}"#)
        #expect(created.hasSuffix(#"{"id":"n_1","title":"Groceries"}"#), "\(created)")
        let taken = try exchange(server, "POST /notes HTTP/1.1\r\nPrefer: example=taken", body: #"{"title":"Groceries"}"#)
        #expect(taken.hasPrefix("HTTP/1.1 409"), "\(taken)")
        #expect(taken.hasSuffix(#"{"detail":"title taken"}"#), "\(taken)")
        let missing = try exchange(server, "POST /notes HTTP/1.1\r\nPrefer: example=404", body: #"{"title":"Groceries"}"#)
        #expect(missing.hasPrefix("HTTP/1.1 404"), "\(missing)")
    }

    @Test func theMockHoldsRequestsToTheImportedConstraints() throws {
        let (server, directory) = try served("examples")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let wrong = try exchange(server, "POST /notes HTTP/1.1", body: #"{"title":42}"#)
        #expect(wrong.hasPrefix("HTTP/1.1 400"), "\(wrong)")
        #expect(wrong.contains(#""pointer":"/body/title","expected":"string","actual":"an integer 42""#), "\(wrong)")
    }

    /// Bounds, integer path parameters and a literal route beside a template, as the operations document writes them.
    @Test func routesAndParametersKeepTheirRules() throws {
        let (server, directory) = try served("operations")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let tooMany = try exchange(server, "GET /v1/pets?limit=500&status=sold HTTP/1.1")
        #expect(tooMany.hasPrefix("HTTP/1.1 400"), "\(tooMany)")
        #expect(tooMany.contains(#""pointer":"/query/limit""#), "\(tooMany)")
        let mine = try exchange(server, "GET /v1/pets/mine HTTP/1.1")
        #expect(mine.hasPrefix("HTTP/1.1 200"), "\(mine)")
        #expect(mine.hasSuffix("]"), "the literal route /pets/mine answers its list, not /pets/{pet_id}'s pet: \(mine)")
        let notANumber = try exchange(server, "GET /v1/pets/abc HTTP/1.1")
        #expect(notANumber.hasPrefix("HTTP/1.1 400"), "\(notANumber)")
        let pet = try exchange(server, "GET /v1/pets/7 HTTP/1.1")
        #expect(pet.hasPrefix("HTTP/1.1 200") && pet.hasSuffix("}"), "\(pet)")
    }
}
