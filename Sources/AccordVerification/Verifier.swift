import AccordContract
import AccordHTTPClient
import AccordJSON
import AccordReport
import AccordSync
import AccordValidation
import Dispatch
import Foundation

/// Provider verification: the contract's examples sent to a real backend, signed and
/// signed in, each answer held to the contract; then the negative checks the contract
/// promises (a tampered signature, a replayed nonce, a stale timestamp, a garbage
/// token, an invalid body), each expecting its business code.
public struct Verifier: Sendable {
    /// How to reach and drive the backend.
    public struct Settings: Sendable {
        /// The service's base URL, such as `https://staging.example.com/api/v1`.
        public var baseURL: String
        /// Endpoint ids or `prefix.*` patterns to check (all when empty).
        public var only: [String] = []
        public var skip: [String] = []
        public var concurrency = 4
        /// Whether endpoints that write (POST, PUT, PATCH, DELETE) are called.
        public var allowsWrites = false
        /// How often a request is sent again after a connection error.
        public var retries = 2
        /// Values of service-wide headers the contract gives no default for.
        public var headers: [String: String] = [:]
        public var appKey: String?
        public var appSecret: String?
        public var client = HTTPClient.Configuration()

        public init(baseURL: String) {
            self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        }
    }

    /// Why verification cannot start.
    public struct SetupError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public let contract: Contract
    public let settings: Settings
    let requests: RequestBuilder
    private let responses: ResponseChecker
    let flows: FlowCodes

    public init(contract: Contract, settings: Settings) throws(SetupError) {
        self.contract = contract
        self.settings = settings
        requests = try RequestBuilder(contract: contract, settings: settings)
        responses = ResponseChecker(contract: contract)
        flows = FlowCodes(service: contract.service)
    }

    /// The endpoints selected by `only` and `skip`.
    public var selected: [Endpoint] {
        contract.endpoints.filter { endpoint in
            (settings.only.isEmpty || settings.only.contains { EndpointPattern.matches($0, endpoint.id) })
                && !settings.skip.contains { EndpointPattern.matches($0, endpoint.id) }
        }
    }

    /// The backend gave no answer at all to the first request (it refuses connections,
    /// or hangs past the deadline): nothing else is tried.
    public struct Unreachable: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Runs every check; `progress` hears of each as it ends (from several threads, one at a time).
    public func run(progress: @escaping @Sendable (VerificationCheck) -> Void = { _ in }) throws(Unreachable) -> [VerificationCheck] {
        let results = Locked<[VerificationCheck]>([])
        let report = { @Sendable (check: VerificationCheck) in
            results.withLock { $0.append(check) }
            progress(check)
        }
        let auth = contract.service.auth
        let session = try login(report: report)
        // Refresh and logout change the session: they run after everything else.
        let last = [auth.refreshEndpoint] + (auth.logoutEndpoint.map { [$0] } ?? [])
        let plain = selected.filter { !auth.loginEndpoints.contains($0.id) && !last.contains($0.id) }
        // A DELETE's example usually removes what another endpoint's example made (unblock
        // what block blocked): the deletions run once every other check has ended.
        checkConcurrently(plain.filter { $0.method != .delete }, session: session, report: report)
        checkConcurrently(plain.filter { $0.method == .delete }, session: session, report: report)
        if let client = try? HTTPClient(configuration: settings.client) {
            for check in negativeChecks(session: session, client: client) { report(check) }
            // A refresh rotates the tokens: the logout after it signs out with the new ones.
            var current = session
            for endpoint in selected where last.contains(endpoint.id) {
                for (check, envelope) in checkExamples(of: endpoint, session: current, client: client) {
                    report(check)
                    if endpoint.id == auth.refreshEndpoint, case .passed = check.outcome, let data = contract.service.data(of: envelope) {
                        current.accessToken = Self.string(named: "access_token", in: data) ?? current.accessToken
                        current.refreshToken = Self.string(named: "refresh_token", in: data) ?? current.refreshToken
                    }
                }
            }
        }
        return results.withLock { $0 }
    }

