import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordReport
import AccordSync
import AccordTesting
import Foundation
import Testing

/// The run's report as the engine collects it: what counts as a violation, what an
/// injected request is, coverage, and the JUnit and JSON forms.
@Suite struct ReportTests {
    /// A fixture engine on the repository's mocks that has answered: one good call, one
    /// invalid body, one tampered signature, one unknown route, one injected ban and one
    /// invalid request that also asked for an injection.
    private func exercised() throws -> EngineFixture {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        _ = fixture.handle(fixture.signed("GET", "/api/v1/signals/inbox?filter=flash"))
        _ = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"","is_flash":false}"#))
        var tampered = fixture.signed("GET", "/api/v1/users/me")
        tampered.headers["x-sign"] = String(repeating: "0", count: 32)
        _ = fixture.handle(tampered)
        _ = fixture.handle(fixture.signed("GET", "/api/v1/nowhere"))
        _ = fixture.handle(fixture.signed("GET", "/api/v1/users/me", headers: [("X-Accord-Inject", "1008")]))
        _ = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: "{}", headers: [("X-Accord-Inject", "3008")]))
        return fixture
    }

    @Test func countsContractViolationsButNeverInjectedRequests() throws {
        let report = try exercised().engine.report()
        #expect(report.requests == 6)
        #expect(report.violations == 3)
        #expect(report.summary == "6 requests, 3 violations in 3 endpoints, 3/66 endpoints covered")
        let publish = try #require(report.endpoints.first { $0.endpoint.id == "signal.publish" })
        #expect(publish.tally.requests == 2 && publish.tally.injected == 1 && publish.tally.failed == 1)
        let invalid = try #require(publish.tally.failures.first)
        #expect(invalid.kind == "validation (1000)")
        let pointers = invalid.details["violations"].map { violations -> [JSONValue] in
            guard case .array(let items) = violations else { return [] }
            return items.compactMap { $0["pointer"] }
        }
        #expect(pointers == [.string("/body/content")])
        let me = try #require(report.endpoints.first { $0.endpoint.id == "user.me" })
        #expect(me.isCovered, "the injected ban is a call that kept to the contract")
        #expect(me.tally.codes[1008] == 1)
        let signature = try #require(me.tally.failures.first)
        #expect(signature.kind == "signature (1001)")
        #expect(signature.details["sorted_params"] != nil)
        #expect(report.unknownRoutes.map(\.route) == ["GET /api/v1/nowhere"])
        #expect(report.unknownRoutes.first?.tally.failures.first?.kind == "unknown route (1000)")
    }

    @Test func coverageNamesWhatWasNeverExercised() throws {
        let report = try exercised().engine.report()
        // The injected calls cover user.me and signal.publish: the app did call them.
        #expect(report.endpointCoverage.covered == 3 && report.endpointCoverage.total == 66)
        #expect(report.endpointCoverage.missing.contains("auth.login-phone"))
        #expect(!report.endpointCoverage.missing.contains("signal.inbox"))
        let inbox = try #require(report.endpoints.first { $0.endpoint.id == "signal.inbox" })
        #expect(inbox.tally.answers.keys.sorted() == ["fixture:flash-only"])
        #expect(report.answerCoverage.missing.contains("signal.publish/fixture:quota"))
        #expect(report.codeCoverage.missing.contains("signal.publish/3008"), "an injection over an invalid body never answered 3008")
        #expect(report.met([.violations, .uncovered]) == [.violations, .uncovered])
        #expect(report.met([]) == [])
    }

    @Test func resetKeepsTheReportOfTheWholeRun() throws {
        let fixture = try exercised()
        _ = fixture.handle(MockRequest(method: "POST", target: "/__accord/reset", headers: [("Content-Type", "application/json")]))
        #expect(fixture.engine.report().requests == 6)
        let control = fixture.handle(MockRequest(method: "GET", target: "/__accord/report"))
        #expect(control.status == 200)
        #expect(control.json?.value(at: "/summary/violations") == .int(3))
        #expect(control.json?.value(at: "/coverage/endpoints/covered") == .int(3))
    }

    @Test func shutdownRunsTheServersActionOnce() throws {
        let fixture = try EngineFixture()
        let request = MockRequest(method: "POST", target: "/__accord/shutdown", headers: [("Content-Type", "application/json")])
        #expect(fixture.handle(request).status == 409, "an engine without a process to stop says so")
        let calls = Locked(0)
        fixture.state.shutdown.onRequest { calls.withLock { $0 += 1 } }
        #expect(fixture.handle(request).status == 202)
        #expect(fixture.handle(request).status == 202)
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func junitParsesAndItsCountsAgreeWithItsElements() throws {
        var fixture = try exercised()
        // Characters XML escapes or forbids, in a path that ends up in the failure text.
        _ = fixture.handle(fixture.signed("GET", "/api/v1/%3C&%22%01"))
        let report = fixture.engine.report()
        for failsUncovered in [false, true] {
            let document = JUnitWriter(failsUncovered: failsUncovered).document(report)
            let parsed = try JUnitDocument(Data(document.utf8))
            #expect(parsed.root == "testsuites")
            #expect(parsed.suites.map(\.name) == ["auth", "learning", "matching", "push", "signal", "subscriptions", "upload", "unknown-routes"])
            for suite in parsed.suites {
                #expect(suite.tests == suite.cases.count)
                #expect(suite.failures == suite.cases.filter(\.failed).count)
                #expect(suite.skipped == suite.cases.filter(\.skipped).count)
                #expect(suite.cases.allSatisfy { !$0.name.isEmpty && $0.className.hasPrefix("accord.") })
            }
            #expect(parsed.tests == parsed.suites.reduce(0) { $0 + $1.tests })
            #expect(parsed.failures == parsed.suites.reduce(0) { $0 + $1.failures })
            let skipped = parsed.suites.reduce(0) { $0 + $1.skipped }
            #expect(skipped == (failsUncovered ? 0 : 63))
            #expect(parsed.failures == (failsUncovered ? 67 : 4))
            let publish = try #require(parsed.suites.flatMap(\.cases).first { $0.name.hasPrefix("signal.publish ") })
            #expect(publish.failureMessage == "1 violation in 2 requests")
            #expect(publish.failureText.contains(#""pointer":"/body/content""#))
        }
    }

    @Test func jsonCarriesTheSameAsJUnit() throws {
        let report = try exercised().engine.report()
        let json = try JSONReader.read(report.rendered(as: .json, failsUncovered: false))
        #expect(json.value(at: "/summary/text") == .string(report.summary))
        #expect(json.value(at: "/coverage/fixtures/total") == .int(report.answerCoverage.total))
        guard case .array(let endpoints)? = json["endpoints"] else { Issue.record("no endpoints"); return }
        #expect(endpoints.count == 66)
        let publish = try #require(endpoints.first { $0["id"] == .string("signal.publish") })
        #expect(publish.value(at: "/failures/0/details/violations/0/pointer") == .string("/body/content"))
        #expect(publish["injected"] == .int(1))
    }

    @Test func aBodyOverTheLimitIsFiledUnderItsEndpoint() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        var request = fixture.signed("POST", "/api/v1/signals", body: #"{"content":"hi","is_flash":false}"#)
        request.bodyLimitExceeded = true
        #expect(fixture.handle(request).status == 413)
        let report = fixture.engine.report()
        #expect(report.unknownRoutes.isEmpty)
        let publish = try #require(report.endpoints.first { $0.endpoint.id == "signal.publish" })
        #expect(publish.tally.failures.map(\.kind) == ["body too large (1000)"])
    }
}
