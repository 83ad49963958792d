import Foundation

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
