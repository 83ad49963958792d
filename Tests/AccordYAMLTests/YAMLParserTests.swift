import Testing
@testable import AccordYAML

/// Parses `text` as `test.yaml`.
private func parse(_ text: String, limits: YAMLParser.Limits = .init()) -> YAMLDocument {
    YAMLParser.parse(Array(text.utf8), file: "test.yaml", limits: limits)
}

private func messages(_ document: YAMLDocument) -> [String] {
    document.diagnostics.map(\.description)
}

@Suite struct YAMLParserTests {
    @Test func scalarsKeepTheirStyleAndResolveByYAML12CoreSchema() throws {
        let root = try #require(parse("""
        a: "1"
        b: 1
        c: 1.5
        d: yes
        e: true
        f: ~
        g: '0x1F'
        h: 0x1F
        i: -.inf
        j: 1e3
        k: 12abc
        """).root)
        let resolved = (root.mapping ?? []).map { $0.value.scalar!.resolved }
        #expect(resolved[0] == .string("1"))
        #expect(resolved[1] == .int(1))
        #expect(resolved[2] == .double(1.5))
        #expect(resolved[3] == .string("yes"))
        #expect(resolved[4] == .bool(true))
        #expect(resolved[5] == .null)
        #expect(resolved[6] == .string("0x1F"))
        #expect(resolved[7] == .int(31))
        #expect(resolved[8] == .double(-.infinity))
        #expect(resolved[9] == .double(1000))
        #expect(resolved[10] == .string("12abc"))
        #expect(root["a"]?.scalar?.style == .doubleQuoted)
    }

    @Test func nodesCarryOneBasedPositionsAndMappingsKeepKeyOrder() throws {
        let root = try #require(parse("""
        zeta: 1
        alpha:
          - x
          -   y
        """).root)
        #expect(root.mapping?.map { $0.key.scalar!.value } == ["zeta", "alpha"])
        #expect(root.mark == Mark(line: 1, column: 1))
        let items = try #require(root["alpha"]?.sequence)
        #expect(items.map(\.mark) == [Mark(line: 3, column: 5), Mark(line: 4, column: 7)])
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let root = try #require(parse("名字: 你好\n").root)
        #expect(root["名字"]?.mark == Mark(line: 1, column: 5))
    }

    @Test func aliasesAndMergeKeysResolveWithExplicitKeysWinning() throws {
        let root = try #require(parse("""
        base: &b {x: 1, y: 2}
        other: &o {z: 9, x: 7}
        d:
          y: 3
          <<: [*b, *o]
        copy: *b
        """).root)
        let d = try #require(root["d"]?.mapping)
        #expect(d.map { $0.key.scalar!.value } == ["y", "x", "z"])
        #expect(d.map { $0.value.scalar!.value } == ["3", "1", "9"])
        #expect(root["copy"]?["y"]?.scalar?.value == "2")
        #expect(root["copy"]?.mark == Mark(line: 6, column: 7))
    }

    @Test func duplicateKeysAreReportedAndParsingGoesOn() {
        let document = parse("a: 1\nb: 2\na: 3\nb: 4\n")
        #expect(messages(document) == [
            "test.yaml:3:1: error: duplicate key 'a' (first defined at 1:1)",
            "test.yaml:4:1: error: duplicate key 'b' (first defined at 2:1)",
        ])
        #expect(document.root != nil)
    }

    @Test func badMergeValueIsReported() {
        #expect(messages(parse("a:\n  <<: 3\n")) == [
            "test.yaml:2:7: error: the value of a '<<' merge key must be a mapping or a sequence of mappings",
        ])
    }

    @Test func libyamlSyntaxErrorsKeepTheirContext() {
        let document = parse("a: [1, 2\nb: 3\n")
        #expect(document.root == nil)
        #expect(messages(document) == [
            "test.yaml:2:2: error: did not find expected ',' or ']' (while parsing a flow sequence started at 1:4)",
        ])
    }

    @Test func tabsAreExplained() {
        #expect(messages(parse("a:\n\tb: 1\n")) == [
            "test.yaml:2:1: error: tab character where YAML expects indentation or a token; indent with spaces",
        ])
    }

    @Test func invalidUTF8IsLocatedFromItsByteOffset() {
        let bytes = Array("a: 1\nbé: ".utf8) + [0xFF, 0xFE, 0x0A]
        let document = YAMLParser.parse(bytes, file: "test.yaml")
        #expect(messages(document) == ["test.yaml:2:5: error: invalid UTF-8: invalid leading UTF-8 octet 0xFF at byte 10"])
    }

    @Test func oneDocumentPerFile() {
        #expect(messages(parse("a: 1\n---\nb: 2\n")) == [
            "test.yaml:2:1: error: a contract file holds one YAML document; a second one starts here",
        ])
    }

    @Test func emptyFileHasNoRootAndNoError() {
        let document = parse("# only a comment\n")
        #expect(document.root == nil)
        #expect(document.diagnostics.isEmpty)
    }

    @Test func unknownAliasIsAnError() {
        #expect(messages(parse("a: *nowhere\n")) == [
            "test.yaml:1:4: error: unknown alias '*nowhere': no anchor '&nowhere' before it",
        ])
    }

    // MARK: Hostile input

    @Test func tenThousandDeepNestingIsRefusedAtTheLimit() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let document = parse(text)
        #expect(document.root == nil)
        #expect(messages(document) == ["test.yaml:1:257: error: nesting deeper than 256 levels"])
    }

    @Test func deepBlockNestingIsRefusedToo() {
        let text = (0..<300).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n") + " 1\n"
        #expect(messages(parse(text)) == ["test.yaml:257:257: error: nesting deeper than 256 levels"])
    }

    @Test func billionLaughsIsRefusedFast() {
        var text = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for (index, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].enumerated() {
            let previous = index == 0 ? "a" : ["b", "c", "d", "e", "f", "g", "h", "i"][index - 1]
            text += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
        }
        let clock = ContinuousClock()
        var document: YAMLDocument?
        let elapsed = clock.measure { document = parse(text) }
        #expect(document?.root == nil)
        #expect(messages(document!) == [
            "test.yaml:7:16: error: document expands to more than 2000000 nodes (aliases count once per use); refusing it",
        ])
        // A guard against hanging, not a benchmark: expansion must never be materialised.
        #expect(elapsed < .seconds(5))
    }

    @Test func hugeScalarIsRefusedWithItsSize() {
        let text = "a: " + String(repeating: "x", count: 50 * 1024 * 1024) + "\n"
        #expect(messages(parse(text)) == ["test.yaml:1:4: error: scalar of 52428800 bytes exceeds the limit of 1048576 bytes"])
    }

    @Test func scalarsMayHoldNUL() throws {
        let root = try #require(parse("a: \"x\\0y\"\n").root)
        #expect(root["a"]?.scalar?.value.utf8.count == 3)
    }
}
