import AccordContract

/// Swift names from wire names, as the Swift API Design Guidelines write them:
/// `snake_case` → `lowerCamelCase`, types in `UpperCamelCase`, acronyms uniformly cased
/// (`signal_id` → `signalID`, `ai-chat` → `AIChat`, `url` → `url`), keywords escaped.
/// The acronyms are the generator's own and those the contract adds (`swift: {acronyms: [kb]}`).
struct Naming: Sendable {
    /// The generator's own acronyms: words written all in capitals unless they begin a lowerCamelCase name.
    static let builtInAcronyms: Set<String> = [
        "ai", "api", "gif", "heic", "html", "http", "https", "iap", "id", "im", "ip", "jpeg", "json", "jwt", "os", "png", "sdk", "sms",
        "ttl", "ui", "uri", "url", "uuid", "vip",
    ]

    /// Every acronym in force.
    let acronyms: Acronyms

    /// The contract's named types.
    let typeNames: Set<String>

    /// Each endpoint's function by id (``endpointFunction(_:domain:)``), with the name it
    /// would have had when it was renamed.
    private(set) var endpointFunctions: [String: (name: String, renamedFrom: String?)] = [:]

    /// Each domain's property on `API` by its name (``domainProperty(_:)``), with the name
    /// it would have had when it was renamed.
    private(set) var domainNames: [String: (name: String, renamedFrom: String?)] = [:]

    /// Each streaming endpoint's `…Stream` function by id, unique among its domain's
    /// functions (``streamFunction(_:)``), with the name it would have had when it was renamed.
    private(set) var streamFunctions: [String: (name: String, renamedFrom: String?)] = [:]

    /// Each endpoint's stem of the types it declares inline by id (``endpointType(_:)``),
    /// with the stem it would have had when it was renamed.
    private(set) var endpointTypes: [String: (name: String, renamedFrom: String?)] = [:]

    init(contract: Contract) {
        acronyms = Acronyms(Self.builtInAcronyms.union(contract.service.swift.acronyms))
        typeNames = Set(contract.types.keys)
        let stems = Self.unique(contract.endpoints.map { type($0.id) }, reserved: [])
        for (endpoint, stem) in zip(contract.endpoints, stems) { endpointTypes[endpoint.id] = stem }
        let domains = contract.domains.map(\.name)
        for (domain, name) in zip(domains, Self.unique(domains.map(property), reserved: Self.reservedDomainNames)) { domainNames[domain] = name }
        for (domain, endpoints) in Dictionary(grouping: contract.endpoints, by: \.domain) {
            let names = Self.unique(endpoints.map { naturalFunction($0.id, domain: domain) }, reserved: Self.reservedFunctionNames)
            for (endpoint, name) in zip(endpoints, names) { endpointFunctions[endpoint.id] = name }
            // A stream's function comes after every endpoint's: `chat.reply-stream` keeps `replyStream`.
            let streaming = zip(endpoints, names).filter { $0.0.stream != nil && $0.0.body != nil }
            let all = Self.unique(names.map(\.name) + streaming.map { Self.bare($0.1.name) + "Stream" }, reserved: Self.reservedFunctionNames)
            for ((endpoint, _), name) in zip(streaming, all.dropFirst(names.count)) { streamFunctions[endpoint.id] = name }
        }
    }

    /// `expires_at` → `expiresAt`; `signal_id` → `signalID`; `ai_score` → `aiScore`; `2fa` → `_2fa`; a name with no
    /// letter or digit at all (`" "`, `"-"`, as enums in OpenAPI documents have) → `empty`.
    func property(_ wire: String) -> String {
        let joined = asciiCamelCase(wire, lowerFirst: true) ?? lowerCamelCase(Self.words(wire))
        guard !joined.isEmpty else { return "empty" }
        return Self.escaped(Self.clearOfLeadingDigit(joined))
    }

    /// `login-phone` → `LoginPhone`; `ai.chat` → `AIChat`; `signal` → `Signal`.
    func type(_ wire: String) -> String {
        Self.clearOfLeadingDigit(asciiCamelCase(wire, lowerFirst: false) ?? Self.words(wire).map(capitalized).joined())
    }

    /// The words of a name that is not all ASCII joined as ``property(_:)`` joins them.
    private func lowerCamelCase(_ words: [String]) -> String {
        guard let first = words.first else { return "" }
        // An acronym or a word in capitals (`PUT`) starts the name in lower case whole.
        let shouted = first.allSatisfy { $0.isUppercase || $0.isNumber }
        let head = acronyms.contains(first.lowercased()) || shouted ? first.lowercased() : first.prefix(1).lowercased() + first.dropFirst()
        return head + words.dropFirst().map(capitalized).joined()
    }

