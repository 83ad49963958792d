import AccordCrypto
import AccordHTTP
import AccordJSON
import AccordMock
import AccordSigning
import AccordTesting
import Testing

/// Clients whose serializers write every number as a double (JavaScript, some Kotlin and
/// Python code) send `1080.0`: it is the integer 1080, validated and signed as one; an
/// integer beyond the signed 64-bit range is a validation error naming the member.
@Suite struct IntegralNumberTests {
    /// Signs `body` over `sortedParams` written out by hand, independently of the server's SortedParams.
    private func request(_ fixture: inout EngineFixture, body: String, sortedParams: String) -> MockRequest {
        var request = fixture.signed("PUT", "/api/v1/users/me/profile", body: body)
        let nonce = request.headers["x-nonce"] ?? ""
        let sign = Digest.md5Hex("dev_app_key\(fixture.now)\(nonce)\(sortedParams)dev_app_secret")
        request.headers["x-sign"] = sign
        return request
    }

    @Test func anIntegralNumberWrittenWithAFractionIsAnIntegerSignedAsOne() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let answer = fixture.handle(request(&fixture, body: #"{"orientation":2.0,"bio":"hi"}"#, sortedParams: "bio=hi&orientation=2"))
        #expect(answer.code == .int(0), "\(answer.text)")
        // Inside compact JSON, too: [1.0, 2.5e0] signs as [1,2.5].
        #expect(SortedParams.text(of: .array([.double(1.0), .double(2.5), .double(1.08e3)])) == "[1,2.5,1080]")
        #expect(SortedParams.text(of: .double(0.5)) == "0.5")
        // A fraction is still not an integer.
        let fraction = fixture.handle(request(&fixture, body: #"{"orientation":2.5}"#, sortedParams: "orientation=2.5"))
        #expect(fraction.code == .int(1000))
        #expect(fraction.text.contains(#""pointer":"/body/orientation""#), "\(fraction.text)")
    }

    @Test func anIntegerBeyondSixtyFourBitsIsAViolationNotASignatureMismatch() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let answer = fixture.handle(request(&fixture, body: #"{"orientation":18446744073709551616}"#, sortedParams: "orientation=18446744073709551616"))
        #expect(answer.code == .int(1000), "\(answer.text)")
        #expect(answer.text.contains(#""pointer":"/body/orientation""#), "\(answer.text)")
        #expect(answer.text.contains("an integer beyond the signed 64-bit range"))
    }
}
