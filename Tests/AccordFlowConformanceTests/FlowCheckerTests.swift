import AccordContract
import AccordFlowConformance
import AccordJSON
import AccordTesting
import AccordValidation
import Testing

/// Each rule of the flows, held to a conforming sequence and a violating one that differ
/// in one request, over the repository's contract (1002 and 1005 refresh and retry, 1006
/// and 1007 log out, 1008 bans, 3008 alerts).
@Suite struct FlowCheckerTests {
    /// A request of session `s1` sent at `sent` ms and answered 5 ms later (the checker counts microseconds).
    static func call(_ sequence: Int, _ endpoint: String, _ path: String, at sent: Int64, token: String?, code: Int, method: String = "GET",
                     session: String = "s1") -> FlowObservation {
        FlowObservation(sequence: sequence, sent: sent * 1_000, answered: (sent + 5) * 1_000, session: session, endpoint: endpoint, method: method, path: path,
                        token: token, code: code)
    }

    static func inbox(_ sequence: Int, at sent: Int64, token: String?, code: Int) -> FlowObservation {
        call(sequence, "signal.inbox", "/api/v1/signals/inbox", at: sent, token: token, code: code)
    }

    static func refresh(_ sequence: Int, at sent: Int64, code: Int = 0) -> FlowObservation {
        call(sequence, "auth.refresh", "/api/v1/auth/token/refresh", at: sent, token: nil, code: code, method: "POST")
    }

    static func me(_ sequence: Int, at sent: Int64, token: String?, code: Int) -> FlowObservation {
        call(sequence, "user.me", "/api/v1/users/me", at: sent, token: token, code: code)
    }

    static func login(_ sequence: Int, at sent: Int64) -> FlowObservation {
        call(sequence, "auth.login-phone", "/api/v1/auth/login/phone", at: sent, token: nil, code: 0, method: "POST")
    }

    /// The violations of `observations`, described.
    static func violations(_ observations: [FlowObservation]) -> [String] {
        var checker = FlowChecker(rules: FlowRules(contract: Repository.contract))
        for observation in observations { checker.observe(observation) }
        checker.finish()
        return checker.violations.map(\.description)
    }

