import Foundation

/// The API's endpoints, grouped by domain: `API.signal.publish(body)`.
public nonisolated enum API {}

/// An HTTP method of the contract.
public nonisolated enum HTTPMethod: String, Sendable, Hashable {
    case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
}

/// A name and value sent in the query or as a header.
public nonisolated struct QueryItem: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Everything needed to call one endpoint; usable with any transport.
public nonisolated struct Endpoint<Response: Decodable & Sendable>: Sendable {
    /// The contract's stable id, such as `signal.publish`.
    public var id: String
    public var method: HTTPMethod
    /// The path below the base path, parameters filled and escaped.
    public var path: String
    public var query: [QueryItem]
    public var headers: [QueryItem]
    /// The JSON body, if the endpoint takes one.
    public var body: (any Encodable & Sendable)?
    /// The `multipart/form-data` body, if the endpoint takes one instead.
    public var multipart: MultipartBody?
    /// Whether a bearer access token is required.
    public var requiresAuth: Bool
    /// Whether a call that met a fault is retried whatever its method (`retry:` in the
    /// contract); nil for the ``RetryPolicy``'s methods.
    public var retriesFaults: Bool?

    public init(id: String, method: HTTPMethod, path: String, query: [QueryItem] = [], headers: [QueryItem] = [],
                body: (any Encodable & Sendable)? = nil, multipart: MultipartBody? = nil, requiresAuth: Bool, retriesFaults: Bool? = nil) {
        self.retriesFaults = retriesFaults
        self.id = id
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.multipart = multipart
        self.requiresAuth = requiresAuth
    }

    /// A path parameter, percent-encoded as one segment. `.` and `..` are encoded too
    /// (`%2E`): as they are, the HTTP stack would remove them as dot-segments and call
    /// another path.
    public static func segment(_ value: String) -> String {
        if value == "." || value == ".." { return String(repeating: "%2E", count: value.count) }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    /// A query name or value with everything but RFC 3986's unreserved characters
    /// percent-encoded (`+`, `&`, `=`, `/`, spaces and non-ASCII included).
    public static func queryComponent(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private static var unreserved: CharacterSet {
        CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    }
}

/// An endpoint answered with server-sent events (`text/event-stream`), each event's
/// data one `Event`, ending with `[DONE]`.
public nonisolated struct StreamEndpoint<Event: Decodable & Sendable>: Sendable {
    /// The request; its body asks for streaming.
    public var request: Endpoint<AccordEmpty>

    public init(request: Endpoint<AccordEmpty>) {
        self.request = request
    }
}

/// An object with no members: `data: {}`.
public nonisolated struct AccordEmpty: Codable, Hashable, Sendable {
    public init() {}
}

nonisolated extension URL {
    /// A URL from a generated fixture, whose text the mock checked; `file:///` if
    /// Foundation does not read it after all.
    public init(fixture text: String) {
        self = URL(string: text) ?? URL(fileURLWithPath: "/")
    }
}

nonisolated extension KeyedDecodingContainer {
    /// An optional member, read leniently: nil when it is absent, `null`, or not
    /// readable as `type` (`""` for a URL, a malformed time), so that one odd optional
    /// value does not fail the whole answer.
    public func decodeLeniently<Value: Decodable>(_ type: Value.Type, forKey key: Key) -> Value? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}

/// A value carried as a JSON string: decoded with `init?(text:)`, encoded as `text`.
public nonisolated protocol StringCodable: Codable {
    init?(text: String)
    var text: String { get }
    /// What the string should have been, for the decoding error.
    static var expectation: String { get }
}

nonisolated extension StringCodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(text: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \(Self.expectation), found \"\(text)\"")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}

/// An RFC 3339 time, with or without fractional seconds (`2026-11-30T08:00:00Z`,
/// `2026-11-30T08:00:00.250+08:00`). Keeps the text it was decoded from, so it
/// encodes back unchanged; equal when it names the same instant.
///
/// What servers write besides RFC 3339 is read too: a space instead of `T`, an offset
/// without its colon or minutes (`+0800`, `+08`), and no zone at all, which is read as
/// UTC. Times this client writes are always RFC 3339 in UTC.
public nonisolated struct AccordDateTime: StringCodable, Hashable, Sendable, CustomStringConvertible {
    public static let expectation = "an RFC 3339 date-time"

    /// The text on the wire.
    public let text: String
    public let date: Date

    /// Reads RFC 3339 text (and the variants above); nil if it is neither.
    public init?(text: String) {
        guard let date = Self.parse(Array(text.utf8)) else { return nil }
        self.text = text
        self.date = date
    }

    /// A time from a generated fixture, whose text the mock checked; the Unix epoch
    /// if it is not a time after all.
    public init(fixture text: String) {
        self = Self(text: text) ?? Self(Date(timeIntervalSince1970: 0))
    }

    /// A time written in UTC with millisecond precision when it has a fraction.
    public init(_ date: Date) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1_000 : (milliseconds - 999) / 1_000
        let fraction = milliseconds - seconds * 1_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = AccordDate.civil(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(year)-\(two(month))-\(two(day))T\(two(time / 3_600)):\(two(time % 3_600 / 60)):\(two(time % 60))"
        if fraction != 0 { text += "." + String(String(fraction + 1_000).dropFirst()) }
        self.text = text + "Z"
        self.date = Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
    }

    public static func == (lhs: AccordDateTime, rhs: AccordDateTime) -> Bool { lhs.date == rhs.date }
    public func hash(into hasher: inout Hasher) { hasher.combine(date) }
    public var description: String { text }

    /// `yyyy-MM-dd(T| )HH:mm:ss(.fraction)?(Z|±HH:mm|±HHmm|±HH)?`.
    private static func parse(_ bytes: [UInt8]) -> Date? {
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard bytes.count >= 19, let year = number(0..<4), bytes[4] == 45, let month = number(5..<7), bytes[7] == 45,
              let day = number(8..<10), bytes[10] == 84 || bytes[10] == 116 || bytes[10] == 32, let hour = number(11..<13), bytes[13] == 58,
              let minute = number(14..<16), bytes[16] == 58, let second = number(17..<19),
              AccordDate.isValid(year: year, month: month, day: day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 46 {
            let start = index + 1
            index = start
            while index < bytes.count, bytes[index] >= 48 && bytes[index] <= 57 { index += 1 }
            guard index > start, let digits = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) else { return nil }
            fraction = digits
        }
        var offset: Int64 = 0
        if index == bytes.count {
            // No zone: UTC.
        } else if bytes[index] == 90 || bytes[index] == 122 {
            guard index + 1 == bytes.count else { return nil }
        } else {
            guard bytes[index] == 43 || bytes[index] == 45, let hours = number(index + 1..<index + 3), hours < 24 else { return nil }
            var minutes: Int64 = 0
            switch bytes.count - index {
            case 3: break
            case 5: guard let value = number(index + 3..<index + 5) else { return nil }; minutes = value
            case 6: guard bytes[index + 3] == 58, let value = number(index + 4..<index + 6) else { return nil }; minutes = value
            default: return nil
            }
            guard minutes < 60 else { return nil }
            offset = (hours * 3_600 + minutes * 60) * (bytes[index] == 45 ? -1 : 1)
        }
        let seconds = AccordDate.days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}

/// A calendar date, `yyyy-MM-dd`, with no time or zone.
public nonisolated struct AccordDate: StringCodable, Hashable, Sendable, CustomStringConvertible {
    public static let expectation = "a date yyyy-MM-dd"

    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid calendar day, or nil.
    public init?(year: Int, month: Int, day: Int) {
        guard Self.isValid(year: Int64(year), month: Int64(month), day: Int64(day)) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// A date from a generated fixture, whose text the mock checked; 1970-01-01 if it
    /// is not a date after all.
    public init(fixture text: String) {
        self = Self(text: text) ?? Self(unchecked: 1970, 1, 1)
    }

    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads `yyyy-MM-dd`.
    public init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var text: String { description }

    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    static func isValid(year: Int64, month: Int64, day: Int64) -> Bool {
        guard (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...lengths[Int(month - 1)]).contains(day)
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A decimal number carried as a string on the wire (`"68.00"`), so no float
/// rounding touches prices; encodes back exactly as received.
public nonisolated struct AccordDecimal: StringCodable, Hashable, Sendable, CustomStringConvertible {
    public static let expectation = "a decimal string such as \"9.99\""
    public let text: String

    public init?(text: String) {
        guard Decimal(string: text) != nil, text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) else { return nil }
        self.text = text
    }

    public init(_ value: Decimal) {
        text = value.description
    }

    /// A decimal from a generated fixture, whose text the mock checked; kept as it is.
    public init(fixture text: String) {
        self.text = text
    }

    /// The value, for arithmetic.
    public var decimal: Decimal { Decimal(string: text) ?? 0 }

    public var description: String { text }
}

/// Any JSON value, for members the contract types as `any`. Integers stay exact to
/// 64 bits (`integer`); only other numbers are `Double`s.
public nonisolated enum AccordJSON: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([AccordJSON])
    case object([String: AccordJSON])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([AccordJSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: AccordJSON].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
