import AccordHTTP
import AccordJSON
import AccordMock
import AccordTesting
import Testing

/// What the console's replay, copy as cURL, types and header values ask of the engine.
@Suite struct ConsoleReplayTests {
    private func control(_ fixture: EngineFixture, _ target: String, _ body: String) -> MockResponse {
        fixture.handle(MockRequest(method: "POST", target: target, headers: [("Content-Type", "application/json"), ("Host", "127.0.0.1:8080")],
                                   body: Array(body.utf8)))
    }

    @Test func aJournalEntryIsSentAgainSignedAfreshUnderItsSession() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let token = fixture.token
        let sent = fixture.handle(fixture.signed("GET", "/api/v1/signals/inbox?limit=5"))
        #expect(sent.code == .int(0))
        let original = try #require(fixture.state.journal.entries().last)
        let replayed = control(fixture, "/__accord/replay", #"{"seq": \#(original.sequence), "token": "\#(token)"}"#)
        #expect(replayed.status == 200, "\(replayed.text)")
        #expect(replayed.json?["response"]?["body"]?["code"] == .int(0))
        let again = try #require(fixture.state.journal.entries().last)
        #expect(again.sequence > original.sequence)
        #expect((again.endpoint, again.session, again.query.map(\.value)) == ("signal.inbox", original.session, ["5"]))
        #expect(again.headers["x-nonce"] != original.headers["x-nonce"])
        // Without the token, which the journal masks, the server says so as it would to the app.
        #expect(control(fixture, "/__accord/replay", #"{"seq": \#(original.sequence)}"#).json?["response"]?["body"]?["code"] == .int(1006))
    }

    @Test func copyAsCurlIsOneCommandLineForThisServer() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        _ = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"周末 'hi'","is_flash":false}"#))
        let entry = try #require(fixture.state.journal.entries().last)
        let line = try #require(control(fixture, "/__accord/replay", #"{"seq": \#(entry.sequence), "token": "T1", "curl": true}"#).json?["curl"])
        guard case .string(let text) = line else { return }
        #expect(text.hasPrefix("curl -sS -X POST http://127.0.0.1:8080/api/v1/signals -H 'X-Device-Id: D-1' -H 'X-OS: ios' "))
        #expect(text.contains(" -H 'Authorization: Bearer T1' "))
        #expect(text.hasSuffix(#" --data-binary '{"content":"周末 '\''hi'\''","is_flash":false}'"#))
    }

    @Test func requestsThatCannotBeReplayedAreToldWhy() throws {
        let fixture = try EngineFixture(fixturesIn: Repository.mocks)
        #expect(control(fixture, "/__accord/replay", "{}").json?["message"] == .string(#"give {"seq": N, "token"?, "curl"?}: the journal entry to send again"#))
        #expect(control(fixture, "/__accord/replay", #"{"seq": 999}"#).status == 404)
        _ = fixture.handle(MockRequest(method: "GET", target: "/api/v1/nowhere"))
        let unrouted = try #require(fixture.state.journal.entries().last)
        #expect(control(fixture, "/__accord/replay", #"{"seq": \#(unrouted.sequence)}"#).json?["message"]
                == .string("request #\(unrouted.sequence) reached no endpoint of the contracts"))
    }

    @Test func theContractNamesItsTypesMembersAndTheHeaderValuesTryItStartsFrom() throws {
        let fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let contract = try #require(fixture.handle(MockRequest(method: "GET", target: "/__accord/contract")).json)
        #expect(contract["headers"] == .object([.init("X-Device-Id", .string("vvvvvvvv")), .init("X-OS", .string("ios")),
                                                .init("X-App-Version", .string("0.0")), .init("X-Language", .string("zh"))]))
        #expect(contract["types"]?["SignalStatus"] == .object([.init("kind", .string("enum")), .init("values", .array(["active", "expired", "deleted"].map(JSONValue.string)))]))
        guard case .array(let fields)? = contract["types"]?["Signal"]?["fields"] else {
            Issue.record("Signal has no fields")
            return
        }
        #expect(fields.first == .object([.init("name", .string("id")), .init("type", .string("string")), .init("optional", .bool(false)),
                                         .init("nullable", .bool(false))]))
        let tried = control(fixture, "/__accord/try", #"{"endpoint": "auth.sms-send", "headers": {"x-device-id": "from-the-console"}, "#
                            + #""body": {"phone": "13800138000", "scene": "login"}}"#)
        #expect(tried.json?["request"]?["headers"]?["X-Device-Id"] == .string("from-the-console"))
    }
}
