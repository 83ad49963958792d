import AccordValidation
import Testing

/// A pattern answers the same whether it runs its expression or remembers a recent text.
struct CompiledPatternTests {
    @Test func rememberedTextsAnswerAsTheExpressionDoes() throws {
        let pattern = try CompiledPattern(#"\d+\.\d+(\.\d+)?"#, wholeString: true)
        // Twenty texts, more than it remembers, each asked three times in turn: the remembered
        // answers, the replaced ones and the ones asked again after being replaced all agree.
        let texts = (0..<20).map { $0 % 3 == 0 ? "1.\($0)" : ($0 % 3 == 1 ? "v1.\($0)" : "1.2.\($0)") }
        for _ in 0..<3 {
            for (index, text) in texts.enumerated() { #expect(pattern.matches(text) == (index % 3 != 1), "\(text)") }
        }
        // Too long to remember, and unicode digits as ICU reads \d: the expression decides every time.
        let long = String(repeating: "1", count: 80) + ".2"
        #expect(pattern.matches(long))
        #expect(pattern.matches(long + "x") == false)
        #expect(pattern.matches("١.٢"))
    }

    @Test func aPatternSharedAcrossThreadsAnswersEachTextAlike() async throws {
        let pattern = try CompiledPattern("[a-f]{2}", wholeString: true)
        let answers = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<400 { group.addTask { pattern.matches(index % 2 == 0 ? "ab" : "ax") == (index % 2 == 0) } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers.allSatisfy { $0 })
    }
}
