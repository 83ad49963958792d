import AccordContract
import AccordFlowConformance
import AccordTesting
import Testing

/// The retry policy's rule for faults, over the repository's contract (`flows.retry`:
/// two retries, 200 ms then 400 ms apart, GET, PUT and DELETE), each held to a
/// conforming sequence and a violating one that differ in one request.
@Suite struct FlowRetryRuleTests {
    /// `call` at `sent` ms, answered 5 ms later with `fault` (nil: an answer).
    static func inbox(_ sequence: Int, at sent: Int64, fault: String?) -> FlowObservation {
        var call = FlowCheckerTests.inbox(sequence, at: sent, token: "A", code: 0)
        call.fault = fault
        return call
    }

    static func publish(_ sequence: Int, at sent: Int64, fault: String?) -> FlowObservation {
        var call = FlowCheckerTests.call(sequence, "signal.publish", "/api/v1/signals", at: sent, token: "A", code: 0, method: "POST")
        call.fault = fault
        return call
    }

    @Test func theContractsPolicyIsRead() {
        let policy = Repository.contract.service.flows.retry
        #expect(policy == Service.RetryPolicy(attempts: 2, backoffMilliseconds: 200, maxBackoffMilliseconds: 2_000))
        #expect((1...5).map(policy.delayMilliseconds(beforeRetry:)) == [200, 400, 800, 1_600, 2_000])
    }

    @Test func noMoreRetriesThanTheAttempts() {
        let twice = [Self.inbox(1, at: 0, fault: "reset"), Self.inbox(2, at: 300, fault: "reset"), Self.inbox(3, at: 800, fault: "reset")]
        #expect(FlowCheckerTests.violations(twice) == [])
        #expect(FlowCheckerTests.violations(twice + [Self.inbox(4, at: 1_700, fault: "reset")]) == [
            "signal.inbox: after reset at #1 #4 was retry 3 (the policy allows 2) (retry: no more retries after a fault than the retry policy's attempts) in session s1",
        ])
        // A client retrying in a loop breaks the rule once.
        let loop = twice + (4...9).map { Self.inbox($0, at: 1_700 + Int64($0) * 900, fault: "reset") }
        #expect(FlowCheckerTests.violations(loop).count == 1)
    }

    @Test func eachRetryAfterThePolicysWait() {
        let fault = Self.inbox(1, at: 0, fault: "503")
        #expect(FlowCheckerTests.violations([fault, Self.inbox(2, at: 210, fault: nil)]) == [])
        #expect(FlowCheckerTests.violations([fault, Self.inbox(2, at: 50, fault: nil)]) == [
            "signal.inbox: after 503 at #1 the retry #2 was sent 45 ms later (the policy waits 200 ms) (retry: each retry after the retry policy's wait) in session s1",
        ])
        // The second retry waits twice as long.
        let first = [fault, Self.inbox(2, at: 210, fault: "empty")]
        #expect(FlowCheckerTests.violations(first + [Self.inbox(3, at: 620, fault: nil)]) == [])
        #expect(FlowCheckerTests.violations(first + [Self.inbox(3, at: 420, fault: nil)]).count == 1)
    }

    @Test func onlyWhatThePolicyRetriesIsSentAgain() {
        #expect(FlowCheckerTests.violations([Self.inbox(1, at: 0, fault: "reset"), Self.inbox(2, at: 300, fault: nil)]) == [])
        #expect(FlowCheckerTests.violations([Self.publish(1, at: 0, fault: "reset"), Self.publish(2, at: 300, fault: nil)]) == [
            "signal.publish: after reset at #1 the POST was sent again at #2 (retry: after a fault, only the calls the retry policy retries are sent again) in session s1",
        ])
    }

    @Test func anAnswerEndsTheRetriesAndAnAnswerCutShortIsNoFault() {
        let answered = [Self.inbox(1, at: 0, fault: "reset"), Self.inbox(2, at: 300, fault: nil)]
        #expect(FlowCheckerTests.violations(answered + [Self.inbox(3, at: 310, fault: nil)]) == [])
        #expect(FlowCheckerTests.violations([Self.publish(1, at: 0, fault: "malformed"), Self.publish(2, at: 10, fault: nil)]) == [])
        // A retry sent beyond the window (twice the longest wait) is a new call.
        #expect(FlowCheckerTests.violations([Self.publish(1, at: 0, fault: "reset"), Self.publish(2, at: 4_100, fault: nil)]) == [])
    }

    /// libcurl and URLSession resend a request, byte for byte, when the reused connection
    /// it went out on died: the same nonce. That is the HTTP stack's, not the app's retry.
    @Test func theHTTPStacksResendIsNoRetry() {
        var fault = Self.inbox(1, at: 0, fault: "reset")
        var resend = Self.inbox(2, at: 6, fault: "empty")
        (fault.nonce, resend.nonce) = ("n-1", "n-1")
        var retry = Self.inbox(3, at: 220, fault: nil)
        retry.nonce = "n-2"
        #expect(FlowCheckerTests.violations([fault, resend, retry]) == [])
        resend.nonce = "n-3"
        #expect(FlowCheckerTests.violations([fault, resend, retry]) == [
            "signal.inbox: after reset at #1 the retry #2 was sent 1 ms later (the policy waits 200 ms) (retry: each retry after the retry policy's wait) in session s1",
            "signal.inbox: after empty at #2 the retry #3 was sent 209 ms later (the policy waits 400 ms) (retry: each retry after the retry policy's wait) in session s1",
        ])
    }

    @Test func theReportCountsTheRequestsEachRuleWasPutTo() {
        var checker = FlowChecker(rules: FlowRules(contract: Repository.contract))
        let refresh = [FlowCheckerTests.inbox(1, at: 0, token: "A", code: 1002), FlowCheckerTests.refresh(2, at: 10), FlowCheckerTests.inbox(3, at: 20, token: "B", code: 0)]
        // Then a fault, and a retry sent before the policy's wait: that rule is put to it and broken.
        var (fault, retry) = (Self.inbox(4, at: 30, fault: "reset"), Self.inbox(5, at: 40, fault: nil))
        (fault.token, retry.token) = ("B", "B")
        for observation in refresh + [fault, retry] { checker.observe(observation) }
        checker.finish()
        let counted = FlowReport(checker).rules.filter { $0.checked > 0 }.map { "\($0.rule.flow.rawValue): \($0.rule.rawValue) \($0.checked)/\($0.broken)" }
        #expect(counted == [
            "refresh-and-retry: one refresh for the calls that met the code 1/0", "refresh-and-retry: the refresh before any retry 1/0",
            "refresh-and-retry: the call retried once 1/0", "refresh-and-retry: no request with the old token after the refresh 3/0",
            "retry: after a fault, only the calls the retry policy retries are sent again 1/0",
            "retry: no more retries after a fault than the retry policy's attempts 1/0", "retry: each retry after the retry policy's wait 1/1",
        ])
    }

    @Test func theMatrixCountsTheFaultsEachEndpointMet() {
        var checker = FlowChecker(rules: FlowRules(contract: Repository.contract))
        for observation in [Self.inbox(1, at: 0, fault: "reset"), Self.inbox(2, at: 300, fault: nil), Self.publish(3, at: 400, fault: "503")] {
            checker.observe(observation)
        }
        checker.finish()
        #expect(checker.exercised == [FlowPair(endpoint: "signal.inbox", flow: .retry): 1, FlowPair(endpoint: "signal.publish", flow: .retry): 1])
    }
}
