/// How an open enum's `init(rawValue:)` tells its known values apart: a plain call per
/// value, which the type checker settles at once, where a `switch` over literals has it
/// resolve the `~=` operator for every case (about half of what checking such an enum
/// cost). At run time it is the same comparison, in the same order.
public nonisolated enum AccordRawValue {
    /// Whether `rawValue` is `value`.
    @inline(__always)
    public static func matches(_ rawValue: String, _ value: String) -> Bool {
        rawValue == value
    }

    /// Whether `rawValue` is `value`.
    @inline(__always)
    public static func matches(_ rawValue: Int, _ value: Int) -> Bool {
        rawValue == value
    }
}
