import Foundation
import Testing
import TongbanAPI

/// Tagged unions as the generated Swift reads and writes them: the discriminator selects
/// the case, a kind this version does not know keeps its whole JSON, and encoding writes
/// the discriminator back beside the shape's members.
@Suite struct TaggedUnionTests {
    private let feed = #"""
    {"items":[
      {"kind":"user","user":{"uid":20041,"nickname":"晚风","avatar":"https://cdn.example.com/a.jpg","gender":2},
       "photos":[{"url":"https://cdn.example.com/p.jpg","width":750,"height":1000}],"tags":["摄影"]},
      {"kind":"ad","ad_id":"ad_7","title":"会员","image":{"url":"https://cdn.example.com/ad.jpg","width":1,"height":2},
       "link":"https://tongban.example.com/vip"},
      {"kind":"live_room","room_id":"lr_9","viewers":12045,"nested":{"a":[1,2.5,null,true]}},
      {"kind":"system","title":"今日推荐已看完","message":"明天再来"}
    ],"has_more":false}
    """#

    private func json(_ data: Data) throws -> NSDictionary {
        try #require(JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    @Test func theDiscriminatorSelectsTheCaseAndAnUnknownKindKeepsItsJSON() throws {
        let page = try JSONDecoder().decode(Page<FeedCard>.self, from: Data(feed.utf8))
        #expect(page.items.map(\.kind) == ["user", "ad", "live_room", "system"])
        guard case .user(let card) = page.items[0] else { Issue.record("not a user card: \(page.items[0])"); return }
        #expect(card.user.nickname == "晚风")
        #expect(card.photos.first?.width == 750)
        guard case .ad(let ad) = page.items[1] else { Issue.record("not an ad card: \(page.items[1])"); return }
        #expect(ad.adID == "ad_7")
        guard case .unknown(let kind, let raw) = page.items[2] else { Issue.record("not unknown: \(page.items[2])"); return }
        #expect(kind == "live_room")
        // Written back, the unknown card is the object as sent.
        let original = try json(Data(feed.utf8))
        let items = try #require(original["items"] as? [NSDictionary])
        #expect(try json(JSONEncoder().encode(raw)) == items[2])
        // Every card encodes back to what was sent, its discriminator included.
        for (index, item) in page.items.enumerated() {
            #expect(try json(JSONEncoder().encode(item)) == items[index], "card \(index)")
        }
    }

    @Test func aKnownKindWithTheWrongShapeFailsAndAMissingKindFails() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(FeedCard.self, from: Data(#"{"kind":"ad","title":"no id"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(FeedCard.self, from: Data(#"{"title":"t","message":"m"}"#.utf8))
        }
    }

    @Test func aCaseBuiltInSwiftEncodesItsDiscriminator() throws {
        let push = PushPayload.system(SystemPush(title: "测试", body: "推送已接通"))
        let written = try json(JSONEncoder().encode(push))
        #expect(written == ["type": "system", "title": "测试", "body": "推送已接通"] as NSDictionary)
        #expect(try JSONDecoder().decode(PushPayload.self, from: JSONEncoder().encode(push)) == push)
    }
}
