extension Node {
    /// A scalar's text as written, with how it was written.
    public struct Scalar: Sendable, Hashable {
        /// How the scalar was written; only plain scalars are read as numbers, booleans or null.
        public enum Style: Sendable, Hashable {
            case plain, singleQuoted, doubleQuoted, literal, folded
        }

        public var value: String
        public var style: Style
        /// An explicit tag such as `tag:yaml.org,2002:str`, if one was written.
        public var tag: String?

        public init(_ value: String, style: Style = .plain, tag: String? = nil) {
            self.value = value
            self.style = style
            self.tag = tag
        }

        /// The value under YAML 1.2's core schema: `"1"` stays a string, `1` is an int,
        /// `yes` is a string (no YAML 1.1 surprises).
        public var resolved: Resolved {
            if let tag {
                switch tag {
                case "tag:yaml.org,2002:str": return .string(value)
                case "tag:yaml.org,2002:int": return Int(value).map(Resolved.int) ?? .string(value)
                case "tag:yaml.org,2002:float": return Double(value).map(Resolved.double) ?? .string(value)
                case "tag:yaml.org,2002:bool": return Resolved.plain(value)
                case "tag:yaml.org,2002:null": return .null
                default: break
                }
            }
            return style == .plain ? Resolved.plain(value) : .string(value)
        }
    }
}

extension Node.Scalar {
    /// A scalar resolved to its YAML 1.2 core-schema type.
    public enum Resolved: Sendable, Hashable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(String)

        /// Resolves a plain scalar's text.
        static func plain(_ text: String) -> Resolved {
            switch text {
            case "", "~", "null", "Null", "NULL": return .null
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
            case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
            case ".nan", ".NaN", ".NAN": return .double(.nan)
            default: break
            }
            guard let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || first == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            else { return .string(text) }
            if isDecimalInteger(text), let int = Int(text) { return .int(int) }
            if text.hasPrefix("0x"), let int = Int(text.dropFirst(2), radix: 16) { return .int(int) }
            if text.hasPrefix("0o"), let int = Int(text.dropFirst(2), radix: 8) { return .int(int) }
            if isFloat(text), let double = Double(text) { return .double(double) }
            return .string(text)
        }

        private static func isDecimalInteger(_ text: String) -> Bool {
            var digits = Substring(text)
            if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
            return !digits.isEmpty && digits.utf8.allSatisfy { $0 >= 48 && $0 <= 57 }
        }

        /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
        private static func isFloat(_ text: String) -> Bool {
            var bytes = Substring(text).utf8[...]
            func digits() -> Int {
                let count = bytes.prefix { $0 >= 48 && $0 <= 57 }.count
                bytes = bytes.dropFirst(count)
                return count
            }
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let whole = digits()
            if bytes.first == UInt8(ascii: ".") {
                bytes = bytes.dropFirst()
                if digits() == 0 && whole == 0 { return false }
            } else if whole == 0 {
                return false
            }
            if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
                bytes = bytes.dropFirst()
                if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
                if digits() == 0 { return false }
            }
            return bytes.isEmpty
        }

        /// A word for the kind of value, for messages.
        public var kindDescription: String {
            switch self {
            case .null: "null"
            case .bool: "a boolean"
            case .int: "an integer"
            case .double: "a number"
            case .string: "a string"
            }
        }
    }
}
