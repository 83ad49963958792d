import AccordJSON
import Testing

@Suite struct JSONTests {
    private func read(_ text: String) throws(JSONReader.Failure) -> JSONValue {
        try JSONReader.read(Array(text.utf8))
    }

    @Test func keepsMemberOrderAndTellsIntegersFromNumbers() throws {
        let value = try read(#" {"b": 1, "a": [1.5, -0, 2e3, true, null, "x"]} "#)
        #expect(value == .object([
            .init("b", .int(1)),
            .init("a", .array([.double(1.5), .int(0), .double(2000), .bool(true), .null, .string("x")])),
        ]))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try read(#""a\"b\\c\/d\n\u00e9\ud83d\udc4b""#) == .string("a\"b\\c/d\né👋"))
    }

    @Test(arguments: [
        (#"{"a": 1,}"#, "expected a member name in quotes, found '}'", 8, 1, 9),
        ("{\n  \"a\": tru\n}", "invalid literal; expected 'true'", 9, 2, 8),
        (#"[1 2]"#, "expected ',' or ']' in array, found '2'", 3, 1, 4),
        (#"{"a": 01}"#, "leading zeros are not allowed", 6, 1, 7),
        (#""abc"#, "unterminated string", 0, 1, 1),
        (#"{"a": 1} x"#, "unexpected 'x' after the JSON value", 9, 1, 10),
        ("", "expected a JSON value, found end of input", 0, 1, 1),
        (#""\ud800""#, "unpaired high surrogate \\uD800", 1, 1, 2),
        ("\"a\u{1}\"", "control character 0x1 in string; escape it", 2, 1, 3),
    ])
    func malformedDocumentsSayWhereByteLineAndColumn(text: String, message: String, offset: Int, line: Int, column: Int) {
        #expect(throws: JSONReader.Failure(message: message, offset: offset, line: line, column: column)) {
            try read(text)
        }
    }

    /// A string's bytes must be UTF-8, with or without escapes beside them; a literal
    /// U+FFFD is text like any other.
    @Test func stringsMustBeUTF8() throws {
        let quoted = { (inner: [UInt8]) in [UInt8(ascii: "\"")] + inner + [UInt8(ascii: "\"")] }
        let invalid: [[UInt8]] = [[0xFF], [0xE4, 0xB8], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xE4, 0xB8, 0x41], [0xF0, 0x90, 0x80]]
        for bytes in invalid {
            for text in [quoted(bytes), quoted([0x61] + bytes + [0x62]), quoted(Array(#"\n"#.utf8) + bytes)] {
                #expect(throws: JSONReader.Failure.self, "\(text)") { try JSONReader.read(text) }
                #expect((try? JSONReader.read(text)) == nil)
            }
        }
        // Repairing 0xF0 0x90 0x80 takes as many bytes as it replaces: the check compares
        // the bytes (eight at a time, then one by one), wherever they sit.
        for length in 0...17 {
            let padding = Array(repeating: UInt8(ascii: "a"), count: length)
            #expect((try? JSONReader.read(quoted(padding + [0xF0, 0x90, 0x80] + padding))) == nil, "after \(length) bytes")
            #expect(try JSONReader.read(quoted(padding + [0xE4, 0xB8, 0xAD] + padding)) == .string(String(repeating: "a", count: length) + "中" + String(repeating: "a", count: length)))
        }
        #expect(try JSONReader.read(quoted([0xEF, 0xBF, 0xBD, 0xE4, 0xB8, 0xAD])) == .string("\u{FFFD}中"))
        #expect(try JSONReader.read(quoted(Array(#"\t"#.utf8) + [0xE4, 0xB8, 0xAD])) == .string("\t中"))
    }

    /// A duplicate member is reported where it is and where the first one is, past
    /// nested values and escapes, in a small object and in one past sixteen members.
    @Test func duplicateMembersSayWhereTheFirstOneIs() {
        let nested = "{\"z\": {\"k\": [1, \"}\"]},\n  \"b\" : \"\\\"x\\\"\", \"c\": null,\n \"b\": 1}"
        let small = #expect(throws: JSONReader.Failure.self) { try read(nested) }
        #expect(small?.description == "duplicate member 'b' (first at line 2, column 3) at line 3, column 2 (byte 52)")
        #expect(small.flatMap(\.firstOccurrence).map { [$0.line, $0.column] } == [2, 3])
        let members = (0..<20).map { "\"m\($0)\": [\($0)]" }
        let wide = "{" + members.joined(separator: ", ") + ", \"m17\": 0}"
        let firstOffset = 1 + members[..<17].reduce(0) { $0 + $1.utf8.count + 2 }
        let offset = 1 + members.joined(separator: ", ").utf8.count + 2
        let hashed = #expect(throws: JSONReader.Failure.self) { try read(wide) }
        #expect(hashed?.description == "duplicate member 'm17' (first at line 1, column \(firstOffset + 1)) at line 1, column \(offset + 1) (byte \(offset))")
        #expect(hashed.flatMap(\.firstOccurrence).map { [$0.line, $0.column] } == [1, firstOffset + 1])
    }

    /// Containers inside containers each get their own members, in order, in an array
    /// of their size: no room kept for members that never came (a tree of small
    /// objects took about four times the memory when every object had room for eight).
    @Test func containersHoldTheirOwnMembersWithNoRoomToSpare() throws {
        let value = try read(#"{"a":[1,{"b":[2,3],"c":{}},[]],"d":{"e":[{"f":1},"g"]},"h":[[[4]]]}"#)
        let expected: JSONValue = .object([
            .init("a", .array([.int(1), .object([.init("b", .array([.int(2), .int(3)])), .init("c", .object([]))]), .array([])])),
            .init("d", .object([.init("e", .array([.object([.init("f", .int(1))]), .string("g")]))])),
            .init("h", .array([.array([.array([.int(4)])])])),
        ])
        #expect(value == expected)
        // Many containers, wider than the reader's first room for pending values.
        let wide = "[" + (0..<300).map { row in "{" + (0..<20).map { "\"k\($0)\":[\(row),\($0)]" }.joined(separator: ",") + "}" }.joined(separator: ",") + "]"
        guard case .array(let rows) = try read(wide) else { Issue.record("not an array"); return }
        #expect(rows.count == 300 && rows.capacity - rows.count <= 1)
        for (row, value) in rows.enumerated() {
            guard case .object(let members) = value else { Issue.record("row \(row) is not an object"); return }
            #expect(members.map(\.key) == (0..<20).map { "k\($0)" })
            #expect(members.capacity - members.count <= 1, "room for \(members.capacity) members")
            #expect(members[19].value == .array([.int(row), .int(19)]))
        }
        guard case .object(let single) = try read(#"{"a":0}"#) else { return }
        #expect(single.capacity == 1)
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONReader.Failure(message: "nesting deeper than 512 levels", offset: 512, line: 1, column: 513)) {
            try read(deep)
        }
    }

    @Test func writesCompactCanonicalJSON() throws {
        let value = try read(#"{"z": "a/b 你好", "a": {"y": 0.5, "x": [1, "\n"]}, "n": null}"#)
        #expect(JSONWriter.string(value) == #"{"z":"a/b 你好","a":{"y":0.5,"x":[1,"\n"]},"n":null}"#)
        #expect(JSONWriter.string(value, sortedKeys: true) == #"{"a":{"x":[1,"\n"],"y":0.5},"n":null,"z":"a/b 你好"}"#)
        #expect(try read(JSONWriter.string(value)) == value)
    }

    @Test(arguments: [0, 7, 9, 10, 99, 100, 1_000_000, 1_796_025_600, -1, -10, -1_796_025_600, Int.max, Int.min, Int.max / 10, 10_000_000_000_000_000_00])
    func writesEveryIntegerAsSwiftDoes(value: Int) {
        var bytes = Array("n=".utf8)
        JSONWriter.writeInteger(value, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "n=\(value)")
        var output = ByteOutput(capacity: 1)
        output.append("n=")
        JSONWriter.writeInteger(value, into: &output)
        #expect(String(decoding: output.bytes(), as: UTF8.self) == "n=\(value)")
    }
}
