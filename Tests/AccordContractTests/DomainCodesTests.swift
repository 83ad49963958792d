import AccordContract
import Testing

/// A domain file may keep its own codes, so that teams adding domains do not all edit
/// the service file: they join the service's table in the form the service uses.
@Suite struct DomainCodesTests {
    private static func load(_ files: [(String, String)]) -> ContractLoader.Outcome {
        ContractLoader().load(files.map { .init(path: $0.0, bytes: Array($0.1.utf8)) }, directory: "contracts")
    }

    private static let comments = """
        domain: comments
        codes:
          4001: {name: comment-too-long, msg: a comment is at most 200 characters, http: 422}
        endpoints:
          comments.add:
            route: POST /comments
            body: {text: string}
            response: {id: string}
            codes: [4001]
        """

    @Test func anEnvelopedServiceTakesADomainsBusinessCodes() throws {
        let service = """
            service: {name: notes, base_path: /api}
            codes:
              1000: {name: invalid-request, msg: bad request, http: 400}
            """
        let outcome = Self.load([("comments.yaml", Self.comments), ("service.yaml", service)])
        #expect(outcome.diagnostics.map(\.description) == [])
        let code = try #require(outcome.contract?.service.code(4001))
        #expect((code.name, code.message, code.httpStatus) == ("comment-too-long", "a comment is at most 200 characters", 422))
        #expect(code.location.description == "comments.yaml:3:3")
    }

    @Test func aPlainServiceTakesADomainsStatusesToldApartByWhen() throws {
        let service = """
            service: {name: notes, base_path: /api, envelope: none}
            errors: {body: Problem}
            codes:
              422: {name: invalid-request, when: {type: invalid}}
            types:
              Problem: {fields: {type: string}}
            """
        let domain = """
            domain: comments
            codes:
              422:
                - {name: comment-too-long, when: {type: too-long}}
                - {name: comment-empty, when: {type: invalid}}
            endpoints:
              comments.add: {route: POST /comments, body: {text: string}, response: {id: string}, codes: [422]}
            """
        let outcome = Self.load([("comments.yaml", domain), ("service.yaml", service)])
        #expect(outcome.diagnostics.map(\.description) == [
            "comments.yaml:5:7: error: code 422 ('comment-empty') is declared at service.yaml:4:3 too ('invalid-request'); a code means one thing in the whole service",
        ])
        #expect(outcome.contract?.service.codes.map(\.name) == ["invalid-request", "comment-too-long"])
    }
}
