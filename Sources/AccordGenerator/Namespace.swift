/// Every declaration of the generated files nested in one enum (`--namespace Tongban`:
/// `Tongban.API`, `Tongban.Endpoint`, `Tongban.Signal`), so that none of its names meets
/// another module's at the top level (Moya's and Alamofire's `Endpoint`, `HTTPMethod`…).
///
/// Types go into `extension Tongban { … }`. An extension stays at the top level, as Swift
/// wants, extending the nested type (`extension Tongban.API`); since its body does not see
/// the namespace's members, each name of the namespace it uses is written qualified —
/// except where the name means something of the extended type's own (its generic
/// parameters, its nested types) or of the extension's (a generic parameter, a nested type).
struct Namespace: Sendable {
    /// The enum's name.
    let name: String
    /// The names nested in it: every top-level type of the output.
    let nested: Set<String>
    /// For each nested type, the names its own scope declares, which its extensions mean
    /// unqualified: generic parameters and member types.
    private let scopes: [String: Set<String>]

    /// The namespace `name` over the files' top-level types.
    init(name: String, files: [TopLevelDeclarations]) {
        self.name = name
        var nested: Set<String> = []
        // The declarations of each type that an extension extends: only their scopes are read.
        var declarations: [String: [[Substring]]] = [:]
        var extended: Set<String> = []
        for file in files {
            for case .declaration(let kind, let lines) in file.items {
                switch kind {
                case .type(let type):
                    nested.insert(type)
                    declarations[type, default: []].append(lines)
                case .extension(let subject) where !subject.hasPrefix("["):
                    let root = Self.root(of: subject)
                    extended.insert(root)
                    declarations[root, default: []].append(lines)
                case .extension, .other:
                    break
                }
            }
        }
        self.nested = nested
        var scopes: [String: Set<String>] = [:]
        for type in extended {
            var names: Set<String> = []
            for lines in declarations[type] ?? [] { names.formUnion(Self.declaredNames(in: lines)) }
            scopes[type] = names.subtracting([type])
        }
        self.scopes = scopes
    }

    /// Why `name` cannot name the namespace (`is a Swift keyword`), or nil: it must be an
    /// identifier that is no keyword, no module the output imports and no name it declares.
    static func problem(with name: String, declared: Set<String>) -> String? {
        guard let first = name.utf8.first, SwiftIdentifiers.startsIdentifier(first), first < 0x80,
              name.utf8.allSatisfy({ SwiftIdentifiers.continuesIdentifier($0) && $0 < 0x80 }) else {
            return "is not a Swift identifier (letters, digits and '_', not starting with a digit)"
        }
        if Naming.keywords.contains(name) { return "is a Swift keyword" }
        if ["Swift", "Foundation"].contains(name) { return "is the name of a module the generated code imports" }
        if declared.contains(name) { return "is a type the generated code declares already" }
        return nil
    }

    /// The file that declares the enum.
    func declaration(access: String) -> String {
        "/// The namespace of everything generated from the contracts: `\(name).API`, `\(name).APIClient`, the models.\n"
            + "\(access)nonisolated enum \(name) {}\n"
    }

