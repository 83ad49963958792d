import Foundation

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
