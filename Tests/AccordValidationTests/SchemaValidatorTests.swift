import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordValidation
import Foundation
import Testing

@Suite struct SchemaValidatorTests {
    private let here = SourceLocation(file: "test.yaml")

    private func schema(_ kind: Schema.Kind, _ constraints: Constraints = Constraints()) -> Schema {
        Schema(kind, constraints: constraints, location: here)
    }

    private func field(_ name: String, _ kind: Schema.Kind, optional: Bool = false, nullable: Bool = false) -> Field {
        Field(name: name, schema: schema(kind), isOptional: optional, isNullable: nullable, location: here)
    }

    @Test(arguments: [
        ("2026-11-30T08:00:00Z", true), ("2026-11-30T08:00:00.123456Z", true), ("2026-11-30T08:00:00+08:00", true),
        ("2026-11-30t08:00:00z", true), ("2026-11-30 08:00:00Z", false), ("2026-11-30T25:00:00Z", false),
        ("2026-11-30T08:00:00", false), ("2026-11-30T08:00:00.Z", false), ("2026-02-29T00:00:00Z", false),
        ("2028-02-29T00:00:00Z", true),
    ])
    func dateTimesWithAndWithoutFractionalSeconds(text: String, valid: Bool) {
        let violations = SchemaValidator(types: [:]).validate(.string(text), against: schema(.primitive(.dateTime)))
        #expect(violations.isEmpty == valid)
    }

    @Test(arguments: [(9_007_199_254_740_991, true, true), (-9_007_199_254_740_991, true, true), (9_007_199_254_740_992, false, true),
                      (-9_007_199_254_740_992, false, true), (Int.max, false, true), (Int.min, false, true), (0, true, true)])
    func intsStayExactInADoubleAndInt64sTakeAnyInt64(number: Int, validInt: Bool, validInt64: Bool) {
        let validator = SchemaValidator(types: [:])
        #expect(validator.validate(.int(number), against: schema(.primitive(.int))).isEmpty == validInt)
        #expect(validator.validate(.int(number), against: schema(.primitive(.int64))).isEmpty == validInt64)
    }

    @Test(arguments: [("9.99", true), ("-10", true), ("0.5", true), ("1.", false), (".5", false), ("1e3", false), ("", false)])
    func decimalsAreStrings(text: String, valid: Bool) {
        let violations = SchemaValidator(types: [:]).validate(.string(text), against: schema(.primitive(.decimal)))
        #expect(violations.isEmpty == valid)
    }

