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

    /// An open enum's `Codable` (the standard library's for a raw value): known values and
    /// unknown ones in, the same JSON out; a value of the wrong JSON type still fails.
    @Test func openEnumsDecodeUnknownValuesAndEncodeThemBack() throws {
        let genders = try decode([Gender].self, "[0,1,9]")
        #expect(genders == [.unset, .male, .unknown(9)])
        #expect(String(decoding: try JSONEncoder().encode(genders), as: UTF8.self) == "[0,1,9]")
        let periods = try decode([Period].self, #"["monthly","weekly"]"#)
        #expect(periods == [.monthly, .unknown("weekly")])
        #expect(String(decoding: try JSONEncoder().encode(periods), as: UTF8.self) == #"["monthly","weekly"]"#)
        #expect(throws: DecodingError.self) { try decode(Gender.self, #""male""#) }
        #expect(throws: DecodingError.self) { try decode(Period.self, "1") }
    }

    @Test func openEnumsListTheirKnownCases() {
        #expect(Gender.allCases == [.unset, .male, .female])
        #expect(!Gender.allCases.contains(.unknown(9)))
    }
}
