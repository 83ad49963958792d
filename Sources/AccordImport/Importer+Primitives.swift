import AccordJSON

extension Importer {
    /// A string, integer, number or boolean with its format and constraints in contract terms.
    mutating func primitive(_ type: String, _ spot: Spot) -> TypeUse {
        let format = spot["format"]?.text
        var use: TypeUse
        switch type {
        case "integer": use = integer(format, spot)
        case "number":
            use = TypeUse(expression: "double")
            if let format, !["float", "double", "decimal"].contains(format) { unknownFormat(format, spot) }
            use.attributes = bounds(spot, integral: false)
        case "boolean": use = TypeUse(expression: "bool")
        default: use = string(format, spot)
        }
        return annotated(use, spot)
    }

    private mutating func integer(_ format: String?, _ spot: Spot) -> TypeUse {
        switch format {
        case "int64"?, "uint64"?:
            if spot["minimum"] != nil || spot["maximum"] != nil {
                log.warnOnce("int64-bounds", subject: "", "bounds of an int64 are not checked by the contract; imported without them", at: spot)
            }
            return TypeUse(expression: "int64")
        case "int32"?, "uint32"?, "int16"?, "int8"?, "uint8"?, "uint16"?, nil:
            var use = TypeUse(expression: "int")
            let range: ClosedRange<Double>? = switch format {
            case "int32"?: -2_147_483_648...2_147_483_647
            case "uint32"?: 0...4_294_967_295
            case "int16"?: -32768...32767
            case "uint16"?: 0...65535
            case "int8"?: -128...127
            case "uint8"?: 0...255
            default: nil
            }
            use.attributes = bounds(spot, integral: true, within: range)
            return use
        case let other?:
            unknownFormat(other, spot)
            return TypeUse(expression: "int", attributes: bounds(spot, integral: true))
        }
    }

    private mutating func string(_ format: String?, _ spot: Spot) -> TypeUse {
        var use = TypeUse(expression: "string")
        switch format {
        case "date-time"?: use.expression = "date-time"
        case "date"?: use.expression = "date"
        case "uri"?, "url"?: use.expression = "url"
        case "uuid"?:
            if spot["pattern"] == nil {
                use.attributes.append(.init("pattern", .string("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")))
            }
        case "decimal"?:
            use.expression = "decimal"
        case nil where spot["pattern"]?.text == Self.decimalPattern:
            // How `accord openapi` writes a decimal: a string of digits with an optional fraction.
            use.expression = "decimal"
            return use
        case "byte"?, "binary"?, "password"?, nil: break
        case let other?:
            if ["email", "hostname", "ipv4", "ipv6", "uri-reference", "iri", "time", "duration", "regex", "json-pointer", "idn-email", "uri-template",
                "iri-reference", "idn-hostname", "relative-json-pointer"].contains(other) {
                log.warnOnce("format-unchecked", subject: other, "format '\(other)' is not checked by the contract; imported as a string", at: spot["format"] ?? spot)
            } else {
                unknownFormat(other, spot)
            }
        }
        if ["date-time", "date", "decimal"].contains(use.expression) {
            if spot["minLength"] != nil || spot["maxLength"] != nil || spot["pattern"] != nil {
                log.warnOnce("format-constraints", subject: "", "lengths and patterns of a date are implied by its format; not imported", at: spot)
            }
            return use
        }
        use.attributes += counts(spot, minimum: "minLength", maximum: "maxLength", into: ("min_length", "max_length"))
        if use.expression == "string", let pattern = spot["pattern"] {
            if let text = pattern.text, let whole = Self.wholeStringPattern(text) {
                use.attributes.append(.init("pattern", .string(whole)))
            } else {
                log.warn("pattern-invalid", "'pattern' is a regular expression text; not imported", at: pattern)
            }
        }
        return use
    }

    /// The pattern of a decimal carried as a string (`"9.99"`, `"-3"`).
    static let decimalPattern = #"^-?[0-9]+(\.[0-9]+)?$"#

    private mutating func unknownFormat(_ format: String, _ spot: Spot) {
        log.warnOnce("format-unknown", subject: format, "format '\(format)' is not known; imported by its type alone", at: spot["format"] ?? spot)
    }

