import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordMocksFormat
import AccordTesting
import AccordValidation
import Foundation
import Testing

/// Each effect and list feature on a small board contract: notes with numbered pages,
/// likes that become matches, and every problem lint reports at its position.
@Suite struct EffectBoardTests {
    static let domain = """
        domain: board
        types:
          Note:
            fields:
              id: string
              author: int
              text: string
              status: open | done
              rank: int
              votes: int
          Liker:
            fields:
              uid: int
              nickname: string
          Match:
            fields:
              id: string
              uid: int
              nickname: string
        endpoints:
          notes.list:
            route: GET /notes
            query:
              page: {type: int, optional: true, min: 1}
              size: {type: int, optional: true, min: 1, max: 50, default: 2}
              status: {enum: [open, done], optional: true}
            response: {items: [Note], has_more: bool, total: int}
          notes.add:
            route: POST /notes
            body: {text: string, rank: int}
            response: Note
          notes.get:
            route: GET /notes/{note_id}
            params: {note_id: string}
            response: Note
            codes: [5001]
          notes.edit:
            route: PATCH /notes/{note_id}
            params: {note_id: string}
            body: {text: string?, rank: int?}
            response: Note
            codes: [5001]
          notes.remove:
            route: DELETE /notes/{note_id}
            params: {note_id: string}
            response: {}
            codes: [5001]
          users.like:
            route: POST /users/{uid}/like
            params: {uid: string}
            response: {matched: bool, match: Match?}
          matches.list:
            route: GET /matches
            response: {items: [Match]}
        """

    static let notes = """
        type: Note
        key: id
        limit: 5
        seed:
          - {id: n_a, author: 1, text: 甲, status: open, rank: 3, votes: 0}
          - {id: n_b, author: 10086, text: 乙, status: done, rank: 1, votes: 0}
          - {id: n_c, author: 1, text: 丙, status: open, rank: 2, votes: 0}
        """

    static let fixtures = """
        notes.list:
          - name: list
            default: true
            effect:
              list: notes
              filter: {status: /status}
              order: rank
              page: number
              count: {total: {}}
        notes.add:
          - name: added
            default: true
            effect:
              insert: notes
              record: {id: 'n_{{seq}}', author: '{{user}}', status: open, votes: 0}
        notes.get:
          - name: found
            default: true
            effect: {read: notes}
        notes.edit:
          - name: edited
            default: true
            effect: {update: notes, body: merge, increment: {votes: 1}}
        notes.remove:
          - name: removed
            default: true
            effect: {delete: notes, where: {author: '{{user}}'}}
        users.like:
          - name: match
            when: {state: {likers: {uid: '{{request.path.uid}}'}}}
            effect:
              insert: matches
              record: {id: 'm_{{state.likers.uid}}', uid: '{{state.likers.uid}}', nickname: '{{state.likers.nickname}}'}
            data: {matched: true, match: '{{record}}'}
          - name: liked
            default: true
            data: {matched: false, match: null}
        matches.list:
          - name: all
            default: true
            effect: {list: matches}
        """

    static let likers = "type: Liker\nkey: uid\nseed:\n  - {uid: 20031, nickname: 海边的风}\n"
    static let matches = "type: Match\nkey: id\n"

