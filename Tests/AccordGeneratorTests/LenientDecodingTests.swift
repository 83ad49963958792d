import Foundation
import Testing
import TongbanAPI

/// What the generated models make of realistic data that strays from the contract:
/// one odd optional value is nil, not a failed answer; required values still fail.
@Suite struct LenientDecodingTests {
    private func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    @Test func anEmptyStringForAnOptionalURLIsNil() throws {
        let profile = try decode(UserUpdateProfileRequest.self, #"{"nickname":"阿澈","avatar":"","birth_date":"1999-02-30"}"#)
        #expect(profile.nickname == "阿澈")
        #expect(profile.avatar == nil)
        #expect(profile.birthDate == nil)
    }

    @Test func anUnreadableOptionalTimeIsNilAndARequiredOneStillFails() throws {
        let entitlement = try decode(Entitlement.self, #"{"is_active":true,"state":"active","expires_at":"next week","will_renew":false,"platform":"ios"}"#)
        #expect(entitlement.expiresAt == nil)
        #expect(entitlement.isActive)
        #expect(throws: DecodingError.self) {
            try decode(Entitlement.self, #"{"is_active":"yes","state":"active","will_renew":false,"platform":"ios"}"#)
        }
    }

    @Test func openEnumsListTheirKnownCases() {
        #expect(Gender.allCases == [.unset, .male, .female])
        #expect(!Gender.allCases.contains(.unknown(9)))
    }
}
