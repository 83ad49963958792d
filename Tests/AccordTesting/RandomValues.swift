import AccordContract
import AccordHTTP
import AccordJSON
import Foundation

/// A seeded generator (SplitMix64): the same seed gives the same values on every machine.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random values that a contract's schema accepts, chosen to be hard on a client:
/// strings full of `+ / = & ? # %`, spaces, Chinese and emoji; integers at both ends of
/// their range; floats of every magnitude; objects with mixed-case and digit keys;
/// nulls and empty arrays.
public struct RandomValues {
    public let contract: Contract
    public var random: SeededRandom

    public init(contract: Contract, seed: UInt64) {
        self.contract = contract
        self.random = SeededRandom(seed: seed)
    }

    /// Characters of a string value; `visibleASCII` for headers.
    private static let hostile = Array("ab+/=&?#% 中文😀~-_.:;,'\"\\\n\tZ9")
    private static let visibleASCII = Array("abcXYZ019+/=&?#%~-_.:;,!*()")
    private static let keys = ["a", "B", "b", "10", "9", "Z_z", "aB", "中"]

    /// A value `schema` accepts; `asHeader` keeps strings to visible ASCII.
    public mutating func value(for schema: Schema, asHeader: Bool = false, depth: Int = 0) -> JSONValue {
        let limits = schema.constraints
        switch schema.kind {
        case .reference(let name):
            guard let declared = contract.types[name] else { return .null }
            var merged = declared.schema
            if !limits.isEmpty { merged.constraints = limits }
            return value(for: merged, asHeader: asHeader, depth: depth)
        case .primitive(let primitive):
            return value(of: primitive, limits: limits, asHeader: asHeader, depth: depth)
        case .union(let union):
            // A random shape, its discriminator first.
            guard let shape = union.cases.randomElement(using: &random),
                  case .object(let members) = value(for: Schema(.reference(shape.typeName), location: shape.location), depth: depth + 1)
            else { return .null }
            return .object([.init(union.discriminator, .string(shape.value))] + members)
        case .enumeration(let cases):
            switch cases.cases.randomElement(using: &random)?.value {
            case .string(let text)?: return .string(text)
            case .int(let number)?: return .int(number)
            case nil: return .null
            }
        case .array(let item):
            let low = limits.minItems ?? 0, high = max(low, min(limits.maxItems ?? 3, low + 3))
            let count = depth > 3 ? low : Int.random(in: low...high, using: &random)
            return .array((0..<count).map { _ in value(for: item, depth: depth + 1) })
        case .map(let item):
            let count = depth > 3 ? 0 : Int.random(in: 0...3, using: &random)
            let names = Array(Self.keys.shuffled(using: &random).prefix(count))
            return .object(names.map { .init($0, value(for: item, depth: depth + 1)) })
        case .object(let fields):
            var members: [JSONValue.Member] = []
            for field in fields {
                if field.isOptional, Bool.random(using: &random) { continue }
                if field.isNullable, Int.random(in: 0..<4, using: &random) == 0 {
                    members.append(.init(field.name, .null))
                    continue
                }
                members.append(.init(field.name, value(for: field.schema, depth: depth + 1)))
            }
            return .object(members)
        }
    }