    /// The repository's service file with the board domain beside it.
    static func contract(domain: String = domain) throws -> Contract {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-board-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: Repository.contracts + "/service.yaml", toPath: directory.appendingPathComponent("service.yaml").path)
        try domain.write(to: directory.appendingPathComponent("board.yaml"), atomically: true, encoding: .utf8)
        let outcome = ContractLint.run(directory: directory.path)
        return try #require(outcome.contract, "\(outcome.diagnostics)")
    }

    private func board(fixtures: String = fixtures) throws -> EngineFixture {
        try EngineFixture(contract: Self.contract(), fixtures: fixtures,
                          collections: ["notes": Self.notes, "likers": Self.likers, "matches": Self.matches])
    }

    private func data(_ response: MockResponse) throws -> JSONValue {
        let body = try JSONReader.read(response.bodyBytes)
        #expect(body["code"] == .int(0), "\(String(decoding: response.bodyBytes, as: UTF8.self))")
        return body["data"] ?? .null
    }

    private func ids(_ value: JSONValue, member: String = "id") -> [String] {
        guard case .array(let items)? = value["items"] else { return [] }
        return items.compactMap { $0[member].map(PlainText.of) }
    }

    @Test func numberedPagesInOrderWithFiltersTheLastPageAndAnEmptyOne() throws {
        var fixture = try board()
        let first = try data(fixture.handle(fixture.signed("GET", "/api/v1/notes")))
        // Ascending by rank, two a page (the parameter's declared default).
        #expect(ids(first) == ["n_b", "n_c"])
        #expect(first["has_more"] == .bool(true))
        #expect(first["total"] == .int(3))
        let last = try data(fixture.handle(fixture.signed("GET", "/api/v1/notes?page=2")))
        #expect(ids(last) == ["n_a"])
        #expect(last["has_more"] == .bool(false))
        let beyond = try data(fixture.handle(fixture.signed("GET", "/api/v1/notes?page=7")))
        #expect(ids(beyond) == [])
        #expect(beyond["has_more"] == .bool(false))
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/notes?status=open&size=5")))) == ["n_c", "n_a"])
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/notes?status=done")))) == ["n_b"])
        let huge = fixture.handle(fixture.signed("GET", "/api/v1/notes?page=99999999999"))
        #expect(huge.status == 400)
        #expect(try JSONReader.read(huge.bodyBytes)["data"]?["violations"]?.value(at: "/0/pointer") == .string("/query/page"))
    }

    /// A list answer without templates is kept whole (docs/mocks.md, "Kept between
    /// reads"), and still follows all it reads: each query parameter its list pages and
    /// filters by, each collection it lists or counts, the session.
    @Test func aKeptListAnswerFollowsAllItReads() throws {
        let counted = Self.fixtures.replacingOccurrences(of: "      count: {total: {}}\n", with: "      count: {total: {from: matches}}\n")
        #expect(counted != Self.fixtures)
        var fixture = try board(fixtures: counted)
        let first = fixture.handle(fixture.signed("GET", "/api/v1/notes")).bodyBytes
        #expect(fixture.handle(fixture.signed("GET", "/api/v1/notes")).bodyBytes == first)
        #expect(ids(try JSONReader.read(first)["data"] ?? .null) == ["n_b", "n_c"])
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/notes?page=2")))) == ["n_a"])
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/notes?size=1")))) == ["n_b"])
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/notes?status=open")))) == ["n_c", "n_a"])
        #expect(try data(fixture.handle(fixture.signed("GET", "/api/v1/notes")))["total"] == .int(0))
        // The counted collection changes: a match.
        _ = try data(fixture.handle(fixture.signed("POST", "/api/v1/users/20031/like")))
        #expect(try data(fixture.handle(fixture.signed("GET", "/api/v1/notes")))["total"] == .int(1))
        // The listed collection changes: a note of rank 0 comes first.
        _ = try data(fixture.handle(fixture.signed("POST", "/api/v1/notes", body: #"{"text":"丁","rank":0}"#)))
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/notes")))) == ["n_1", "n_b"])
        // Another session has its own records.
        let other = try data(fixture.handle(fixture.signed("GET", "/api/v1/notes", headers: [("X-Accord-Session", "ui-2")])))
        #expect(ids(other) == ["n_b", "n_c"])
        #expect(other["total"] == .int(0))
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/notes")))) == ["n_1", "n_b"])
    }

    /// A filter or `data` with a template reads the request beyond the list's parameters:
    /// such an answer is made for each request, not kept.
    @Test func aListAnswerWithATemplateIsMadeForEachRequest() throws {
        let list = "notes.list:\n  - name: list\n    default: true\n    effect:\n      list: notes\n      filter: {status: /status}\n"
        let templated = "notes.list:\n  - name: list\n    default: true\n    effect:\n      list: notes\n"
            + "      where: {text: '{{request.header.X-Text}}'}\n"
        let withData = "notes.list:\n  - name: list\n    default: true\n    data: {total: '{{request.header.X-Total}}'}\n    effect:\n"
            + "      list: notes\n      filter: {status: /status}\n      order: rank\n      page: number\n"
        #expect(Self.fixtures.contains(list + "      order: rank\n      page: number\n      count: {total: {}}\n"))
        var filtered = try board(fixtures: Self.fixtures.replacingOccurrences(of: list, with: templated))
        let text = { (value: String) in [("X-Text", value)] }
        #expect(ids(try data(filtered.handle(filtered.signed("GET", "/api/v1/notes", headers: text("甲"))))) == ["n_a"])
        #expect(ids(try data(filtered.handle(filtered.signed("GET", "/api/v1/notes", headers: text("丙"))))) == ["n_c"])
        var totalled = try board(fixtures: Self.fixtures.replacingOccurrences(of: list + "      order: rank\n      page: number\n      count: {total: {}}\n",
                                                                            with: withData))
        #expect(try data(totalled.handle(totalled.signed("GET", "/api/v1/notes", headers: [("X-Total", "7")])))["total"] == .string("7"))
        #expect(try data(totalled.handle(totalled.signed("GET", "/api/v1/notes", headers: [("X-Total", "8")])))["total"] == .string("8"))
    }

    @Test func conditionsCompareBoundsAndExclusions() throws {
        let list = "notes.list:\n  - name: list\n    default: true\n    effect:\n      list: notes\n      filter: {status: /status}\n"
            + "      order: rank\n      page: number\n      count: {total: {}}\n"
        let ranked = "notes.list:\n  - name: ranked\n    default: true\n    effect:\n      list: notes\n"
            + "      where: {rank: {min: 2}, status: {not: done}, author: {max: 5}}\n      order: -rank\n"
            + "      count: {total: {where: {status: {not: done}}}}\n"
        #expect(Self.fixtures.contains(list))
        var fixture = try board(fixtures: Self.fixtures.replacingOccurrences(of: list, with: ranked))
        // n_1 passes the rank and the status, not the author; n_b (now rank 4) is done.
        _ = try data(fixture.handle(fixture.signed("POST", "/api/v1/notes", body: #"{"text":"丁","rank":5}"#)))
        _ = try data(fixture.handle(fixture.signed("PATCH", "/api/v1/notes/n_b", body: #"{"rank":4}"#)))
        let listed = try data(fixture.handle(fixture.signed("GET", "/api/v1/notes")))
        #expect(ids(listed) == ["n_a", "n_c"])
        #expect(listed["total"] == .int(3))
        #expect(listed["has_more"] == .bool(false))
    }

    @Test func insertReadUpdateAndDeleteOneRecord() throws {
        var fixture = try board()
        let added = try data(fixture.handle(fixture.signed("POST", "/api/v1/notes", body: #"{"text":"丁","rank":0}"#)))
        #expect(added == .object([.init("id", .string("n_1")), .init("author", .int(10086)), .init("text", .string("丁")),
                                  .init("status", .string("open")), .init("rank", .int(0)), .init("votes", .int(0))]))
        #expect(try data(fixture.handle(fixture.signed("GET", "/api/v1/notes/n_1"))) == added)
        let edited = try data(fixture.handle(fixture.signed("PATCH", "/api/v1/notes/n_1", body: #"{"text":"戊"}"#)))
        #expect(edited["text"] == .string("戊"))
        #expect(edited["rank"] == .int(0))
        #expect(edited["votes"] == .int(1))
        _ = try data(fixture.handle(fixture.signed("DELETE", "/api/v1/notes/n_1")))
        let missing = try JSONReader.read(fixture.handle(fixture.signed("GET", "/api/v1/notes/n_1")).bodyBytes)
        #expect(missing["code"] == .int(5001))
        #expect(missing["data"]?["message"] == .string("no record with key 'n_1' in 'notes' for this session"))
        // Another author's note is not the caller's to delete.
        #expect(try JSONReader.read(fixture.handle(fixture.signed("DELETE", "/api/v1/notes/n_a")).bodyBytes)["code"] == .int(5001))
    }

    @Test func aFullCollectionDropsItsOldestRecord() throws {
        var fixture = try board()
        for rank in 10..<13 { _ = fixture.handle(fixture.signed("POST", "/api/v1/notes", body: #"{"text":"x","rank":\#(rank)}"#)) }
        // The limit is 5: the first seed made room.
        let all = try data(fixture.handle(fixture.signed("GET", "/api/v1/notes?size=50")))
        #expect(ids(all) == ["n_b", "n_c", "n_1", "n_2", "n_3"])
    }

    @Test func aLikeOnSomeoneWhoLikedTheCallerIsAMatchAndAgainIsNotASecond() throws {
        var fixture = try board()
        let plain = try data(fixture.handle(fixture.signed("POST", "/api/v1/users/30000/like")))
        #expect(plain == .object([.init("matched", .bool(false)), .init("match", .null)]))
        let matched = try data(fixture.handle(fixture.signed("POST", "/api/v1/users/20031/like")))
        #expect(matched["matched"] == .bool(true))
        #expect(matched["match"] == .object([.init("id", .string("m_20031")), .init("uid", .int(20031)), .init("nickname", .string("海边的风"))]))
        _ = try data(fixture.handle(fixture.signed("POST", "/api/v1/users/20031/like")))
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/matches")))) == ["m_20031"])
    }

    @Test func aRecordThatDoesNotFitItsTypeIsAClear500AndNotStored() throws {
        let broken = Self.fixtures.replacingOccurrences(of: "record: {id: 'n_{{seq}}', author: '{{user}}'", with: "record: {id: 'n_{{seq}}', author: '{{request.body.text}}'")
        var fixture = try board(fixtures: broken)
        let response = fixture.handle(fixture.signed("POST", "/api/v1/notes", body: #"{"text":"丁","rank":0}"#))
        #expect(response.status == 500)
        #expect(try JSONReader.read(response.bodyBytes)["msg"]
                == .string("the fixture made a record that 'notes' cannot hold: /author: expected integer, found a string \"丁\""))
        #expect(try data(fixture.handle(fixture.signed("GET", "/api/v1/notes")))["total"] == .int(3))
    }

    @Test func everyProblemInAnEffectIsReportedWhereItIs() throws {
        let contract = try Self.contract()
        let (collections, _) = try Self.definitions(contract)
        let cases: [(String, String)] = [
            ("notes.get:\n  - name: a\n    effect: {read: note}\n",
             "test.yaml:3:20: error: unknown collection 'note'; did you mean 'notes'?; declared: likers, matches, notes"),
            ("notes.get:\n  - name: a\n    effect: {read: notes, where: {/auther: 1}}\n",
             "test.yaml:3:35: error: 'Note' (collection 'notes') has no member '/auther'; did you mean 'author'?"),
            ("notes.edit:\n  - name: a\n    effect: {update: notes, increment: {text: 1}}\n",
             "test.yaml:3:41: error: 'increment': '/text' of 'Note' is not an int"),
            ("notes.add:\n  - name: a\n    effect: {insert: notes, record: {id: x}}\n",
             "test.yaml:3:37: error: the record inserted into 'notes' /author: missing required member 'author'"),
            ("notes.get:\n  - name: a\n    effect: {read: notes, delete: notes}\n",
             "test.yaml:3:27: error: an effect does one of insert, update, delete, read, list; found 2; write several effects as a sequence"),
            ("users.like:\n  - name: a\n    effect: {update: likers}\n",
             "test.yaml:3:14: error: 'users.like' declares no not-found code; name the business code for a missing record with 'missing'"),
            ("matches.list:\n  - name: a\n    effect: {list: matches, page: cursor}\n",
             "test.yaml:3:35: error: 'page: cursor' reads the query parameter 'cursor', which 'matches.list' does not declare"),
            ("notes.list:\n  - name: a\n    effect: {list: notes, page: number, filter: {state: /status}}\n",
             "test.yaml:3:50: error: 'filter': 'notes.list' declares no query parameter 'state'; did you mean 'status'?"),
            ("notes.list:\n  - name: a\n    when: {state: {notes: {where: {rank: 1}, at_least: 0}}}\n    data: {items: [], has_more: false, total: 0}\n",
             "test.yaml:3:56: error: 'at_least' takes a number of records from 1 to 100000, found 0"),
            ("matches.list:\n  - name: a\n    effect: {list: notes}\n",
             "test.yaml:3:13: error: 'matches.list' lists Match items, which records of 'Note' cannot give: /uid missing required member 'uid'"),
        ]
        for (yaml, expected) in cases {
            let (_, diagnostics) = FixtureLoader(contract: contract, collections: collections)
                .load([ContractLoader.Source(path: "test.yaml", bytes: Array(yaml.utf8))])
            #expect(diagnostics.map(\.description).contains(expected), "\(diagnostics.map(\.description))")
        }
    }

    static func definitions(_ contract: Contract) throws -> ([String: CollectionDefinition], [String]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-board-mocks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in [("notes", notes), ("likers", likers), ("matches", matches)] {
            try text.write(to: directory.appendingPathComponent(name + ".yaml"), atomically: true, encoding: .utf8)
        }
        let (collections, diagnostics) = CollectionLoader(contract: contract).load(directory: directory.path)
        return (collections, diagnostics.map(\.description))
    }
}
