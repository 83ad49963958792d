import Testing
@testable import AccordContract

@Suite struct TypeExpressionTests {
    @Test func namesArraysMapsAndOptionals() throws {
        let expression = try TypeExpression(parsing: "[{string: Signal}]?")
        #expect(expression.isOptional)
        #expect(expression.term == .array(.map(.name("Signal", offset: 10), offset: 1), offset: 0))
    }

    @Test func alternativesMakeAStringEnum() throws {
        let expression = try TypeExpression(parsing: "ios | android")
        #expect(expression.term == .enumeration([("ios", 0), ("android", 6)], offset: 0))
        #expect(!expression.isOptional)
    }

    @Test func dashedPrimitiveIsOneWord() throws {
        #expect(try TypeExpression(parsing: "date-time?").term == .name("date-time", offset: 0))
    }

    @Test(arguments: [
        ("[string", "expected ']' to close the array type", 7),
        ("{int: string}", "map keys are always 'string': write {string: T}", 1),
        ("[string?]", "array items cannot be optional; put '?' after ']' to make the field optional", 7),
        ("int? x", "'?' must end the type", 5),
        ("a | ", "expected an enum value after '|'", 4),
        ("[a] | b", "only plain words can be alternatives of an enum", 0),
        ("", "expected a type, found end of text", 0),
        ("{string int}", "expected ':' after 'string' in a map type", 8),
    ])
    func syntaxErrorsSayWhatAndWhere(text: String, message: String, offset: Int) {
        #expect(throws: TypeExpression.SyntaxError(message: message, offset: offset)) {
            try TypeExpression(parsing: text)
        }
    }
}
