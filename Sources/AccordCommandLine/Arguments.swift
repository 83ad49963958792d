import AccordContract
import Foundation
/// A command's parsed arguments: `--name value`, `--name=value`, flags and positionals.
public struct Arguments {
    /// An option a command accepts.
    public struct Option: Sendable {
        public var name: String
        /// What its value is called in the usage (`DIR`); nil for a flag.
        public var valueName: String?
        public var help: String

        public init(name: String, valueName: String? = nil, help: String) {
            self.name = name
            self.valueName = valueName
            self.help = help
        }

        /// `--name VALUE` or `--name`.
        public var usage: String { valueName.map { "--\(name) \($0)" } ?? "--\(name)" }
    }

    /// Every value given to each option, in order (options may repeat).
    public private(set) var values: [String: [String]] = [:]
    public private(set) var flags: Set<String> = []
    /// The arguments that are not options, in order (file names).
    public private(set) var positionals: [String] = []

    /// Parses `arguments` against `options`; positionals are refused unless `takesPositionals`.
    public init(_ arguments: [String], options: [Option], takesPositionals: Bool = false) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            guard argument.hasPrefix("--") else {
                guard takesPositionals else { throw UsageError("unexpected argument '\(argument)'") }
                positionals.append(argument)
                continue
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            guard let option = options.first(where: { $0.name == name }) else {
                let hint = NameHint.hint(for: name, in: options.map(\.name)).map { "; did you mean '--\($0)'?" } ?? ""
                throw UsageError("unknown option '--\(name)'\(hint)")
            }
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            if option.valueName == nil {
                guard inline == nil else { throw UsageError("'--\(name)' takes no value") }
                flags.insert(name)
            } else if let inline {
                values[name, default: []].append(inline)
            } else if let next = remaining.popFirst(), !next.hasPrefix("--") {
                values[name, default: []].append(next)
            } else {
                throw UsageError("'--\(name)' needs a value: \(option.usage)")
            }
        }
    }

    /// The last value given to `name`.
    public subscript(name: String) -> String? { values[name]?.last }

    /// Every value given to `name`.
    public func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether the flag `--flag` was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A mistake in how a command was called: printed with the usage, exit status 2.
public struct UsageError: Error {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}

extension Arguments {
    /// A size option (`512KiB`, `2MiB`, bytes) from `minimum` to 1 GiB, if given.
    public func size(_ option: String, minimum: Int = 0, example: String) throws(UsageError) -> Int? {
        guard let text = self[option] else { return nil }
        guard let bytes = ByteSizeText.bytes(text), bytes >= minimum else {
            let from = minimum == 0 ? "up to 1GiB" : "from \(ByteSizeText.describe(minimum)) to 1GiB"
            throw UsageError("'--\(option)' takes a size \(from) such as \(example), found '\(text)'")
        }
        return bytes
    }

    /// A duration option (`30s`, `10m`, `2h` or seconds) from 1 s to `maximum` (an hour unless given), if given.
    public func seconds(_ option: String, upTo maximum: Int = 3_600, example: String) throws(UsageError) -> Int? {
        guard let text = self[option] else { return nil }
        guard let seconds = DurationText.seconds(text) ?? Int(text), (1...maximum).contains(seconds) else {
            throw UsageError("'--\(option)' takes a duration from 1s to \(DurationText.describe(seconds: maximum)) such as \(example), found '\(text)'")
        }
        return seconds
    }

    /// A whole-number option within `range`, if given.
    public func integer(_ option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = self[option] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("'--\(option)' takes a number from \(range.lowerBound) to \(range.upperBound), found '\(text)'")
        }
        return value
    }

    /// A port option, 0 to 65535 (0 picks a free one), if given.
    public func port(_ option: String) throws(UsageError) -> UInt16? {
        try integer(option, in: 0...65_535).map { UInt16($0) }
    }

    /// A directory option: the one given, which must exist, else `fallback` (which may not).
    public func directory(_ option: String, else fallback: String) throws(UsageError) -> String {
        guard let path = self[option] else { return fallback }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw UsageError("'--\(option)' names '\(path)', which is not a directory")
        }
        return path
    }

    /// Every value of a repeatable `NAME:VALUE` option (`--header X-OS:ios`), split at
    /// the first colon, the value trimmed of spaces.
    public func colonPairs(_ option: String, form: String = "NAME:VALUE") throws(UsageError) -> [(name: String, value: String)] {
        try all(option).map { (text) throws(UsageError) in
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { throw UsageError("'--\(option)' takes \(form), found '\(text)'") }
            return (String(text[..<colon]), String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
    }
}
