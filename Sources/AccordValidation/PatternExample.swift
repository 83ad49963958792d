/// The shortest string a simple regular expression matches, built from the pattern
/// itself: literals, `\d`, character sets and ranges, groups with `|`, and the
/// quantifiers `?`, `*`, `+`, `{n}`, `{n,m}`. Values the mock makes up from a schema (and
/// the stand-ins lint checks answers with) use it, so they meet their `pattern`. Any
/// other construct (anchors, classes such as `\s`, negated sets) gives nil.
public enum PatternExample {
    public static func shortest(matching pattern: String) -> String? {
        var parser = Parser(characters: Array(pattern))
        guard let text = parser.choice(depth: 0), parser.index == parser.characters.count else { return nil }
        return text
    }

    private struct Parser {
        let characters: [Character]
        var index = 0

        /// Alternatives: the first one's shortest match.
        mutating func choice(depth: Int) -> String? {
            guard depth < 32, let first = sequence(depth: depth) else { return nil }
            while index < characters.count, characters[index] == "|" {
                index += 1
                guard sequence(depth: depth) != nil else { return nil }
            }
            return first
        }

        mutating func sequence(depth: Int) -> String? {
            var output = ""
            while index < characters.count, characters[index] != "|", characters[index] != ")" {
                guard let atom = atom(depth: depth), let count = quantifier() else { return nil }
                output += String(repeating: atom, count: count)
            }
            return output
        }

        mutating func atom(depth: Int) -> String? {
            let character = characters[index]
            index += 1
            switch character {
            case "(":
                if index + 1 < characters.count, characters[index] == "?", characters[index + 1] == ":" { index += 2 }
                guard let inner = choice(depth: depth + 1), index < characters.count, characters[index] == ")" else { return nil }
                index += 1
                return inner
            case "[":
                guard index < characters.count, characters[index] != "^", characters[index] != "\\" else { return nil }
                let first = characters[index]
                while index < characters.count, characters[index] != "]" {
                    if characters[index] == "\\" { return nil }
                    index += 1
                }
                guard index < characters.count else { return nil }
                index += 1
                return String(first)
            case "\\":
                guard index < characters.count else { return nil }
                let escaped = characters[index]
                index += 1
                if escaped == "d" { return "0" }
                return escaped.isLetter || escaped.isNumber ? nil : String(escaped)
            case ".", "^", "$", "*", "+", "?", "{", "]", "}":
                return nil
            default:
                return String(character)
            }
        }

        /// How many times the atom before is repeated in the shortest match.
        mutating func quantifier() -> Int? {
            guard index < characters.count else { return 1 }
            switch characters[index] {
            case "?", "*":
                index += 1
                return 0
            case "+":
                index += 1
                return 1
            case "{":
                guard let close = characters[index...].firstIndex(of: "}") else { return nil }
                let bounds = String(characters[(index + 1)..<close]).split(separator: ",", omittingEmptySubsequences: false)
                guard let low = Int(bounds.first ?? ""), (0...1_000).contains(low) else { return nil }
                index = close + 1
                return low
            default:
                return 1
            }
        }
    }
}
