/// Sizes as the command line and contracts write them (`1048576`, `512KiB`, `512k`,
/// `4MiB`, `4m`, `1GiB`), parsed with checked arithmetic and a stated bound.
public enum ByteSizeText {
    /// The largest size accepted anywhere: 1 GiB.
    public static let maxBytes = 1 << 30

    /// The size in bytes; nil for another text, below 0, or past `limit`.
    public static func bytes(_ text: String, limit: Int = maxBytes) -> Int? {
        let lower = text.lowercased().trimmingCharacters(in: [" "])
        let (digits, factor) = [("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30), ("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30), ("b", 1)]
            .first { lower.hasSuffix($0.0) }.map { (lower.dropLast($0.0.count), $0.1) } ?? (Substring(lower), 1)
        guard let amount = Int(digits), amount >= 0 else { return nil }
        let (bytes, overflow) = amount.multipliedReportingOverflow(by: factor)
        return !overflow && bytes <= limit ? bytes : nil
    }

    /// `bytes` in the largest unit that divides it, as the options write sizes: `1KiB`, `4MiB`, `1000`.
    public static func describe(_ bytes: Int) -> String {
        for (unit, factor) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor)\(unit)"
        }
        return String(bytes)
    }
}

extension Contract {
    /// The largest multipart body an endpoint admits: its files' `max_size`, plus room
    /// for text parts and part headers. Zero without multipart endpoints.
    public var largestMultipartBody: Int {
        endpoints.map { $0.largestMultipartBody ?? 0 }.max() ?? 0
    }
}

extension Endpoint {
    /// The largest multipart body this endpoint admits: its files' `max_size`, plus room
    /// for text parts and part headers; nil for an endpoint without a multipart body.
    public var largestMultipartBody: Int? {
        multipart.map { parts in parts.reduce(0) { $0 + ($1.file?.maxSize ?? 0) } + 64 << 10 }
    }
}