    /// The file with its types nested and its extensions extending the nested types.
    func apply(to file: TopLevelDeclarations) -> String {
        var output = Array(file.header.joined(separator: "\n").utf8)
        // Whether `extension Name {` is open; blank lines wait to see on which side of its end they fall.
        var open = false
        var blanks = 0
        let opening = Array("\nnonisolated extension \(name) {".utf8)
        func emit(_ lines: [Substring], nestedInside: Bool) {
            if open && !nestedInside { output += [UInt8(ascii: "\n"), UInt8(ascii: "}")] }
            output += repeatElement(UInt8(ascii: "\n"), count: blanks)
            blanks = 0
            if !open && nestedInside { output += opening }
            open = nestedInside
            for line in lines {
                output.append(UInt8(ascii: "\n"))
                if nestedInside && !line.isEmpty { output += repeatElement(UInt8(ascii: " "), count: 4) }
                output += line.utf8
            }
        }
        for (position, item) in file.items.enumerated() {
            switch item {
            case .blank:
                blanks += 1
            case .directive(let line):
                emit([line], nestedInside: open || Self.nextIsType(file.items[(position + 1)...]))
            case .declaration(.type, let lines):
                emit(Self.filePrivate(lines), nestedInside: true)
            case .declaration(.extension(let subject), let lines):
                emit(qualified(lines, extending: subject), nestedInside: false)
            case .declaration(.other, let lines):
                emit(lines, nestedInside: false)
            }
        }
        if open { output += [UInt8(ascii: "\n"), UInt8(ascii: "}")] }
        output += repeatElement(UInt8(ascii: "\n"), count: blanks)
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether the next declaration is a type (so a directive before it opens the namespace).
    private static func nextIsType(_ items: ArraySlice<TopLevelDeclarations.Item>) -> Bool {
        for case .declaration(let kind, _) in items {
            if case .type = kind { return true }
            return false
        }
        return false
    }

    /// A `private` type at the top level is `fileprivate` once nested, so the extensions in its file still see it.
    private static func filePrivate(_ lines: [Substring]) -> [Substring] {
        lines.map { $0.utf8.first == UInt8(ascii: "p") && $0.hasPrefix("private ") ? "fileprivate " + $0.dropFirst("private ".count) : $0 }
    }

    /// An extension's lines with every name of the namespace it means written `Name.Type`.
    private func qualified(_ lines: [Substring], extending subject: String) -> [Substring] {
        let text = Array(lines.joined(separator: "\n").utf8)
        let root = Self.root(of: subject)
        var own = subject.hasPrefix("[") ? ["Element"] : scopes[root] ?? Self.foreignScopes[root] ?? []
        own.formUnion(Self.declaredNames(in: lines))
        own.remove(root)
        var result: [UInt8] = []
        result.reserveCapacity(text.count + 256)
        var copied = 0
        let prefix = Array((name + ".").utf8)
        for occurrence in SwiftIdentifiers.scan(text) where occurrence.preceding != UInt8(ascii: ".") && occurrence.preceding != UInt8(ascii: "@") {
            let identifier = String(decoding: text[occurrence.range], as: UTF8.self)
            guard nested.contains(identifier), !own.contains(identifier) else { continue }
            result += text[copied..<occurrence.range.lowerBound] + prefix
            copied = occurrence.range.lowerBound
        }
        result += text[copied...]
        return String(decoding: result, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The generic parameters of the standard library's and Foundation's types the runtime extends.
    private static let foreignScopes: [String: Set<String>] = ["KeyedDecodingContainer": ["Key"], "Array": ["Element"],
                                                               "Dictionary": ["Key", "Value"], "Optional": ["Wrapped"]]

    /// `API` of `API`, `API.signal` or `[API]`.
    static func root(of subject: String) -> String {
        String(subject.drop { $0 == "[" }.prefix { $0 != "." && $0 != "]" && $0 != "<" })
    }

    /// The generic parameters and the types that `lines` declare, at any depth.
    static func declaredNames<Lines: Sequence<Substring>>(in lines: Lines) -> Set<String> {
        var names: Set<String> = []
        for line in lines {
            var declares = false
            for word in line.utf8.split(separator: UInt8(ascii: " ")) {
                if declares { names.insert(String(decoding: word.prefix(while: SwiftIdentifiers.continuesIdentifier), as: UTF8.self)) }
                declares = typeKeywords.contains { $0.elementsEqual(word) }
            }
            if line.utf8.contains(UInt8(ascii: "<")) { names.formUnion(genericParameters(in: line)) }
        }
        return names
    }

    private static let typeKeywords: [[UInt8]] = TopLevelDeclarations.typeKeywords.union(["associatedtype"]).map { Array($0.utf8) }

    /// `Value` and `Key` of `func decode<Value: Decodable, Key>(…)`, `struct Box<Value>`, `init<Value>(…)`.
    private static func genericParameters(in line: Substring) -> [String] {
        var parameters: [String] = []
        var rest = line[...]
        while let open = rest.firstIndex(of: "<") {
            let before = rest[..<open].split(separator: " ").suffix(2)
            let declares = before.last.map { $0 == "init" || $0 == "subscript" } == true
                || (before.count == 2 && ["func", "struct", "enum", "class", "actor", "typealias"].contains(before.first!))
            var depth = 0
            var piece = ""
            var index = open
            while index < rest.endIndex {
                let character = rest[index]
                if character == "<" { depth += 1 } else if character == ">" { depth -= 1 }
                if depth == 0 || (depth == 1 && character == ",") {
                    if declares { parameters.append(String(piece.drop { $0 == " " || $0 == "<" || $0 == "," }.prefix { $0.isLetter || $0.isNumber || $0 == "_" })) }
                    piece = ""
                    if depth == 0 { break }
                } else {
                    piece.append(character)
                }
                index = rest.index(after: index)
            }
            rest = index < rest.endIndex ? rest[rest.index(after: index)...] : rest[rest.endIndex...]
        }
        return parameters.filter { !$0.isEmpty }
    }
}
