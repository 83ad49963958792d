import AccordContract
import AccordJSON
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordTesting
import Foundation
import Testing

/// Scenario steps that name a fixture or repeat (docs/flows.md, "Scenarios"): what lint
/// says of them, and how the engine plays them.
@Suite struct ScenarioTests {
    /// Loads `files` (name → YAML) as `scenarios/` beside the repository's fixtures.
    private func load(_ files: [String: String]) throws -> ([String: Scenario], [String]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-scenarios-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in files {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name + ".yaml"))
        }
        let fixtures = FixtureLoader(contract: Repository.contract).load(directory: Repository.mocks).0
        let (scenarios, diagnostics) = ScenarioLoader(contract: Repository.contract, fixtures: fixtures).load(directory: directory.path)
        let prefix = directory.path + "/"
        return (scenarios, diagnostics.map { $0.description.replacingOccurrences(of: prefix, with: "") }
            .map { String($0.prefix { $0 != "\n" }) })
    }

    @Test func lintChecksTheFixtureAStepNames() throws {
        let (_, diagnostics) = try load(["steps": """
            steps:
              - endpoint: signal.quota
                fixture: exhausted
              - endpoint: signal.quota
                fixture: exhausetd
              - endpoint: 'signal.*'
                fixture: exhausted
              - endpoint: signal.publish
                respond: quota
                fixture: plenty
              - endpoint: '*'
                respond: banned
                repeat: yes
            """])
        #expect(diagnostics == [
            "steps.yaml:5:14: error: 'signal.quota' has no fixture or example named 'exhausetd' (it has exhausted, plenty, default); did you mean 'exhausted'?",
            "steps.yaml:7:14: error: 'fixture' needs one endpoint id, not the pattern 'signal.*'",
            "steps.yaml:10:14: error: a step answers with 'respond' or with 'fixture', not both",
            "steps.yaml:13:13: error: expected true or false for 'repeat', found a string",
        ])
    }

    @Test func aRepeatingStepHoldsAndAStepsFixtureAnswers() throws {
        let (scenarios, diagnostics) = try load([
            "held": "steps:\n  - endpoint: '*'\n    respond: banned\n    repeat: true\n  - endpoint: signal.quota\n",
            "named": "steps:\n  - endpoint: signal.quota\n    fixture: exhausted\n",
        ])
        #expect(diagnostics == [])
        var fixture = try EngineFixture(fixturesIn: Repository.mocks, scenarios: scenarios)
        for target in ["/api/v1/signals/quota", "/api/v1/users/me", "/api/v1/signals/quota"] {
            let answer = try JSONReader.read(fixture.handle(fixture.signed("GET", target, headers: [("X-Accord-Scenario", "held")])).bodyBytes)
            #expect(answer["code"] == .int(1008))
        }
        let exhausted = try JSONReader.read(fixture.handle(fixture.signed("GET", "/api/v1/signals/quota",
                                                                          headers: [("X-Accord-Scenario", "named"), ("X-Accord-Session", "n")])).bodyBytes)
        #expect(exhausted["data"]?["used"] == .int(20))
        // Past its one step the scenario lets the request through to the usual fixture (the seed's one own signal).
        let after = try JSONReader.read(fixture.handle(fixture.signed("GET", "/api/v1/signals/quota",
                                                                      headers: [("X-Accord-Scenario", "named"), ("X-Accord-Session", "n")])).bodyBytes)
        #expect(after["data"]?["used"] == .int(1))
    }
}

/// Fixtures answering a code whose table entry declares `data` (service.yaml, `codes`).
@Suite struct CodePayloadTests {
    @Test func aFixtureAnsweringACodeIsHeldToItsPayload() throws {
        let yaml = "auth.sms-send:\n  - name: soon\n    code: 2002\n    data: {retry_after_seconds: soon}\n"
        do {
            _ = try EngineFixture(fixtures: yaml)
            Issue.record("the fixture loaded")
        } catch let problems as EngineFixture.FixtureProblems {
            #expect(problems.diagnostics.map { String($0.prefix { $0 != "\n" }) } == [
                "mocks/test.yaml:4:33: error: fixture 'soon' data (code 2002) /retry_after_seconds: expected integer, found a string \"soon\"",
            ])
        }
    }
}

