import AccordJSON

/// Unix times as RFC 3339 timestamps and back, without Foundation's formatters, which
/// are slow and not `Sendable`: the one place Accord does calendar arithmetic.
public enum RFC3339 {
    /// `2026-11-30T08:00:00Z` for `seconds` since 1970.
    public static func format(unixSeconds seconds: Int64) -> String {
        var output = ByteOutput(capacity: 24)
        write(unixSeconds: seconds, into: &output)
        return String(decoding: output.bytes(), as: UTF8.self)
    }

    /// ``format(unixSeconds:)``'s text appended to `output` as bytes, without a string
    /// made first (the journal writes one per request). A year outside 0...9999 is
    /// written with as many digits as it has, and a sign when it is negative.
    public static func write(unixSeconds seconds: Int64, into output: inout ByteOutput) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        if (0...9_999).contains(year) {
            for divisor: Int64 in [1_000, 100, 10, 1] { output.append(UInt8(ascii: "0") + UInt8(year / divisor % 10)) }
        } else {
            if year < 0 { output.append(UInt8(ascii: "-")) }
            let digits = String(year.magnitude).utf8
            for _ in digits.count..<max(digits.count, 4) { output.append(UInt8(ascii: "0")) }
            for digit in digits { output.append(digit) }
        }
        func two(_ separator: UInt8, _ value: Int64) {
            output.append(separator)
            output.append(UInt8(ascii: "0") + UInt8(value / 10))
            output.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        two(UInt8(ascii: "-"), month)
        two(UInt8(ascii: "-"), day)
        two(UInt8(ascii: "T"), secondOfDay / 3_600)
        two(UInt8(ascii: ":"), secondOfDay % 3_600 / 60)
        two(UInt8(ascii: ":"), secondOfDay % 60)
        output.append(UInt8(ascii: "Z"))
    }

    /// The Unix seconds of an RFC 3339 time as HAR files and clients write them
    /// (`2026-11-30T10:00:00.123+08:00`, `…Z`), or nil when `text` is not one.
    public static func unixSeconds(_ text: String) -> Int64? {
        unixMilliseconds(text).map { $0 >= 0 ? $0 / 1_000 : ($0 - 999) / 1_000 }
    }

    /// The Unix milliseconds of an RFC 3339 time (its fraction cut to milliseconds), or nil.
    public static func unixMilliseconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int64? {
            guard range.upperBound <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        guard bytes.count >= 19, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var index = 19
        var milliseconds: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                if digits < 3 { milliseconds = milliseconds * 10 + Int64(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            for _ in min(digits, 3)..<3 { milliseconds *= 10 }
        }
        var offset: Int64 = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            guard let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6) else { return nil }
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        }
        return (days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second - offset) * 1_000 + milliseconds
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
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
