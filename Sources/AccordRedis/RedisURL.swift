/// Where a shared store is: `redis://HOST:PORT[/DB][?prefix=NAME]`, read strictly so a
/// typo is an error that says what to write, never a default that silently applies.
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    /// A host name or an IPv4 address (IPv6 in brackets is not read).
    public var host: String
    public var port: Int
    /// The logical database (`SELECT`), 0 by default.
    public var database: Int
    /// What every key starts with (`NAME:`), so several mocks share one Redis.
    public var prefix: String

    /// The prefix when the URL names none.
    public static let defaultPrefix = "accord"
    /// The longest host name and prefix read.
    static let maxHostLength = 253
    static let maxPrefixLength = 64

    public init(host: String, port: Int, database: Int = 0, prefix: String = RedisURL.defaultPrefix) {
        self.host = host
        self.port = port
        self.database = database
        self.prefix = prefix
    }

    /// Reads `text`; the error says which part is wrong and what is allowed.
    public init(parsing text: String) throws(RedisError) {
        guard text.hasPrefix("redis://") else {
            throw .invalidURL("'\(text)' is not a Redis URL; write redis://HOST:PORT[/DB][?prefix=NAME] (rediss:// and passwords are not supported)")
        }
        var rest = Substring(text.dropFirst("redis://".count))
        var prefix = Self.defaultPrefix
        if let question = rest.firstIndex(of: "?") {
            prefix = try Self.prefix(in: rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let digits = rest[rest.index(after: slash)...]
            guard (1...5).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let number = Int(digits), number <= 65_535 else {
                throw .invalidURL("the database of '\(text)' is '\(digits)'; write a number from 0 to 65535 after the '/'")
            }
            database = number
            rest = rest[..<slash]
        }
        guard !rest.contains("@") else { throw .invalidURL("'\(text)' carries credentials; Redis passwords are not supported") }
        guard let colon = rest.lastIndex(of: ":") else {
            throw .invalidURL("'\(text)' has no port; write redis://\(rest):6379")
        }
        let host = rest[..<colon]
        let port = rest[rest.index(after: colon)...]
        guard (1...Self.maxHostLength).contains(host.utf8.count), host.utf8.allSatisfy({ Self.isNameByte($0) && $0 != UInt8(ascii: "_") }) else {
            throw .invalidURL("the host of '\(text)' is '\(host)'; write a host name or an IPv4 address")
        }
        guard (1...5).contains(port.count), port.allSatisfy(\.isASCIIDigit), let number = Int(port), (1...65_535).contains(number) else {
            throw .invalidURL("the port of '\(text)' is '\(port)'; write a number from 1 to 65535")
        }
        self.init(host: String(host), port: number, database: database, prefix: prefix)
    }

    private static func prefix(in query: Substring) throws(RedisError) -> String {
        guard query.hasPrefix("prefix=") else {
            throw .invalidURL("the query '\(query)' is not read; the one option is ?prefix=NAME")
        }
        let name = query.dropFirst("prefix=".count)
        guard (1...maxPrefixLength).contains(name.utf8.count), name.utf8.allSatisfy(isNameByte) else {
            throw .invalidURL("the prefix '\(name)' must be 1 to \(maxPrefixLength) letters, digits, '-', '_' or '.'")
        }
        return String(name)
    }

    /// An ASCII letter or digit, '-', '_' or '.'.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."): true
        default: false
        }
    }

    /// `redis://HOST:PORT/DB?prefix=NAME`, as it was read.
    public var description: String { "redis://\(host):\(port)/\(database)?prefix=\(prefix)" }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