    /// `minimum`/`maximum` (and the exclusive bounds, in both the 3.0 boolean and the 3.1 number spelling) as `min`/`max`.
    /// An exclusive bound of an integer moves by one; of a number it is imported inclusive, with a warning.
    private mutating func bounds(_ spot: Spot, integral: Bool, within range: ClosedRange<Double>? = nil) -> [JSONValue.Member] {
        var lower = spot["minimum"]?.number
        var upper = spot["maximum"]?.number
        for (keyword, isLower) in [("exclusiveMinimum", true), ("exclusiveMaximum", false)] {
            guard let bound = spot[keyword] else { continue }
            let value: Double? = bound.bool == true ? (isLower ? lower : upper) : bound.number
            guard let value else { continue }
            if !integral {
                log.warnOnce("exclusive-bound", subject: "", "an exclusive bound of a number is imported as inclusive", at: bound)
            }
            let moved = integral ? (isLower ? value.rounded(.down) + 1 : value.rounded(.up) - 1) : value
            if isLower { lower = max(lower ?? moved, moved) } else { upper = min(upper ?? moved, moved) }
        }
        if let range {
            lower = max(lower ?? range.lowerBound, range.lowerBound)
            upper = min(upper ?? range.upperBound, range.upperBound)
        }
        let exact = 9_007_199_254_740_991.0
        if integral {
            // The contract's int never passes ±(2^53 − 1): wider bounds say nothing more.
            if let value = lower, value <= -exact { lower = nil }
            if let value = upper, value >= exact { upper = nil }
        }
        var members: [JSONValue.Member] = []
        if let lower { members.append(.init("min", Self.number(lower))) }
        if let upper { members.append(.init("max", Self.number(upper))) }
        return members
    }

    static func number(_ value: Double) -> JSONValue {
        value.rounded() == value && abs(value) < 9_007_199_254_740_992 ? .int(Int(value)) : .double(value)
    }

    /// An OpenAPI pattern (matched anywhere, ECMA-262) as a contract pattern (matched against the whole string):
    /// `^(?:p)$` and `^p$` lose their anchors, anything else is wrapped to match anywhere.
    static func wholeStringPattern(_ pattern: String) -> String? {
        guard !pattern.isEmpty else { return nil }
        if pattern.hasPrefix("^"), pattern.hasSuffix("$"), !pattern.hasSuffix("\\$"), pattern.count >= 2 {
            let inner = String(pattern.dropFirst().dropLast())
            if let group = enclosingGroup(inner) { return group }
            if !hasTopLevelAlternation(inner) { return inner }
        }
        return "[\\s\\S]*(?:\(pattern))[\\s\\S]*"
    }

    /// `X` when `text` is one non-capturing group `(?:X)`.
    private static func enclosingGroup(_ text: String) -> String? {
        guard text.hasPrefix("(?:"), text.hasSuffix(")") else { return nil }
        let count = text.count
        var closesAtEnd = false
        scanTopLevel(text) { offset, character, depth in
            guard character == ")", depth == 0 else { return true }
            closesAtEnd = offset == count - 1
            return false
        }
        return closesAtEnd ? String(text.dropFirst(3).dropLast()) : nil
    }

    private static func hasTopLevelAlternation(_ text: String) -> Bool {
        var found = false
        scanTopLevel(text) { _, character, depth in
            found = character == "|" && depth == 0
            return !found
        }
        return found
    }

    /// Visits each unescaped character outside a character class with the group depth after it, until `visit` returns false.
    private static func scanTopLevel(_ text: String, _ visit: (Int, Character, Int) -> Bool) {
        var depth = 0
        var escaped = false
        var inClass = false
        for (offset, character) in text.enumerated() {
            if escaped { escaped = false; continue }
            switch character {
            case "\\": escaped = true; continue
            case "[": inClass = true
            case "]": inClass = false
            case "(" where !inClass: depth += 1
            case ")" where !inClass: depth -= 1
            default: break
            }
            guard !inClass || character == "]" else { continue }
            if !visit(offset, character, depth) { return }
        }
    }
}
