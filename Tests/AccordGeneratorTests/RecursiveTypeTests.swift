import AccordContract
import AccordGenerator
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordTesting
import Foundation
import Testing

/// Types that hold themselves by value (`Thing.parent: Thing?`; `Tree.leaf: Leaf` with
/// `Leaf.tree: Tree?`; a union whose shape holds the union) compile: the members that close
/// a cycle are boxed, and the model still reads, writes and compares as before.
@Suite struct RecursiveTypeTests {
    static let contract = """
    domain: tree
    types:
      Thing:
        fields:
          id: string
          parent: Thing?
          children: [Thing]
      Tree:
        fields:
          name: string
          leaf: Leaf
      Leaf:
        fields:
          weight: int
          tree: Tree?
          note: {text: string, about: Tree?}
      Wrapper:
        fields:
          thing: Thing
      Node:
        discriminator: kind
        one_of: {group: Group, item: Item}
      Group:
        fields:
          first: Node?
      Item:
        fields:
          label: string
    endpoints:
      tree.get:
        route: GET /tree
        response: Tree
        examples:
          default:
            response: {name: root, leaf: {weight: 1, tree: {name: inner, leaf: {weight: 2, note: {text: deep}}}, note: {text: hi}}}
      tree.thing:
        route: GET /thing
        response: Wrapper
      tree.node:
        route: GET /node
        response: Node
    """

    private func files() throws -> [SwiftGenerator.File] {
        let service = "service:\n  name: s\ncodes:\n  1000: {name: invalid, msg: bad, http: 400}\n"
        let outcome = ContractLoader().load([.init(path: "contracts/service.yaml", bytes: Array(service.utf8)),
                                             .init(path: "contracts/tree.yaml", bytes: Array(Self.contract.utf8))], directory: "contracts")
        let contract = try #require(outcome.contract, "\(outcome.diagnostics)")
        let samples = FixtureSamples(contract: contract, fixtures: FixtureSet()).byEndpoint
        return SwiftGenerator(contract: contract, samples: samples).files()
    }

    @Test func theMembersThatCloseACycleAreBoxed() throws {
        let files = try files()
        let models = try #require(files.first { $0.path == "Models/TreeModels.swift" }).contents
        // One model of the file: from its declaration's line to the brace that closes it.
        func model(_ name: String) throws -> String {
            let declaration = try #require(models.range(of: #"^.*(struct|enum) \#(name)\b"#, options: [.regularExpression, .anchored]) ??
                                           models.range(of: #"\n[^\n]*(struct|enum) \#(name)\b"#, options: .regularExpression))
            let end = models.range(of: "\n}\n", range: declaration.upperBound..<models.endIndex)?.upperBound ?? models.endIndex
            return String(models[declaration.lowerBound..<end])
        }
        #expect(try model("Thing").contains("""
                public var parent: Thing? {
                    get { _parent.value }
                    set { _parent = AccordIndirect(newValue) }
                }
                private var _parent: AccordIndirect<Thing?>
                public var children: [Thing]
            """))
        #expect(try model("Tree").contains("private var _leaf: AccordIndirect<Leaf>"))
        #expect(try model("Leaf").contains("private var _tree: AccordIndirect<Tree?>"))
        #expect(try model("Leaf").contains("private var _about: AccordIndirect<Tree?>"), "an inline object's member closes the cycle too")
        #expect(try model("Wrapper").contains("    public var thing: Thing\n"), "a member outside the cycle stays as it is")
        #expect(try model("Node").contains("nonisolated public indirect enum Node: Codable, Hashable, Sendable {"))
        #expect(try !model("Item").contains("AccordIndirect"))
    }

    /// Compiled and run warning-free: JSON in and out unchanged (an absent optional stays
    /// absent), equality by value, a write through the boxed member, the typed fixture.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "a compiler run has no race of ours to find"))
    func theBoxedModelsBehaveAsValues() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-recursive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for file in try files() {
            let url = directory.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let main = directory.appendingPathComponent("main.swift")
        try #"""
            import Foundation
            let json = #"{"id":"a","parent":{"id":"p","children":[]},"children":[{"id":"c","children":[]}]}"#
            var thing = try JSONDecoder().decode(Thing.self, from: Data(json.utf8))
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            print(String(decoding: try encoder.encode(thing), as: UTF8.self))
            let copy = thing
            thing.parent?.id = "q"
            print(thing == copy, copy.parent?.id ?? "-", thing.parent?.id ?? "-")
            print(API.tree.fixtures.get.default.leaf.tree?.leaf.note.text ?? "-")
            let node = try JSONDecoder().decode(Node.self, from: Data(#"{"kind":"group","first":{"kind":"item","label":"x"}}"#.utf8))
            if case .group(let group) = node, case .item(let item)? = group.first { print(item.label) }
            """#.write(to: main, atomically: true, encoding: .utf8)
        let binary = directory.appendingPathComponent("recursive").path
        let compiled = try ExternalCommand.run("swiftc", ["-swift-version", "6", "-warnings-as-errors", "-module-name", "Recursive", "-o", binary,
                                                          main.path] + paths)
        #expect(compiled.status == 0, "\(compiled.errors)")
        guard compiled.status == 0 else { return }
        let run = try ExternalCommand.run(binary, [])
        #expect(run.text == #"""
            {"children":[{"children":[],"id":"c"}],"id":"a","parent":{"children":[],"id":"p"}}
            false p q
            deep
            x

            """#, "\(run.errors)")
    }
}