/// Lint's warning for declared codes the mock never answers (docs/mocks.md, "What is checked").
@Suite struct UnansweredCodeTests {
    @Test func aDeclaredCodeNothingAnswersIsWarnedAboutUnlessAScenarioOrExampleDoes() throws {
        let mocks = FileManager.default.temporaryDirectory.appendingPathComponent("accord-unanswered-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mocks.appendingPathComponent("scenarios"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mocks) }
        try Data("steps:\n  - endpoint: signal.reply\n    respond: content-rejected\n".utf8)
            .write(to: mocks.appendingPathComponent("scenarios/moderation.yaml"))
        try Data(("signal.detail:\n  - name: gone\n    when: {params: {signal_id: x}}\n    code: 3001\n"
                  + "signal.publish:\n  - name: sent\n    default: true\n    data: {}\n"
                  + "signal.reply:\n  - name: sent\n    default: true\n    data: {conversation_id: c}\n"
                  + "learning.lessons:\n  - name: none\n    default: true\n    data: {items: []}\n").utf8)
            .write(to: mocks.appendingPathComponent("signal.yaml"))
        let outcome = MockProject.load(contracts: Repository.contracts, mocks: mocks.path)
        let warnings = outcome.diagnostics.map { String($0.description.prefix { $0 != "\n" }) }
            .filter { $0.contains("but no fixture, example, effect or scenario answers it") }
            .map { $0.replacingOccurrences(of: Repository.contracts + "/", with: "") }
        // signal.publish's 3008 has an example, signal.reply's 3002 a scenario step, signal.detail's 3001 a fixture;
        // an endpoint without fixtures is not mocked yet, and not warned about.
        #expect(!warnings.contains { $0.contains("'signal.delete'") })
        #expect(warnings.contains { $0.hasPrefix("signal.yaml:") && $0.contains("'signal.publish' declares code 3002 (content-rejected)") })
        #expect(!warnings.contains { $0.contains("'signal.publish' declares code 3008") })
        #expect(!warnings.contains { $0.contains("'signal.reply' declares code 3002") })
        #expect(!warnings.contains { $0.contains("'signal.detail' declares code 3001") })
        #expect(warnings.contains("learning.yaml:155:3: warning: 'learning.lessons' declares code 5001 (not-found), but no fixture, example, effect or "
                                  + "scenario answers it; add a fixture with 'code: 5001' and a 'when' that picks it"))
        // The repository's own mocks answer every code they declare.
        #expect(MockProject.load(contracts: Repository.contracts, mocks: Repository.mocks).diagnostics.isEmpty)
    }
}

/// Lint's warning for a template hole filled from a request value the contract allows
/// to break the place it fills.
@Suite struct TemplateHoleTests {
    private func warnings(_ yaml: String) -> [String] {
        let (_, diagnostics) = FixtureLoader(contract: Repository.contract).load([.init(path: "mocks/test.yaml", bytes: Array(yaml.utf8))])
        return diagnostics.filter { $0.severity == .warning }.map { String($0.description.prefix { $0 != "\n" }) }
    }

    @Test func aLooserRequestValueFillingAStricterPlaceIsWarnedAbout() {
        let user = "uid: 1, avatar: 'https://a.example/1.jpg', gender: 0, is_verified: false, is_vip: false, bio: '', orientation: 0, "
            + "attribute: 0, is_personalized: false, is_profile_hidden: false, onboarding_completed: false"
        let login = "is_new_user: true, access_token: a, refresh_token: r, access_expires_in: 1, refresh_expires_in: 1, im_token: i"
        #expect(warnings("""
        auth.login-apple:
          - name: echo
            default: true
            data: {\(login), user: {\(user), nickname: '{{request.body.full_name.given_name}}', mbti: '{{request.body.user_identifier}}'}}
        """) == [
            "mocks/test.yaml:4:348: warning: fixture 'echo' data /user/nickname: '{{request.body.full_name.given_name}}' may be shorter than the 2 characters it needs; the request allows any length (narrow it with a 'when' matcher, or a template of its own)",
            "mocks/test.yaml:4:348: warning: fixture 'echo' data /user/nickname: '{{request.body.full_name.given_name}}' may be longer than the 20 characters it allows; the request allows any length (narrow it with a 'when' matcher, or a template of its own)",
            "mocks/test.yaml:4:395: warning: fixture 'echo' data /user/mbti: '{{request.body.user_identifier}}' need not match /([EI][NS][FT][JP])?/ (narrow it with a 'when' matcher, or a template of its own)",
        ])
        // A `when` on the same member narrows it; the repository's Apple fixture does so.
        #expect(warnings("""
        auth.login-apple:
          - name: echo
            when: {body: {/full_name/given_name: {regex: '^.{2,20}$'}}}
            data: {\(login), user: {\(user), nickname: '{{request.body.full_name.given_name}}', mbti: ''}}
        """) == [])
    }
}
