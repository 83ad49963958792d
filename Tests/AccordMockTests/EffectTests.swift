import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordTesting
import Foundation
import Testing

/// Effects (docs/mocks.md, "Effects"): the repository's signal screens on the session's
/// collection, and each effect and list feature on a small board contract.
@Suite struct EffectTests {
    // MARK: The repository's signal flows

    private func signals() throws -> EngineFixture {
        try EngineFixture(fixturesIn: Repository.mocks)
    }

    private func data(_ response: MockResponse) throws -> JSONValue {
        let body = try JSONReader.read(response.bodyBytes)
        #expect(body["code"] == .int(0), "\(String(decoding: response.bodyBytes, as: UTF8.self))")
        return body["data"] ?? .null
    }

    private func ids(_ value: JSONValue) -> [String] {
        guard case .array(let items)? = value["items"] else { return [] }
        return items.compactMap { if case .string(let id)? = $0["id"] { id } else { nil } }
    }

    @Test func aPublishedSignalIsInTheSendersListAndDetailNotInTheInbox() throws {
        var fixture = try signals()
        let published = try data(fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"周末爬山","is_flash":false}"#)))
        #expect(published["content"] == .string("周末爬山"))
        #expect(published["sender"]?["uid"] == .int(10086))
        #expect(published["media"] == .array([]))
        // Signal, not SignalDetail: the record's replies_count and viewer_state stay behind.
        #expect(published["replies_count"] == nil)
        let id = try #require(published["id"].flatMap { if case .string(let id) = $0 { id } else { nil } })
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/mine")))) == [id, "sg_8c01"])
        #expect(!ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/inbox")))).contains(id))
        let detail = try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/\(id)")))
        #expect(detail["replies_count"] == .int(0))
        #expect(detail["viewer_state"]?["is_mine"] == .bool(true))
    }