    @Test func refreshBeforeAnyRetry() {
        let met = Self.inbox(1, at: 0, token: "A", code: 1002)
        #expect(Self.violations([met, Self.refresh(2, at: 10), Self.inbox(3, at: 20, token: "B", code: 0)]) == [])
        #expect(Self.violations([met, Self.inbox(2, at: 10, token: "A", code: 1002), Self.refresh(3, at: 20), Self.inbox(4, at: 30, token: "B", code: 0)]) == [
            "signal.inbox: after 1002 at #1 the call was sent again at #2 before a refresh (refresh-and-retry: the refresh before any retry) in session s1",
        ])
    }

    @Test func noRequestWithTheOldTokenAfterTheRefresh() {
        let start = [Self.inbox(1, at: 0, token: "A", code: 1002), Self.refresh(2, at: 10)]
        #expect(Self.violations(start + [Self.inbox(3, at: 20, token: "B", code: 0)]) == [])
        #expect(Self.violations(start + [Self.inbox(3, at: 20, token: "A", code: 1005)]) == [
            "signal.inbox: after 1002 at #1 and the refresh at #2, #3 was sent with the old token (refresh-and-retry: no request with the old token after the refresh) in session s1",
        ])
    }

    @Test func oneRefreshForCallsThatMetTheCodeTogether() {
        let met = [Self.inbox(1, at: 0, token: "A", code: 1002), Self.me(2, at: 1, token: "A", code: 1002)]
        let retries = [Self.inbox(5, at: 40, token: "B", code: 0), Self.me(6, at: 41, token: "B", code: 0)]
        #expect(Self.violations(met + [Self.refresh(3, at: 10)] + retries) == [])
        // Each call refreshing for itself: the second refresh is sent while the first is in flight.
        var second = Self.refresh(4, at: 11)
        second.answered = 30_000
        #expect(Self.violations(met + [Self.refresh(3, at: 10), second] + retries) == [
            "signal.inbox: after 1002 at #1 a second refresh was sent at #4 (the first at #3) (refresh-and-retry: one refresh for the calls that met the code) in session s1",
        ])
    }

    @Test func theCallIsRetried() {
        let start = [Self.inbox(1, at: 0, token: "A", code: 1002), Self.refresh(2, at: 10)]
        #expect(Self.violations(start + [Self.inbox(3, at: 20, token: "B", code: 0)]) == [])
        #expect(Self.violations(start + [Self.me(3, at: 20, token: "B", code: 0)]) == [
            "signal.inbox: after 1002 at #1 the call was never retried (refresh-and-retry: the call retried once) in session s1",
        ])
    }

    @Test func noAuthenticatedCallAfterALogoutUntilANewLogin() {
        let ended = Self.me(1, at: 0, token: "A", code: 1006)
        #expect(Self.violations([ended, Self.login(2, at: 10), Self.me(3, at: 20, token: "C", code: 0)]) == [])
        #expect(Self.violations([ended, Self.me(2, at: 10, token: "A", code: 1006)]) == [
            "user.me: after 1006 at #1 #2 was sent with a token before a new login (logout: no authenticated call until a new login) in session s1",
        ])
        // Calls in flight when the 1006 came back met it too, and break nothing.
        #expect(Self.violations([ended, Self.inbox(2, at: 2, token: "A", code: 1006)]) == [])
    }

    @Test func aRefusedRefreshEndsTheSession() {
        let start = [Self.inbox(1, at: 0, token: "A", code: 1002), Self.refresh(2, at: 10, code: 1007)]
        #expect(Self.violations(start + [Self.login(3, at: 20), Self.inbox(4, at: 30, token: "C", code: 0)]) == [])
        #expect(Self.violations(start + [Self.inbox(3, at: 20, token: "A", code: 1006)]) == [
            "auth.refresh: after 1007 at #2 #3 was sent with a token before a new login (logout: a refused refresh ends the session) in session s1",
        ])
    }

    @Test func aBannedUserCallsOnlyTheLoginLogoutAndPublicEndpoints() {
        let ban = Self.me(1, at: 0, token: "A", code: 1008)
        let config = Self.call(2, "app.start-config", "/api/v1/app/start-config", at: 10, token: nil, code: 0)
        #expect(Self.violations([ban, config]) == [])
        #expect(Self.violations([ban, Self.me(2, at: 10, token: "A", code: 1008)]) == [
            "user.me: after 1008 at #1 #2 retried the call (ban: a banned call is not retried) in session s1",
        ])
        #expect(Self.violations([ban, Self.inbox(2, at: 10, token: "A", code: 1008)]) == [
            "user.me: after 1008 at #1 #2 called signal.inbox (ban: only the login, logout and public endpoints while banned) in session s1",
        ])
    }

    @Test func anAlertedCallIsNotRepeatedWithinTheWindow() {
        let quota = Self.call(1, "signal.publish", "/api/v1/signals", at: 0, token: "A", code: 3008, method: "POST")
        var later = quota
        (later.sequence, later.sent, later.answered) = (2, 2_100_000, 2_105_000)
        #expect(Self.violations([quota, later]) == [])
        (later.sent, later.answered) = (400_000, 405_000)
        #expect(Self.violations([quota, later]) == [
            "signal.publish: after 3008 at #1 the call was sent again at #2, 395 ms later (alert: the same call not sent again within the alert window) in session s1",
        ])
    }

    @Test func sessionsAreHeldApartAndTheMatrixCountsWhatEachEndpointMet() {
        var checker = FlowChecker(rules: FlowRules(contract: Repository.contract))
        checker.observe(Self.inbox(1, at: 0, token: "A", code: 1002))
        checker.observe(Self.call(2, "signal.inbox", "/api/v1/signals/inbox", at: 10, token: "A", code: 0, session: "s2"))
        checker.observe(Self.refresh(3, at: 20))
        checker.observe(Self.inbox(4, at: 30, token: "B", code: 0))
        checker.observe(Self.me(5, at: 40, token: "B", code: 1008))
        checker.finish()
        #expect(checker.violations.isEmpty)
        #expect(checker.exercised == [FlowPair(endpoint: "signal.inbox", flow: .refreshAndRetry): 1, FlowPair(endpoint: "user.me", flow: .ban): 1])
    }

    /// A plain API's 401 is `token-expired` or `force-logout` by its problem's `type`
    /// (`when:`): the rules read the answer's body to know which flow it asks for, and a
    /// 401 whose body names no entry is the one without `when`.
    @Test func aPlainAPIsStatusAsksTheFlowOfTheEntryItsBodyNames() throws {
        let contract = try #require(ContractLint.run(directory: Repository.plainContracts).contract)
        let rules = FlowRules(contract: contract)
        func notes(_ sequence: Int, at sent: Int64, token: String, status: Int?, type: String?) -> FlowObservation {
            var observation = Self.call(sequence, "notes.list", "/v1/notes", at: sent, token: token, code: 0)
            observation.code = status
            observation.codeName = rules.codeName(of: status) { type.map { JSONValue.object([.init("type", .string($0))]) } }
            return observation
        }
        func violations(metWith type: String?) -> [String] {
            var checker = FlowChecker(rules: rules)
            let refresh = Self.call(2, "session.refresh", "/v1/sessions/refresh", at: 10, token: nil, code: 0, method: "POST")
            for observation in [notes(1, at: 0, token: "A", status: 401, type: type), refresh, notes(3, at: 20, token: "B", status: nil, type: nil)] {
                checker.observe(observation)
            }
            checker.finish()
            return checker.violations.map(\.description)
        }
        #expect(rules.codeName(of: 401) { nil } == "force-logout")
        #expect(rules.codeName(of: 429) { Issue.record("a status of one entry is not read again"); return nil } == nil)
        #expect(violations(metWith: "https://notes.example.com/problems/token-expired") == [])
        #expect(violations(metWith: "about:blank") == [
            "notes.list: after 401 at #1 #3 was sent with a token before a new login (logout: no authenticated call until a new login) in session s1",
        ])
    }
}

/// What clients control cannot grow the checker without bound.
@Suite struct FlowCheckerLimitTests {
    @Test func sessionsBeyondTheLimitForgetTheFirstSeenAndAlertsKeepOnlyTheirWindow() {
        var checker = FlowChecker(rules: FlowRules(contract: Repository.contract))
        for index in 0..<(FlowChecker.sessionLimit + 5) {
            checker.observe(FlowCheckerTests.call(index, "user.me", "/api/v1/users/me", at: Int64(index), token: "T\(index)", code: 1006, session: "s\(index)"))
        }
        #expect(checker.forgottenSessions == 5)
        // s0 was forgotten: its token's next call is no longer held to its logout; s9 is.
        checker.observe(FlowCheckerTests.call(20_000, "user.me", "/api/v1/users/me", at: 50_000, token: "T0", code: 1006, session: "s0"))
        checker.observe(FlowCheckerTests.call(20_001, "user.me", "/api/v1/users/me", at: 50_000, token: "T9", code: 1006, session: "s9"))
        #expect(checker.violations.map(\.session) == ["s9"])
        #expect(FlowReport(checker).forgottenSessions == 6)
    }
}
