/// Durations as contracts, fixtures, templates and the command line write them.
public enum DurationText {
    private static let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]

    /// `300s`, `10m`, `2h`, `30d`, optionally negative (`-1h`), in seconds; nil without a unit.
    public static func seconds(_ text: String) -> Int? {
        guard let unit = text.last.flatMap({ units[$0] }), let amount = Int(text.dropLast()) else { return nil }
        return amount * unit
    }

    /// `150ms`, `2s`, `1.5s` or a bare number of milliseconds; nil when negative.
    public static func milliseconds(_ text: String) -> Int? {
        if text.hasSuffix("ms") { return Int(text.dropLast(2)).flatMap { $0 >= 0 ? $0 : nil } }
        if text.hasSuffix("s") { return Double(text.dropLast()).flatMap { $0 >= 0 ? Int($0 * 1_000) : nil } }
        return Int(text).flatMap { $0 >= 0 ? $0 : nil }
    }
}
