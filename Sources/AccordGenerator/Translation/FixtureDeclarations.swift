import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordMocksFormat
import AccordSync

/// The fixtures as declarations: typed Swift values built with the models' memberwise
/// initializers (no JSON decoded at run time, so the compiler checks them and a SwiftUI
/// preview needs no I/O: `API.signal.fixtures.inbox.firstPage`), the typed name of every
/// answer a test can pick, the catalog, and the in-process mock's routes.
struct FixtureDeclarations: Sendable {
    /// A success fixture that fits its response, as Swift.
    struct Value: Sendable {
        /// The endpoint's id.
        var endpoint: String
        var sample: FixtureSample
        /// Its property in the endpoint's fixtures struct (`firstPage`).
        var property: String
        var type: String
        var value: String
        /// `API.signal.fixtures.inbox.firstPage`
        var accessor: String
        /// `example in signal.yaml`: where it is written, by file and never by line, so
        /// editing a file moves no generated text.
        var origin: String
    }

    /// The typed name of one answer (``FixtureName``).
    struct Name: Sendable {
        var property: String
        var sample: FixtureSample
        /// Where the answer is written (``Value/origin``).
        var origin: String
    }

    /// One endpoint's fixtures: `API.signal.fixtures.inbox`.
    struct Endpoint: Sendable {
        var id: String
        /// The property on the domain's fixtures (escaped where it is a keyword).
        var property: String
        /// `InboxFixtures`.
        var holder: String
        var values: [Value]
        /// `names`, or `answerNames` where a fixture is called `names`.
        var namesProperty: String
        var names: [Name]
        var responseType: String
    }

    /// One domain's fixtures file, with the endpoints that have an answer to name.
    struct Domain: Sendable {
        var name: String
        /// `Signal`: `SignalEndpoints`, `SignalFixtures`.
        var typeName: String
        /// The contract file it comes from, without directories.
        var sourceFile: String
        var endpoints: [Endpoint]
    }

    /// An answer of the in-process mock: a refusal's code, or a typed fixture.
    struct Answer: Sendable {
        enum Outcome: Sendable {
            case refusal(code: Int, message: String?)
            case value(accessor: String)
        }

        var name: String
        var role: FixtureSample.Role
        var matchers: [Matcher]
        var outcome: Outcome
    }

    /// An endpoint of the in-process mock, with its answers in the server's order.
    struct Route: Sendable {
        var id: String
        var method: String
        var path: String
        var requiresAuth: Bool
        /// The Swift type of the JSON it answers with; nil where it answers bytes.
        var responseType: String?
        var answers: [Answer]
    }

    /// The domains with fixtures; none when generating without them.
    var domains: [Domain]
    /// Every typed value, by endpoint in the contract's order.
    var values: [Value]
    var routes: [Route]
    /// A warning at every success fixture whose data does not fit its response.
    var diagnostics: [Diagnostic]

    /// `samples` are the fixtures of each endpoint in the server's order; `responseTypes`
    /// the endpoints' response types by id, which their fixture names carry.
    init(contract: Contract, samples: [String: [FixtureSample]], responseTypes: [String: String], translator: TypeTranslator) {
        let writer = SwiftValueWriter(contract: contract, translator: translator)
        let naming = writer.naming
        let domainFiles = Set(contract.domains.map(\.file))
        @Sendable func origin(of sample: FixtureSample) -> String {
            "\(domainFiles.contains(sample.location.file) ? "example" : "fixture") in \(TypeTranslator.fileName(sample.location.file))"
        }
        // Each endpoint's fixtures typed on their own, on every core.
        let perEndpoint = contract.endpoints.concurrentMap { endpoint -> (fixtures: Endpoint?, route: Route, diagnostics: [Diagnostic]) in
            let function = Naming.bare(naming.endpointFunction(endpoint.id, domain: endpoint.domain))
            let answers = samples[endpoint.id] ?? []
            let successes = answers.filter { $0.code == 0 }
            var values: [Value] = []
            var diagnostics: [Diagnostic] = []
            for (sample, name) in zip(successes, naming.caseNames(successes.map(\.name))) {
                guard let (type, value) = writer.typedValue(sample.data, schema: endpoint.response, suggested: naming.endpointType(endpoint.id) + "Response") else {
                    diagnostics.append(.warning("fixture '\(sample.name)' of '\(endpoint.id)' is not typed: its data does not fit the response",
                                                at: sample.location))
                    continue
                }
                let accessor = "API.\(naming.domainProperty(endpoint.domain)).fixtures.\(function).\(Naming.bare(name.name))"
                values.append(Value(endpoint: endpoint.id, sample: sample, property: name.name, type: type, value: value, accessor: accessor, origin: origin(of: sample)))
            }
            // What a test can name: every refusal, and every success that is typed.
            let typedByName = Dictionary(values.map { ($0.sample.name, $0) }, uniquingKeysWith: { first, _ in first })
            let selectable = answers.filter { $0.code != 0 || typedByName[$0.name] != nil }
            let names = zip(selectable, naming.caseNames(selectable.map(\.name))).map { Name(property: $1.name, sample: $0, origin: origin(of: $0)) }
            let fixtures = selectable.isEmpty ? nil : Endpoint(
                id: endpoint.id, property: Naming.escaped(function), holder: naming.type(function) + "Fixtures", values: values,
                namesProperty: values.contains { Naming.bare($0.property) == "names" } ? "answerNames" : "names", names: names,
                responseType: responseTypes[endpoint.id] ?? "AccordEmpty")
            let routeAnswers = answers.compactMap { sample -> Answer? in
                let outcome: Answer.Outcome
                if sample.code != 0 {
                    outcome = .refusal(code: sample.code, message: sample.message)
                } else if let value = typedByName[sample.name] {
                    outcome = .value(accessor: value.accessor)
                } else {
                    return nil
                }
                return Answer(name: sample.name, role: sample.role, matchers: sample.matchers, outcome: outcome)
            }
            let route = Route(id: endpoint.id, method: endpoint.method.rawValue.lowercased(), path: endpoint.path.description,
                              requiresAuth: endpoint.requiresAuth,
                              responseType: endpoint.binary == nil ? responseTypes[endpoint.id] ?? "AccordEmpty" : nil, answers: routeAnswers)
            return (fixtures, route, diagnostics)
        }
        domains = contract.domains.compactMap { domain in
            let endpoints = zip(contract.endpoints, perEndpoint).filter { $0.0.domain == domain.name }.compactMap(\.1.fixtures)
            guard !endpoints.isEmpty else { return nil }
            return Domain(name: domain.name, typeName: naming.domainType(domain.name), sourceFile: TypeTranslator.fileName(domain.file), endpoints: endpoints)
        }
        values = perEndpoint.flatMap { $0.fixtures?.values ?? [] }
        routes = perEndpoint.map(\.route)
        diagnostics = perEndpoint.flatMap(\.diagnostics)
    }
}
