import AccordClientRuntime
import Foundation
import Testing

/// What every generated open enum gets from `AccordOpenEnum`: its known values by raw
/// value, any other value kept as `unknown` and written back unchanged.
@Suite struct OpenEnumTests {
    /// Shaped as the generator writes one, with a value that is not an identifier.
    enum Status: AccordOpenEnum {
        case active
        case imagePNG
        case unknown(String)

        static let allCases: [Self] = [.active, .imagePNG]

        var rawValue: String {
            switch self {
            case .active: "active"
            case .imagePNG: "image/png"
            case .unknown(let value): value
            }
        }
    }

    enum Gender: AccordOpenEnum {
        case unset
        case female
        case unknown(Int)

        static let allCases: [Self] = [.unset, .female]

        var rawValue: Int {
            switch self {
            case .unset: 0
            case .female: 2
            case .unknown(let value): value
            }
        }
    }

    @Test func aKnownValueIsItsCaseAndAnyOtherIsKept() {
        #expect(Status(rawValue: "active") == .active)
        #expect(Status(rawValue: "image/png") == .imagePNG)
        #expect(Status(rawValue: "Active") == .unknown("Active"))
        #expect(Status(rawValue: "") == .unknown(""))
        #expect(Gender(rawValue: 2) == .female)
        #expect(Gender(rawValue: 1) == .unknown(1))
    }

    @Test func anUnknownValueDecodesAndEncodesBackUnchanged() throws {
        let json = Data(#"["active","image/png","archived"]"#.utf8)
        let statuses = try JSONDecoder().decode([Status].self, from: json)
        #expect(statuses == [.active, .imagePNG, .unknown("archived")])
        #expect(try JSONEncoder().encode(statuses) == Data(#"["active","image\/png","archived"]"#.utf8))
        let genders = try JSONDecoder().decode([Gender].self, from: Data("[0,7]".utf8))
        #expect(genders == [.unset, .unknown(7)])
        #expect(try JSONEncoder().encode(genders) == Data("[0,7]".utf8))
    }

    /// A value of the wrong JSON type is not a value of the enum at all.
    @Test func aValueOfAnotherTypeFailsToDecode() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Status].self, from: Data("[1]".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Gender].self, from: Data(#"["0"]"#.utf8)) }
    }
}