    /// Checks the examples of `endpoints` on up to ``Settings/concurrency`` connections at once.
    private func checkConcurrently(_ endpoints: [Endpoint], session: Session, report: @escaping @Sendable (VerificationCheck) -> Void) {
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: max(1, min(settings.concurrency, endpoints.count))) { _ in
            guard let client = try? HTTPClient(configuration: settings.client) else { return }
            while true {
                let index = next.withLock { index -> Int in defer { index += 1 }; return index }
                guard index < endpoints.count else { return }
                for (check, _) in checkExamples(of: endpoints[index], session: session, client: client) { report(check) }
            }
        }
    }

    /// The run as observations for a ``ContractReport``.
    public static func observations(of checks: [VerificationCheck], contract: Contract) -> Observations {
        let observations = Observations()
        let endpoints = Dictionary(contract.endpoints.map { ($0.id, $0) }) { first, _ in first }
        for check in checks {
            if case .skipped = check.outcome { continue }
            let endpoint = endpoints[check.endpoint]
            var observation = Observation(endpoint: check.endpoint, method: endpoint?.method.rawValue ?? "", path: endpoint?.path.description ?? "",
                                          answer: check.name, code: check.code)
            if case .failed(let problems) = check.outcome {
                observation.failures = problems.map { problem in
                    Observation.Failure(side: .response, kind: check.name, message: problem,
                                        details: .object([.init("check", .string(check.name)), .init("status", check.status.map { .int($0) } ?? .null)]))
                }
            }
            observations.record(observation)
        }
        return observations
    }

    // MARK: Sessions

    /// The tokens a login gave.
    struct Session: Sendable {
        var accessToken: String?
        var refreshToken: String?
        var failure: String?
    }

    private func login(report: @Sendable (VerificationCheck) -> Void) throws(Unreachable) -> Session {
        // No tokens to get: none needed, an API key (sent with every request), or bearer tokens issued elsewhere.
        guard contract.service.auth.usesTokens, !contract.service.auth.loginEndpoints.isEmpty else { return Session() }
        guard let client = try? HTTPClient(configuration: settings.client) else { return Session(failure: "libcurl could not start") }
        let logins = contract.service.auth.loginEndpoints.compactMap { contract.endpoint($0) }
        guard let endpoint = logins.first(where: { $0.examples.contains { $0.code == 0 && $0.body != nil } }) else {
            return Session(failure: "no login endpoint has a success example to sign in with")
        }
        let example = endpoint.examples.first { $0.code == 0 && $0.body != nil }!
        let (check, envelope, failure) = send(example, of: endpoint, session: Session(), client: client)
        if let failure, failure.kind == .connection || failure.kind == .timeout {
            throw Unreachable(description: "cannot reach the backend: \(failure)")
        }
        report(check)
        // An answer that drifts from the contract (a profile member missing) is reported
        // above; the checks after it go on with the token it gave all the same.
        guard let data = contract.service.data(of: envelope), check.outcome == .passed || Self.string(named: "access_token", in: data) != nil else {
            return Session(failure: "signing in through '\(endpoint.id)' failed")
        }
        return Session(accessToken: Self.string(named: "access_token", in: data), refreshToken: Self.string(named: "refresh_token", in: data))
    }

    /// The first string member called `name`, at any depth.
    private static func string(named name: String, in value: JSONValue) -> String? {
        switch value {
        case .object(let members):
            if case .string(let text)? = members.first(where: { $0.key == name })?.value { return text }
            return members.lazy.compactMap { string(named: name, in: $0.value) }.first
        case .array(let items): return items.lazy.compactMap { string(named: name, in: $0) }.first
        default: return nil
        }
    }

    // MARK: Examples

    /// Each success example's check, with the envelope answered.
    private func checkExamples(of endpoint: Endpoint, session: Session, client: HTTPClient) -> [(VerificationCheck, JSONValue?)] {
        let examples = endpoint.examples.filter { $0.code == 0 }
        if let types = endpoint.binary {
            // Its example names a file the backend may not hold; verify sends no upload first.
            return [(VerificationCheck(endpoint: endpoint.id, name: "examples",
                                       outcome: .skipped("answers bytes (\(types.joined(separator: ", "))) of a file the backend holds")), nil)]
        }
        if endpoint.method != .get && !settings.allowsWrites && !contract.service.auth.loginEndpoints.contains(endpoint.id) {
            return [(VerificationCheck(endpoint: endpoint.id, name: "examples", outcome: .skipped("writes (\(endpoint.method.rawValue)); --allow-writes runs it")), nil)]
        }
        if endpoint.requiresAuth, let failure = session.failure {
            return [(VerificationCheck(endpoint: endpoint.id, name: "examples", outcome: .failed(["not signed in: \(failure)"])), nil)]
        }
        guard !examples.isEmpty else {
            return [(VerificationCheck(endpoint: endpoint.id, name: "examples", outcome: .skipped("no success example to send")), nil)]
        }
        return examples.map { example in
            let (check, envelope, _) = send(example, of: endpoint, session: session, client: client)
            return (check, envelope)
        }
    }

    /// Sends one example and holds the answer to the contract and to the example's code.
    private func send(_ example: Endpoint.Example, of endpoint: Endpoint, session: Session, client: HTTPClient)
        -> (check: VerificationCheck, envelope: JSONValue?, failure: HTTPClient.Failure?) {
        let name = "example '\(example.name)'"
        let request = requests.request(for: example, of: endpoint, session: session)
        let response: HTTPClient.Response
        do {
            response = try deliver(request, client: client)
        } catch {
            return (VerificationCheck(endpoint: endpoint.id, name: name, outcome: .failed(["no answer: \(error)"])), nil, error)
        }
        var problems = responses.check(endpoint: endpoint, status: response.status, contentType: response.header("content-type"), body: response.body)
            .map { violation in violation.pointer.isEmpty ? violation.message : "\(violation.pointer): \(violation.message)" }
        let envelope = try? JSONReader.read(response.body)
        let code = contract.service.code(of: envelope, status: response.status)
        if let code, code != example.code {
            let named = contract.service.code(code).map { " (\($0.name))" } ?? ""
            let message = contract.service.message(of: envelope).map { ": \($0)" } ?? ""
            problems.insert("expected code \(example.code) as the example says, answered \(code)\(named)\(message)", at: 0)
        }
        return (VerificationCheck(endpoint: endpoint.id, name: name, outcome: problems.isEmpty ? .passed : .failed(problems),
                                  status: response.status, code: code), envelope, nil)
    }

    /// Sends `request`, again after a connection error, up to ``Settings/retries`` times.
    func deliver(_ request: HTTPClient.Request, client: HTTPClient) throws(HTTPClient.Failure) -> HTTPClient.Response {
        var attempt = 0
        while true {
            do {
                return try client.send(request)
            } catch where error.kind == .connection && attempt < settings.retries {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.25 * Double(attempt))
            }
        }
    }
}

extension HTTPClient.Request {
    mutating func replaceHeader(_ name: String, _ change: (String) -> String) {
        guard let index = headers.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else { return }
        headers[index].value = change(headers[index].value)
    }
}