    @Test func aPublishedSignalKeepsTheTagsAndMediaItWasSent() throws {
        var fixture = try signals()
        let body = #"{"content":"湖边","is_flash":false,"tags":["旅行"],"media":[{"type":"image","url":"https://cdn.example.com/u/1.jpg","width":3,"height":4}]}"#
        let published = try data(fixture.handle(fixture.signed("POST", "/api/v1/signals", body: body)))
        #expect(published["tags"] == .array([.string("旅行")]))
        #expect(published["media"] == .array([.object([.init("type", .string("image")), .init("url", .string("https://cdn.example.com/u/1.jpg")),
                                                       .init("width", .int(3)), .init("height", .int(4))])]))
        let id = try #require(published["id"].map(PlainText.of))
        let detail = try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/\(id)")))
        #expect(detail["tags"] == published["tags"])
        #expect(detail["media"] == published["media"])
    }

    @Test func aReplyRaisesRepliesCountAndMarksTheViewer() throws {
        var fixture = try signals()
        let reply = try data(fixture.handle(fixture.signed("POST", "/api/v1/signals/sg_7f3a/reply", body: #"{"content":"好呀"}"#)))
        #expect(reply["conversation_id"].map(PlainText.of)?.hasPrefix("cv_sg_7f3a_") == true)
        #expect(reply.objectKeys == ["conversation_id"])
        _ = try data(fixture.handle(fixture.signed("POST", "/api/v1/signals/sg_7f3a/reply", body: #"{"content":"几点？"}"#)))
        let detail = try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/sg_7f3a")))
        #expect(detail["replies_count"] == .int(5))
        #expect(detail["viewer_state"]?["has_replied"] == .bool(true))
    }

    @Test func aDeletedSignalIsGoneFromListsAndTheDetailAnswersNotFound() throws {
        var fixture = try signals()
        let published = try data(fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"删掉我","is_flash":false}"#)))
        let id = try #require(published["id"].map(PlainText.of))
        _ = try data(fixture.handle(fixture.signed("DELETE", "/api/v1/signals/\(id)")))
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/mine?status=active")))) == ["sg_8c01"])
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/mine?status=deleted")))) == [id])
        let gone = try JSONReader.read(fixture.handle(fixture.signed("GET", "/api/v1/signals/\(id)")).bodyBytes)
        #expect(gone["code"] == .int(3001))
        #expect(gone["data"] == .object([.init("error", .string("not_found")),
                                         .init("message", .string("no record with key '\(id)' in 'signals' for this session"))]))
        // Someone else's signal cannot be deleted: it is missing among the caller's own.
        #expect(try JSONReader.read(fixture.handle(fixture.signed("DELETE", "/api/v1/signals/sg_7f3a")).bodyBytes)["code"] == .int(3001))
    }

    @Test func aFlashSignalIsGoneOnceViewedAndTheUnreadCountFollows() throws {
        var fixture = try signals()
        let before = try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/inbox?filter=flash")))
        #expect(ids(before) == ["sg_flash_1"])
        #expect(before["unread_count"] == .int(2))
        _ = try data(fixture.handle(fixture.signed("POST", "/api/v1/signals/sg_flash_1/flash-viewed")))
        let after = try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/inbox?filter=flash")))
        #expect(ids(after) == [])
        #expect(after["unread_count"] == .int(1))
        #expect(try JSONReader.read(fixture.handle(fixture.signed("POST", "/api/v1/signals/sg_flash_1/flash-viewed")).bodyBytes)["code"] == .int(3001))
        // Opening the last unread signal reads it.
        _ = try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/sg_7f3b")))
        #expect(try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/inbox")))["unread_count"] == .int(0))
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/inbox?filter=unread")))) == [])
    }

    @Test func theQuotaFollowsPublishesAnd3008ArrivesByItself() throws {
        var fixture = try signals()
        // The seeds hold one signal of the user's own: 19 more reach the limit of 20.
        #expect(try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/quota")))["used"] == .int(1))
        for index in 1...19 {
            let response = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"第 \#(index) 条","is_flash":false}"#))
            #expect(try JSONReader.read(response.bodyBytes)["code"] == .int(0))
        }
        #expect(try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/quota")))["used"] == .int(20))
        let refused = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"第 21 条","is_flash":false}"#))
        #expect(try JSONReader.read(refused.bodyBytes)["code"] == .int(3008))
        #expect(refused.summary.source == "fixture:over-quota")
    }

    @Test func theSendersListPagesWithCursorsAndRefusesOneNeverIssued() throws {
        var fixture = try signals()
        for index in 1...5 {
            _ = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"\#(index)","is_flash":false}"#))
        }
        var seen: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let query = "limit=2" + (cursor.map { "&cursor=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) } ?? "")
            let page = try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/mine?\(query)")))
            seen += ids(page)
            cursor = page["next_cursor"].map(PlainText.of)
            #expect(page["has_more"] == .bool(cursor != nil))
            pages += 1
        } while cursor != nil && pages < 10
        #expect(pages == 3)
        // Newest first; published within one second, so the key breaks the tie.
        #expect(seen == ["sg_5", "sg_4", "sg_3", "sg_2", "sg_1", "sg_8c01"])
        let made = fixture.handle(fixture.signed("GET", "/api/v1/signals/mine?cursor=c1.e30.0000"))
        let body = try JSONReader.read(made.bodyBytes)
        #expect(made.status == 400)
        #expect(body["code"] == .int(1000))
        #expect(body["data"]?["violations"]?.value(at: "/0/pointer") == .string("/query/cursor"))
    }

    @Test func sessionsDoNotSeeEachOthersRecords() throws {
        var fixture = try signals()
        let published = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"a","is_flash":false}"#,
                                                      headers: [("X-Accord-Session", "ui-1")]))
        let id = try data(published)["id"].map(PlainText.of)
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/mine", headers: [("X-Accord-Session", "ui-1")]))))
                == [id ?? "", "sg_8c01"])
        #expect(ids(try data(fixture.handle(fixture.signed("GET", "/api/v1/signals/mine", headers: [("X-Accord-Session", "ui-2")])))) == ["sg_8c01"])
    }
}

/// A JSON value as plain text: a string without its quotes, anything else as JSON.
enum PlainText {
    static func of(_ value: JSONValue) -> String {
        if case .string(let text) = value { return text }
        return JSONWriter.string(value)
    }
}

extension JSONValue {
    /// The member names of an object, in order.
    var objectKeys: [String] {
        if case .object(let members) = self { return members.map(\.key) }
        return []
    }
}
