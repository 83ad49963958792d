import AccordClientRuntime
import Foundation
import Testing

/// `AccordMembersDecoder` and `AccordMembersEncoder` under a model written as the
/// generator writes one (a member whose Swift name differs from its wire name, a
/// required and an optional one), without any contract.
@Suite struct AccordMembersTests {
    struct Reading: Codable, Equatable {
        var sensorID: String
        var celsius: Double?
        var takenAt: AccordDateTime?

        init(sensorID: String, celsius: Double? = nil, takenAt: AccordDateTime? = nil) {
            self.sensorID = sensorID
            self.celsius = celsius
            self.takenAt = takenAt
        }

        init(from decoder: any Decoder) throws {
            let members = try AccordMembersDecoder(decoder)
            try self.init(sensorID: members.required("sensor_id"), celsius: members.lenient("celsius"), takenAt: members.lenient("taken_at"))
        }

        func encode(to encoder: any Encoder) throws {
            var members = AccordMembersEncoder(encoder)
            try members.required(self.sensorID, "sensor_id")
            try members.optional(self.celsius, "celsius")
            try members.optional(self.takenAt, "taken_at")
        }
    }

    private func decode(_ json: String) throws -> Reading {
        try JSONDecoder().decode(Reading.self, from: Data(json.utf8))
    }

    @Test func membersAreReadByTheirWireNames() throws {
        let reading = try decode(#"{"sensor_id":"s-1","celsius":21.5,"taken_at":"2026-12-06T10:00:00Z","extra":[1]}"#)
        #expect(reading == Reading(sensorID: "s-1", celsius: 21.5, takenAt: AccordDateTime(text: "2026-12-06T10:00:00Z")))
    }

    @Test(arguments: [#"{"sensor_id":"s-1"}"#, #"{"sensor_id":"s-1","celsius":null,"taken_at":null}"#,
                      #"{"sensor_id":"s-1","celsius":"warm","taken_at":"yesterday"}"#])
    func anOptionalMemberAbsentNullOrUnreadableIsNil(json: String) throws {
        #expect(try decode(json) == Reading(sensorID: "s-1"))
    }

    @Test func aRequiredMemberAbsentOrUnreadableFailsNamingItsWireName() throws {
        for json in [#"{"sensorID":"s-1"}"#, #"{"sensor_id":null}"#, #"{"sensor_id":7}"#] {
            let error = try #require(throws: DecodingError.self) { try decode(json) }
            let key: (any CodingKey)? = switch error {
            case .keyNotFound(let key, _): key
            case .valueNotFound(_, let context), .typeMismatch(_, let context): context.codingPath.last
            default: nil
            }
            #expect(key?.stringValue == "sensor_id", "\(json): \(error)")
        }
    }

    /// The members of the object `value` encodes to (JSONEncoder's member order is its own).
    private func members(_ value: Reading) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? NSDictionary)
    }

    @Test func encodingWritesWireNamesAndLeavesNilOut() throws {
        let full = try members(Reading(sensorID: "s-1", celsius: 21.5, takenAt: AccordDateTime(text: "2026-12-06T10:00:00Z")))
        #expect(full == ["sensor_id": "s-1", "celsius": 21.5, "taken_at": "2026-12-06T10:00:00Z"] as NSDictionary)
        #expect(try members(Reading(sensorID: "s-1")) == ["sensor_id": "s-1"] as NSDictionary)
    }

    @Test func theKeyHasOnlyAStringValue() {
        #expect(AccordCodingKey(stringValue: "a").intValue == nil)
        #expect(AccordCodingKey(intValue: 0) == nil)
    }
}