    private mutating func value(of primitive: Primitive, limits: Constraints, asHeader: Bool, depth: Int) -> JSONValue {
        switch primitive {
        case .string:
            if let pattern = limits.pattern, var sampler = try? PatternSampler(pattern) {
                return .string(sampler.sample(using: &random))
            }
            let low = limits.minLength ?? 0, high = max(low, min(limits.maxLength ?? 24, low + 24))
            let alphabet = asHeader ? Self.visibleASCII : Self.hostile
            return .string(String((0..<Int.random(in: low...high, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        case .int, .int64:
            // An int stays within ±(2^53 - 1); an int64 takes any Int64.
            let widest = primitive == .int ? Primitive.largestExactInteger : Int.max
            let low = limits.minimum.map { Int(max($0.rounded(.up), -9.0e18)) }.map { max($0, -widest) } ?? (primitive == .int ? -widest : Int.min)
            let high = limits.maximum.map { Int(min($0.rounded(.down), 9.0e18)) }.map { min($0, widest) } ?? widest
            let edges = [low, high, 0, -1, 1].filter { (low...high).contains($0) }
            return .int(Bool.random(using: &random) ? edges.randomElement(using: &random)! : Int.random(in: low...high, using: &random))
        case .double:
            let low = limits.minimum ?? -1e300, high = limits.maximum ?? 1e300
            let candidates = [0.1, 1e20, -3.5e-7, 2.5, 1e-300, 123_456.789, -0.5].filter { (low...high).contains($0) }
            if let pick = candidates.randomElement(using: &random), Bool.random(using: &random) { return .double(pick) }
            return .double(Double.random(in: low...high, using: &random))
        case .bool:
            return .bool(Bool.random(using: &random))
        case .decimal:
            return .string("\(Int.random(in: 0...99_999, using: &random)).\(Int.random(in: 10...99, using: &random))")
        case .dateTime:
            let seconds = Int.random(in: 0...4_000_000_000, using: &random)
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            return .string(formatter.string(from: date))
        case .date:
            return .string(String(format: "%04d-%02d-%02d", Int.random(in: 1900...2100, using: &random),
                                  Int.random(in: 1...12, using: &random), Int.random(in: 1...28, using: &random)))
        case .url:
            return .string("https://cdn.example.com/a%20b/\(Int.random(in: 0...999, using: &random)).png?x=1&y=%2B")
        case .any:
            let names = Array(Self.keys.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)))
            return .object(names.map { name in
                .init(name, Bool.random(using: &random) ? .int(Int.random(in: Int.min...Int.max, using: &random))
                                                        : value(of: .string, limits: Constraints(), asHeader: false, depth: depth + 1))
            })
        }
    }
}

/// Strings that match the small regular expressions contracts use: literals, `\d`,
/// `\.`-style escapes, `[A-Z0-9]` classes, groups with `|`, and `?`, `*`, `+`, `{n}`,
/// `{n,m}`.
public struct PatternSampler {
    private indirect enum Node {
        case literal(Character)
        case set([Character])
        case sequence([Node])
        case choice([Node])
        case repeated(Node, min: Int, max: Int)
    }

    private struct Unsupported: Error {}

    private let root: Node
    private var characters: [Character] = []

    public init(_ pattern: String) throws {
        characters = Array(pattern)
        var index = 0
        root = try Self.parseChoice(characters, &index)
        guard index == characters.count else { throw Unsupported() }
    }

    public mutating func sample(using random: inout SeededRandom) -> String {
        var output = ""
        Self.emit(root, into: &output, using: &random)
        return output
    }

    private static func emit(_ node: Node, into output: inout String, using random: inout SeededRandom) {
        switch node {
        case .literal(let character): output.append(character)
        case .set(let options): output.append(options.randomElement(using: &random)!)
        case .sequence(let nodes): for node in nodes { emit(node, into: &output, using: &random) }
        case .choice(let options): emit(options.randomElement(using: &random)!, into: &output, using: &random)
        case .repeated(let node, let low, let high):
            for _ in 0..<Int.random(in: low...high, using: &random) { emit(node, into: &output, using: &random) }
        }
    }

    private static func parseChoice(_ text: [Character], _ index: inout Int) throws -> Node {
        var options = [try parseSequence(text, &index)]
        while index < text.count, text[index] == "|" {
            index += 1
            options.append(try parseSequence(text, &index))
        }
        return options.count == 1 ? options[0] : .choice(options)
    }

    private static func parseSequence(_ text: [Character], _ index: inout Int) throws -> Node {
        var nodes: [Node] = []
        while index < text.count, text[index] != "|", text[index] != ")" {
            var atom: Node
            switch text[index] {
            case "(":
                index += 1
                atom = try parseChoice(text, &index)
                guard index < text.count, text[index] == ")" else { throw Unsupported() }
                index += 1
            case "[":
                index += 1
                var options: [Character] = []
                // Negated sets and escapes inside a set are beyond this sampler.
                if index < text.count, text[index] == "^" { throw Unsupported() }
                while index < text.count, text[index] != "]" {
                    if text[index] == "\\" { throw Unsupported() }
                    if index + 2 < text.count, text[index + 1] == "-", text[index + 2] != "]",
                       let low = text[index].unicodeScalars.first?.value, let high = text[index + 2].unicodeScalars.first?.value, low <= high {
                        options += (low...high).compactMap { Unicode.Scalar($0).map(Character.init) }
                        index += 3
                    } else {
                        options.append(text[index])
                        index += 1
                    }
                }
                guard index < text.count, !options.isEmpty else { throw Unsupported() }
                index += 1
                atom = .set(options)
            case "\\":
                guard index + 1 < text.count else { throw Unsupported() }
                let escaped = text[index + 1]
                // \d is a digit; other letters are classes (\s, \w) this sampler does not draw from.
                if escaped.isLetter && escaped != "d" { throw Unsupported() }
                atom = escaped == "d" ? .set(Array("0123456789")) : .literal(escaped)
                index += 2
            case ".", "^", "$":
                throw Unsupported()
            default:
                atom = .literal(text[index])
                index += 1
            }
            if index < text.count {
                switch text[index] {
                case "?": atom = .repeated(atom, min: 0, max: 1); index += 1
                case "*": atom = .repeated(atom, min: 0, max: 3); index += 1
                case "+": atom = .repeated(atom, min: 1, max: 3); index += 1
                case "{":
                    guard let close = text[index...].firstIndex(of: "}") else { throw Unsupported() }
                    let bounds = String(text[(index + 1)..<close]).split(separator: ",", omittingEmptySubsequences: false)
                    guard let low = Int(bounds[0]) else { throw Unsupported() }
                    let high = bounds.count > 1 ? (Int(bounds[1]) ?? low + 3) : low
                    atom = .repeated(atom, min: low, max: max(low, high))
                    index = close + 1
                default: break
                }
            }
            nodes.append(atom)
        }
        return .sequence(nodes)
    }
}