    /// A value that breaks its schema more often than ``Violation/limit`` is checked up to
    /// the limit: the first hundred in order, whichever way it breaks it (an element of an
    /// array, a map's value, an unknown member).
    @Test func theChecksStopAtTheLimit() {
        let validator = SchemaValidator(types: [:])
        let object = schema(.object([field("id", .primitive(.int))]))
        let elements = JSONValue.array(Array(repeating: .object([]), count: 1_000))
        let missing = validator.validate(elements, against: schema(.array(object)))
        #expect(missing.count == Violation.limit)
        #expect(missing.first?.pointer == "/0/id" && missing.last?.pointer == "/99/id")
        let strings = JSONValue.object((0..<1_000).map { .init("k\($0)", .int($0)) })
        #expect(validator.validate(strings, against: schema(.map(schema(.primitive(.string))))).map(\.pointer)
                == (0..<100).map { "/k\($0)" })
        let unknown = validator.validate(.object([.init("id", .int(1))] + (0..<1_000).map { .init("k\($0)", .int($0)) }), against: object)
        #expect(unknown.map(\.pointer) == (0..<100).map { "/k\($0)" })
        #expect(Violation.count(of: unknown, in: "request") == "100 or more problems in the request (the first 100 are listed)")
        #expect(Violation.count(of: Array(unknown.prefix(3)), in: "answer") == "3 problems in the answer")
    }

    @Test func everyViolationIsListedWithItsPointer() {
        let object = schema(.object([
            field("phone", .primitive(.string)),
            field("age", .primitive(.int)),
            field("tags", .array(schema(.primitive(.string)))),
            field("note", .primitive(.string), optional: true),
        ]))
        let value = JSONValue.object([
            .init("age", .double(1.5)),
            .init("tags", .array([.string("a"), .int(2)])),
            .init("note", .null),
            .init("extra", .bool(true)),
        ])
        let violations = SchemaValidator(types: [:]).validate(value, against: object)
        #expect(violations == [
            Violation(pointer: "/phone", expected: "string", actual: "absent", message: "missing required member 'phone'"),
            Violation(pointer: "/age", expected: "integer", actual: "a number 1.5", message: "expected integer, found a number 1.5"),
            Violation(pointer: "/tags/1", expected: "string", actual: "an integer 2", message: "expected string, found an integer 2"),
            Violation(pointer: "/extra", expected: "one of the members phone, age, tags, note", actual: "member 'extra'",
                      message: "unknown member 'extra'"),
        ])
    }

    /// Members are found by name in any order (the validator looks where the last field's
    /// member was first); an unknown member is found whether or not every field found its
    /// own, and a repeated name is not taken for an unknown one.
    @Test func membersInAnyOrderAndUnknownOnesAmongThem() {
        let object = schema(.object([field("a", .primitive(.int)), field("b", .primitive(.string)), field("c", .primitive(.bool), optional: true)]))
        let validator = SchemaValidator(types: [:])
        let orders: [[JSONValue.Member]] = [
            [.init("a", .int(1)), .init("b", .string("x")), .init("c", .bool(true))],
            [.init("c", .bool(true)), .init("b", .string("x")), .init("a", .int(1))],
            [.init("b", .string("x")), .init("a", .int(1))],
            [.init("a", .int(1)), .init("a", .int(2)), .init("b", .string("x"))],
        ]
        for members in orders { #expect(validator.validate(.object(members), against: object).isEmpty, "\(members)") }
        let wrong = validator.validate(.object([.init("b", .int(2)), .init("a", .string("1"))]), against: object)
        #expect(wrong.map(\.pointer) == ["/a", "/b"])
        let unknown = { (members: [JSONValue.Member]) in validator.validate(.object(members), against: object).map(\.message) }
        #expect(unknown([.init("a", .int(1)), .init("b", .string("x")), .init("c", .bool(true)), .init("unrelated", .null)]) == ["unknown member 'unrelated'"])
        #expect(unknown([.init("unrelated", .null), .init("b", .string("x")), .init("a", .int(1))]) == ["unknown member 'unrelated'"])
        #expect(unknown([.init("a", .int(1)), .init("unrelated", .int(0))]) == ["missing required member 'b'", "unknown member 'unrelated'"])
    }

    /// A `url` is what Foundation's parser reads as a URL with a scheme and a host; the
    /// validator's shortcut for plain web URLs answers as the parser would, for plain
    /// ones, for near misses and for 5,000 strings drawn from URL characters.
    @Test func urlsAreWhatTheParserTakes() {
        let validator = SchemaValidator(types: [:])
        let url = schema(.primitive(.url))
        let parser = { (text: String) in URL(string: text).map { $0.scheme?.isEmpty == false && $0.host?.isEmpty == false } ?? false }
        var texts = [
            "https://cdn.example.com/u/1.jpg", "http://a", "http://a/", "https://x.y/a?b=c&d=e;f", "http://-.-/~", "HTTP://A.B/C",
            "https://cdn.example.com/a b", "https://cdn.example.com/%zz", "https://cdn.example.com/%41", "https://user@host/x",
            "https://host:8080/x", "https://[::1]/x", "https:///x", "https://", "http:/a/b", "ftp://a/b", "https://a/b#c",
            "https://a/b\"c", "https://a/b<c>", "https://a/é", "https://é.com/", "https://a?/b", "https://a_b.com/", "mailto:x@y.z",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let alphabet = Array("ab.-_~:/?#@!$&'()*+,;=%2F[] é\"<>".unicodeScalars)
        for _ in 0..<5_000 {
            var text = ["https://", "http://", "http:", "h"][Int(state >> 62)]
            for _ in 0..<Int(state % 12) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text.unicodeScalars.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            texts.append(text)
        }
        var plain = 0
        for text in texts {
            let valid = validator.validate(.string(text), against: url).isEmpty
            #expect(valid == parser(text), "\(text)")
            if valid { plain += 1 }
        }
        #expect(plain > 500, "the sweep reaches valid URLs too")
    }

    @Test func unknownMembersCanBeIgnored() {
        let object = schema(.object([field("a", .primitive(.int))]))
        let value = JSONValue.object([.init("a", .int(1)), .init("b", .int(2))])
        #expect(SchemaValidator(types: [:], unknownMembers: .ignore).validate(value, against: object).isEmpty)
    }

    @Test func referencesAndConstraintsCombine() {
        var nickname = schema(.primitive(.string))
        nickname.constraints.minLength = 2
        let types = ["Nickname": TypeDeclaration(name: "Nickname", domain: "auth", schema: nickname, location: here)]
        var reference = schema(.reference("Nickname"))
        reference.constraints.pattern = "[a-z]+"
        let violations = SchemaValidator(types: types).validate(.string("林"), against: reference)
        #expect(violations.map(\.message) == [
            "expected at least 2 characters, found a string \"林\" (1 characters)",
        ])
    }

    @Test func patternsMatchTheWholeString() {
        var phone = schema(.primitive(.string))
        phone.constraints.pattern = #"1\d{10}"#
        let types = ["Phone": TypeDeclaration(name: "Phone", domain: "auth", schema: phone, location: here)]
        let validator = SchemaValidator(types: types)
        #expect(validator.validate(.string("13800138000"), against: schema(.reference("Phone"))).isEmpty)
        #expect(validator.validate(.string("138001380001"), against: schema(.reference("Phone"))).map(\.expected) == [#"a string matching /1\d{10}/"#])
    }

    @Test func integerEnumsCompareByValue() {
        let cases = EnumCases([
            .init(name: "unset", value: .int(0), location: here), .init(name: "male", value: .int(1), location: here),
        ])
        let validator = SchemaValidator(types: [:])
        #expect(validator.validate(.int(1), against: schema(.enumeration(cases))).isEmpty)
        #expect(validator.validate(.string("1"), against: schema(.enumeration(cases))).map(\.message) == [
            "expected one of 0, 1, found a string \"1\"",
        ])
    }
}

/// The shortest match a pattern's own text gives, for the values the mock makes up.
@Suite struct PatternExampleTests {
    @Test(arguments: [("[A-Z]{3}", "AAA"), ("1\\d{10}", "10000000000"), ("([EI][NS][FT][JP])?", ""), ("\\d+\\.\\d+(\\.\\d+)?", "0.0"),
                      ("([01]\\d|2[0-3]):[0-5]\\d", "00:00"), ("[a-z0-9._%+-]+@[a-z0-9-]+(\\.[a-z0-9-]+)+", "a@a.a"), ("ab|cd", "ab")])
    func theShortestMatchMatches(pattern: String, expected: String) throws {
        let example = try #require(PatternExample.shortest(matching: pattern))
        #expect(example == expected)
        #expect(try CompiledPattern(pattern, wholeString: true).matches(example))
    }

    @Test(arguments: ["^a", "\\s+", "[^@]+", "a.b", "(ab", "[a-", "a{2"])
    func whatItCannotBuildIsNil(pattern: String) {
        #expect(PatternExample.shortest(matching: pattern) == nil)
    }
}