    /// `2fa` → `_2fa`: an identifier cannot start with a digit.
    private static func clearOfLeadingDigit(_ name: String) -> String {
        name.first?.isNumber == true ? "_" + name : name
    }

    /// ``property(_:)``'s and ``type(_:)``'s words joined, for a name all in ASCII (almost every
    /// wire name), on its bytes without a string per word; nil for any other name. The first word
    /// is lowercased as `property` does it when `lowerFirst`, else capitalized as the others.
    private func asciiCamelCase(_ wire: String, lowerFirst: Bool) -> String? {
        var wire = wire
        return wire.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            var name: [UInt8] = []
            name.reserveCapacity(bytes.count)
            var start = 0
            while start < bytes.count {
                guard ASCIIByte.isAlphanumeric(bytes[start]) else { start += 1; continue }
                var end = start + 1
                while end < bytes.count, ASCIIByte.isAlphanumeric(bytes[end]) { end += 1 }
                append(UnsafeBufferPointer(rebasing: bytes[start..<end]), lowered: lowerFirst && name.isEmpty, to: &name)
                start = end
            }
            return String(decoding: name, as: UTF8.self)
        }
    }

    /// One word of ``asciiCamelCase(_:lowerFirst:)``: capitalized, all in capitals when it is an
    /// acronym, or, `lowered` (the first word of a property), in lower case as the first letter
    /// or, for an acronym or a word in capitals (`PUT`), whole.
    private func append(_ word: UnsafeBufferPointer<UInt8>, lowered: Bool, to name: inout [UInt8]) {
        let acronym = acronyms.contains(lowercasing: word)
        if lowered {
            let shouted = word.allSatisfy { ASCIIByte.isUppercase($0) || ASCIIByte.isDigit($0) }
            if acronym || shouted {
                name += word.lazy.map(ASCIIByte.lowercased)
            } else {
                name.append(ASCIIByte.lowercased(word[0]))
                name += word.dropFirst()
            }
        } else if acronym {
            name += word.lazy.map(ASCIIByte.uppercased)
        } else {
            name.append(ASCIIByte.uppercased(word[0]))
            name += word.dropFirst()
        }
    }

    /// Split at anything that cannot be in an identifier (`_`, `-`, `.`, `/`, `+`, spaces …):
    /// `image/png` → `image`, `png`. (An ASCII name is split on its bytes: ``asciiCamelCase(_:lowerFirst:)``.)
    private static func words(_ wire: String) -> [String] {
        wire.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(String.init)
    }

    /// `signal` → `signal`, the domain's property on `API`; `ai-chat` → `aiChat`, unique
    /// among the domains in the contract's order (`ai_chat` after it is `aiChat2`) and
    /// none of ``reservedDomainNames``.
    func domainProperty(_ domain: String) -> String {
        domainNames[domain]?.name ?? property(domain)
    }

    /// `ai-chat` → `AIChat`, the stem of the domain's struct and files (`AIChatEndpoints`,
    /// `API+AIChat.swift`), with the suffix its property took when renamed (`AIChat2`).
    func domainType(_ domain: String) -> String {
        guard let name = domainNames[domain], let natural = name.renamedFrom else { return type(domain) }
        return type(domain) + Self.bare(name.name).dropFirst(natural.count)
    }

    /// `ai.chat` → `AIChat`, the stem of the types the endpoint declares inline
    /// (`AIChatRequest`, `AIChatResponse`, `AIChatEvent`): unique among the endpoints in the
    /// contract's order (`ai_chat` after `ai.chat` is `AIChat2`).
    func endpointType(_ id: String) -> String {
        endpointTypes[id]?.name ?? type(id)
    }

    /// `signal.publish` → `publish`; `auth.login-phone` → `loginPhone`; unique in its
    /// domain, in the contract's order (`dup.getList` after `dup.get-list` is `getList2`),
    /// and never one of ``reservedFunctionNames``.
    func endpointFunction(_ id: String, domain: String) -> String {
        endpointFunctions[id]?.name ?? naturalFunction(id, domain: domain)
    }

    /// The `…Stream` function of a streaming endpoint: `replyStream` for `chat.reply`,
    /// unless another endpoint of the domain has that function (``streamFunctions``).
    func streamFunction(_ id: String) -> String {
        streamFunctions[id]?.name ?? Self.bare(endpointFunctions[id]?.name ?? id) + "Stream"
    }

    /// The endpoint's function as its id alone would name it.
    private func naturalFunction(_ id: String, domain: String) -> String {
        let local = id.hasPrefix(domain + ".") ? String(id.dropFirst(domain.count + 1)) : id
        return property(local)
    }

    /// `chat` → `Chat`; an acronym all in capitals (`id` → `ID`).
    private func capitalized(_ word: String) -> String {
        acronyms.contains(word.lowercased()) ? word.uppercased() : word.prefix(1).uppercased() + word.dropFirst()
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal",
        "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
        "repeat", "return", "switch", "where", "while", "as", "catch", "false", "is", "nil", "super", "self", "Self", "throw",
        "throws", "true", "try", "Type", "Any", "Protocol",
    ]

    /// Names an open enum's members use itself: a case of one of these names would not compile.
    static let reservedCaseNames: Set<String> = ["unknown", "rawValue", "init", "hashValue"]

    /// Names a model's member cannot have: `self` would name the value itself, `init` the
    /// initializer, and a `hashValue` would answer `Hashable` for the model.
    static let reservedMemberNames: Set<String> = ["self", "init", "hashValue"]

    /// Names a domain's property cannot have: `API`'s catalogs, and `catalog`, whose file
    /// would be theirs (`Endpoints/API+Catalog.swift`).
    static let reservedDomainNames: Set<String> = ["responseTypes", "mockRoutes", "fixtureCatalog", "catalog"]

    /// Names an endpoint's function cannot have: the domain's typed fixtures are `fixtures`.
    static let reservedFunctionNames: Set<String> = ["fixtures"]

    /// Names an endpoint function's parameter cannot have: `self`.
    static let reservedParameterNames: Set<String> = ["self"]

    /// The Swift case names of an enum's wire values, each unique and clear of
    /// ``reservedCaseNames``: `unknown` → `unknownValue`, a second `inProgress` →
    /// `inProgress2`. Each comes with the name it would have had when it was renamed.
    func caseNames(_ wireNames: [String]) -> [(name: String, renamedFrom: String?)] {
        Self.unique(wireNames.map(property), reserved: Self.reservedCaseNames)
    }

    /// The Swift property names of a structure's fields, in order: unique, none of
    /// ``reservedMemberNames`` (``unique(_:reserved:)``).
    func memberNames(_ fields: [Field]) -> [(name: String, renamedFrom: String?)] {
        Self.unique(fields.map { property($0.name) }, reserved: Self.reservedMemberNames)
    }

    /// The name of the type a member of `owner` declares inline: its wire name as a type
    /// (`kind` → `Kind`), or its property's when that was renamed (`InProgress2`), with the
    /// owner's name before it when it would be a keyword, the owner's own name, a contract
    /// type's or a name the generated code uses (`String`), which inside the owner it would
    /// hide (`ThingString`).
    func nestedTypeName(of field: Field, member: (name: String, renamedFrom: String?), in owner: String) -> String {
        let name = type(member.renamedFrom == nil ? field.name : Self.bare(member.name))
        let hides = Self.keywords.contains(name) || name == owner || typeNames.contains(name) || Service.SwiftNaming.reservedTypeNames.contains(name)
        return hides ? owner + name : name
    }

    /// `naturals`, Swift names in order, each made unique and clear of `reserved`: a
    /// reserved one gets `Value` appended (`self` → `selfValue`), one already taken a
    /// number (a second `inProgress` → `inProgress2`). Each comes with the name it would
    /// have had when it was renamed.
    static func unique(_ naturals: [String], reserved: Set<String>) -> [(name: String, renamedFrom: String?)] {
        var used: Set<String> = []
        return naturals.map { natural in
            var candidate = bare(natural)
            if reserved.contains(candidate) { candidate += "Value" }
            var suffix = 2
            let stem = candidate
            while used.contains(candidate) || reserved.contains(candidate) {
                candidate = stem + String(suffix)
                suffix += 1
            }
            used.insert(candidate)
            return candidate == bare(natural) ? (natural, nil) : (escaped(candidate), bare(natural))
        }
    }

    /// A name usable as an identifier: keywords in backticks.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The name as an argument label in a call: bare, as Swift warns of a keyword escaped
    /// there (`init(public: x)`), except `inout`, the one keyword that must keep its backticks.
    static func argumentLabel(_ name: String) -> String {
        let bare = bare(name)
        return bare == "inout" ? "`inout`" : bare
    }

    /// The name without backticks, for composing other names.
    static func bare(_ name: String) -> String {
        name.utf8.contains(UInt8(ascii: "`")) ? name.filter { $0 != "`" } : name
    }
}
