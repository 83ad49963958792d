import AccordContract
import AccordTesting
import AccordValidation
import Foundation
import Testing

/// The repository's own `contracts/` load cleanly into the model the other tools use.
@Suite struct RepositoryContractTests {
    let outcome = ContractLint.run(directory: Repository.contracts)

    @Test func lintsWithoutAnyDiagnostic() {
        #expect(outcome.diagnostics.map(\.description) == [])
    }

    @Test func coversTheSevenDomains() throws {
        let contract = try #require(outcome.contract)
        #expect(contract.domains.map(\.name) == ["auth", "learning", "matching", "push", "signal", "subscriptions", "upload"])
        #expect(contract.endpoints.count == 66)
        for endpoint in contract.endpoints {
            #expect(!endpoint.examples.isEmpty, "\(endpoint.id) has no example")
            #expect(endpoint.summary != nil, "\(endpoint.id) has no summary")
        }
    }

    @Test func serviceCarriesSigningAuthAndTheCodeTable() throws {
        let service = try #require(outcome.contract?.service)
        #expect(service.basePath == "/api/v1")
        #expect(service.signing.apps == ["dev_app_key": "dev_app_secret"])
        #expect(service.signing.parts == [.appKey, .timestamp, .nonce, .sortedParams, .appSecret])
        #expect(service.signing.windowSeconds == 300)
        #expect(service.signing.nonceTTLSeconds == 600)
        #expect(service.auth.accessTTLSeconds == 7_200)
        #expect(service.auth.refreshTTLSeconds == 30 * 86_400)
        #expect(service.auth.refreshEndpoint == "auth.refresh")
        let flows = Dictionary(uniqueKeysWithValues: service.codes.map { ($0.code, $0.flow) })
        #expect(flows[1002] == .refreshAndRetry)
        #expect(flows[1005] == .refreshAndRetry)
        #expect(flows[1006] == .logout)
        #expect(flows[1007] == .logout)
        #expect(flows[1008] == .ban)
        #expect(flows[3008] == .alert)
        #expect((1001...1008).allSatisfy { service.code($0) != nil })
    }

    @Test func inboxQueryIsTypedWithItsConstraints() throws {
        let inbox = try #require(outcome.contract?.endpoint("signal.inbox"))
        #expect(inbox.method == .get)
        #expect(inbox.path.description == "/signals/inbox")
        #expect(inbox.requiresAuth)
        let limit = try #require(inbox.query.first { $0.name == "limit" })
        #expect(limit.isOptional)
        #expect(limit.schema.kind == .primitive(.int))
        #expect(limit.schema.constraints.minimum == 1)
        #expect(limit.schema.constraints.maximum == 50)
        #expect(limit.schema.defaultValue?.value == .int(20))
        let filter = try #require(inbox.query.first { $0.name == "filter" })
        guard case .enumeration(let cases) = filter.schema.kind else {
            Issue.record("filter is not an enum")
            return
        }
        #expect(cases.cases.map(\.name) == ["all", "unread", "flash"])
    }

    @Test func mergeKeysComposeSignalDetail() throws {
        let detail = try #require(outcome.contract?.types["SignalDetail"])
        guard case .object(let fields) = detail.schema.kind else {
            Issue.record("SignalDetail is not an object")
            return
        }
        #expect(fields.map(\.name) == [
            "id", "sender", "content", "media", "tags", "is_flash", "status", "created_at", "expires_at", "is_read",
            "replies_count", "viewer_state",
        ])
        #expect(fields.first { $0.name == "expires_at" }?.isOptional == true)
    }

    @Test func integerEnumsKeepTheirNames() throws {
        let gender = try #require(outcome.contract?.types["Gender"])
        guard case .enumeration(let cases) = gender.schema.kind else {
            Issue.record("Gender is not an enum")
            return
        }
        #expect(cases.isIntegral)
        #expect(cases.cases.map(\.name) == ["unset", "male", "female"])
        #expect(cases.cases.map(\.value) == [.int(0), .int(1), .int(2)])
    }

    @Test func chatStreamsChatDeltaEvents() throws {
        let chat = try #require(outcome.contract?.endpoint("ai.chat"))
        #expect(chat.stream?.toggle == "stream")
        #expect(chat.stream?.event.kind == .reference("ChatDelta"))
    }

    @Test func loginAndStartConfigNeedNoToken() throws {
        let contract = try #require(outcome.contract)
        let open = contract.endpoints.filter { !$0.requiresAuth }.map(\.id)
        #expect(open == ["auth.sms-send", "auth.login-phone", "auth.login-apple", "auth.refresh", "app.start-config"])
    }
}
