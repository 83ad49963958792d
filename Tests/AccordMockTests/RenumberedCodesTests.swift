import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordTesting
import Testing

/// A service that numbers its codes otherwise (every code of the repository's table
/// moved by 40,000) gets every flow answered with its own numbers.
@Suite struct RenumberedCodesTests {
    static let renumbered = Result { try Repository.renumberedContracts(by: 40_000) }

    func fixture() throws -> EngineFixture {
        try EngineFixture(contract: try Self.renumbered.get().contract)
    }

    @Test func theFlowRolesResolveToTheContractsNumbers() throws {
        let codes = FlowCodes(service: try Self.renumbered.get().contract.service)
        let resolved = FlowCodes.Role.allCases.map { "\($0.rawValue)=\(codes[$0])" }
        #expect(resolved == ["signature-invalid=41001", "token-expired=41002", "timestamp-invalid=41003", "nonce-reused=41004",
                             "token-invalid=41005", "force-logout=41006", "refresh-invalid=41007", "banned=41008"])
        #expect(codes.invalidRequest == 41000)
    }

    @Test func everyFlowOfTheMockAnswersWithTheRenumberedCodes() throws {
        var fixture = try fixture()
        let state = fixture.state
        func code(_ request: MockRequest) -> JSONValue? { fixture.handle(request).code }
        let quota = "/api/v1/signals/quota"
        #expect(code(fixture.signed("GET", quota)) == .int(0))
        #expect(code(fixture.signed("GET", quota + "?bogus=1")) == .int(41000))
        #expect(code(MockRequest(method: "GET", target: quota)) == .int(41001))
        #expect(code(fixture.signed("GET", quota, timestamp: fixture.now - 3_600)) == .int(41003))
        let once = fixture.signed("GET", quota)
        _ = fixture.handle(once)
        #expect(code(once) == .int(41004))
        #expect(code(fixture.signed("GET", quota, bearer: .token("at_unknown"))) == .int(41005))
        #expect(code(fixture.signed("GET", quota, bearer: .none)) == .int(41006))
        #expect(code(fixture.signed("POST", "/api/v1/auth/token/refresh", body: #"{"refresh_token":"rt_unknown"}"#, bearer: .none))
                == .int(41007))
        try state.tokens.setBan(.init(reason: "spam"), uid: 10086)
        let banned = fixture.handle(fixture.signed("GET", quota))
        #expect(banned.code == .int(41008))
        #expect(banned.json?.value(at: "/data/ban_info/reason") == .string("spam"))
        try state.tokens.setBan(nil, uid: 10086)
        try state.tokens.expireAccessTokens()
        #expect(code(fixture.signed("GET", quota)) == .int(41002))
        try state.tokens.forceLogout(uid: 10086)
        #expect(code(fixture.signed("GET", quota)) == .int(41006))
    }

    @Test func injectionsByNameAndTheDefaultBanDataFollowTheNumbers() throws {
        var fixture = try fixture()
        let injected = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Inject", "banned")]))
        #expect(injected.code == .int(41008))
        #expect(injected.json?.value(at: "/data/ban_info/reason") == .string("banned by an injected answer"))
        let byNumber = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Inject", "41002")]))
        #expect(byNumber.code == .int(41002))
        let oldNumber = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Inject", "1002")]))
        #expect(oldNumber.code == .int(41000))
    }
}
