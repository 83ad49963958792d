import AccordJSON
import AccordMock
import AccordTesting
import Testing

/// The formats the contract declares for request headers (service.yaml `headers`, and
/// the signing headers as the verifier reads them).
@Suite struct HeaderFormatTests {
    @Test(arguments: [("1.2", true), ("1.2.3", true), ("10.20.30", true), ("1", false), ("1.2.3.4", false), ("v1.2", false), ("1.2.", false)])
    func appVersionsTakeTwoOrThreeParts(version: String, valid: Bool) throws {
        var fixture = try EngineFixture()
        let request = fixture.signed("GET", "/api/v1/signals/quota").replacingHeader("x-app-version", version)
        let answer = fixture.handle(request)
        #expect((answer.code == .int(0)) == valid, "\(version): \(answer.text)")
        if !valid {
            #expect(answer.json?.value(at: "/data/violations/0/pointer") == .string("/headers/X-App-Version"))
        }
    }

    @Test(arguments: ["a b", String(repeating: "n", count: 65), "nonce/1", "中文"])
    func aNonceOutsideItsFormatIsASignatureError(nonce: String) throws {
        var fixture = try EngineFixture()
        let answer = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota").replacingHeader("x-nonce", nonce))
        #expect(answer.code == .int(1001))
        #expect(answer.json?.value(at: "/data/reason") == .string("X-Nonce must be 1 to 64 characters of A-Z a-z 0-9 _ -"))
    }
}
