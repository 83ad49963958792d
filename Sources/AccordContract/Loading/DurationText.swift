/// Durations as contracts, fixtures, templates, control calls and the command line
/// write them, parsed with checked arithmetic and a stated bound.
///
/// Every duration Accord reads from a file, a request, a header or a flag goes
/// through here, so none can overflow a later addition: the magnitude is at most
/// ``maxSeconds`` (one year), whatever the text says.
public enum DurationText {
    /// The longest duration accepted anywhere: 366 days, in seconds.
    public static let maxSeconds = 366 * 86_400
    /// ``maxSeconds`` in milliseconds.
    public static let maxMilliseconds = maxSeconds * 1_000

    private static let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]

    /// `300s`, `10m`, `2h`, `30d`, optionally negative (`-1h`), in seconds; nil without
    /// a unit, or beyond ±``maxSeconds``.
    public static func seconds(_ text: String) -> Int? {
        guard let unit = text.last.flatMap({ units[$0] }), let amount = Int(text.dropLast()) else { return nil }
        let (seconds, overflow) = amount.multipliedReportingOverflow(by: unit)
        guard !overflow, (-maxSeconds...maxSeconds).contains(seconds) else { return nil }
        return seconds
    }

    /// `seconds` in the largest unit that writes it whole: `1h`, `366d`, `90s`.
    public static func describe(seconds: Int) -> String {
        for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60)] where seconds != 0 && seconds.isMultiple(of: size) {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }

    /// `150ms`, `2s`, `1.5s` or a bare number of milliseconds, in plain decimal digits
    /// (no sign, exponent or hex: `-5s`, `1e1s` and `0x10s` are refused); nil beyond
    /// ``maxMilliseconds``.
    public static func milliseconds(_ text: String) -> Int? {
        let number = text.hasSuffix("ms") ? text.dropLast(2) : text.hasSuffix("s") ? text.dropLast() : Substring(text)
        guard isPlainDecimal(number, fraction: text.hasSuffix("s") && !text.hasSuffix("ms")) else { return nil }
        let value: Int?
        if text.hasSuffix("ms") {
            value = Int(text.dropLast(2))
        } else if text.hasSuffix("s") {
            // Compared as a Double before converting: Int(1e308) would trap.
            value = Double(text.dropLast()).flatMap { seconds in
                seconds.isFinite && seconds >= 0 && seconds * 1_000 <= Double(maxMilliseconds) ? Int(seconds * 1_000) : nil
            }
        } else {
            value = Int(text)
        }
        guard let value, (0...maxMilliseconds).contains(value) else { return nil }
        return value
    }

    /// Digits, and with `fraction` one `.` between digits.
    private static func isPlainDecimal(_ text: Substring, fraction: Bool) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || (fraction && parts.count == 2) else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }
}
