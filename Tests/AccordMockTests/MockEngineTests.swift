import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordTesting
import Testing

@Suite struct MockEngineTests {
    // MARK: Answers

    @Test func signedRequestGetsTheContractExampleByteForByte() throws {
        var fixture = try EngineFixture()
        let response = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota"))
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json; charset=utf-8")
        #expect(response.text == #"{"code":0,"msg":"ok","data":{"daily_limit":20,"used":3,"resets_at":"2026-12-01T00:00:00+08:00"}}"#)
        #expect(response.summary == .init(endpoint: "signal.quota", source: "example:default", code: 0, verdict: .ok))
    }

    @Test func preferPicksANamedExampleAndRefusesUnknownNames() throws {
        var fixture = try EngineFixture()
        let quota = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"hi","is_flash":false}"#,
                                                  headers: [("Prefer", "example=quota")]))
        #expect(quota.status == 200)
        #expect(quota.text == #"{"code":3008,"msg":"今日信号已达上限","data":null}"#)
        let unknown = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: [("Prefer", "example=nope")]))
        #expect(unknown.status == 400)
        #expect(unknown.text == #"{"code":1000,"msg":"no fixture or example named 'nope' for 'signal.quota'; available: default","data":{"error":"unknown_example","available":["default"]}}"#)
    }

    @Test func fixturesMatchByQueryHeaderAndBodyWithPriorityAndDefault() throws {
        var fixture = try EngineFixture(fixtures: """
        signal.inbox:
          - name: everything
            default: true
            data: {items: [], unread_count: 99}
          - name: unread
            when: {query: {filter: unread}}
            data: {items: [], unread_count: 1}
          - name: android-unread
            priority: 5
            when: {query: {filter: unread}, headers: {X-OS: {regex: '^and'}}}
            data: {items: [], unread_count: 2}
        auth.login-phone:
          - name: new-user
            when: {body: {/phone: {regex: '^139'}, password: {present: false}}}
            data:
              is_new_user: true
              access_token: at_new
              refresh_token: rt_new
              access_expires_in: 7200
              refresh_expires_in: 2592000
              im_token: im
              user: {uid: 1, nickname: 新朋友, avatar: 'https://a.example/1.jpg', gender: 0, is_verified: false, is_vip: false,
                     bio: '', mbti: '', orientation: 0, attribute: 0, is_personalized: false, is_profile_hidden: false,
                     onboarding_completed: false}
        """)
        func unread(_ request: MockRequest) -> JSONValue? { fixture.handle(request).json?["data"]?["unread_count"] }
        #expect(unread(fixture.signed("GET", "/api/v1/signals/inbox")) == .int(99))
        #expect(unread(fixture.signed("GET", "/api/v1/signals/inbox?filter=unread")) == .int(1))
        #expect(unread(fixture.signed("GET", "/api/v1/signals/inbox?filter=unread", headers: [("X-OS", "android")]).replacingHeader("x-os", "android")) == .int(2))
        let login = #"{"phone":"13900139000","code":"123456","device_info":{"device_id":"D","os":"ios","os_version":"26","model":"m","app_version":"1"}}"#
        let answer = fixture.handle(fixture.signed("POST", "/api/v1/auth/login/phone", body: login, bearer: .none))
        #expect(answer.summary.source == "fixture:new-user")
        let other = fixture.handle(fixture.signed("POST", "/api/v1/auth/login/phone", body: login.replacingOccurrences(of: "139", with: "138"), bearer: .none))
        #expect(other.summary.source == "example:default")
    }

    @Test func templatesReadTheRequestAndTheHelpers() throws {
        var fixture = try EngineFixture(fixtures: """
        signal.reply:
          - name: echo
            default: true
            data: {conversation_id: 'cv_{{request.path.signal_id}}_{{seq}}'}
        signal.publish:
          - name: echo
            default: true
            headers: {X-Request-Id: fixed}
            delay: 150ms
            data:
              id: 'sg_{{seq}}'
              sender: {uid: '{{random 1 1000}}', nickname: 我, avatar: 'https://a.example/me.jpg', gender: 1}
              content: '{{request.body.content}}'
              media: []
              tags: '{{request.body.tags}}'
              is_flash: '{{request.body.is_flash}}'
              status: active
              created_at: '{{now}}'
              expires_at: '{{now + 2h}}'
        """, seed: 42)
        let first = fixture.handle(fixture.signed("POST", "/api/v1/signals/sg_7/reply", body: #"{"content":"好"}"#))
        #expect(first.json?["data"] == .object([.init("conversation_id", .string("cv_sg_7_1"))]))
        let second = fixture.handle(fixture.signed("POST", "/api/v1/signals/sg_7/reply", body: #"{"content":"好"}"#))
        #expect(second.json?["data"]?["conversation_id"] == .string("cv_sg_7_2"))

        let published = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"你好 👋","is_flash":true,"tags":["旅行"]}"#))
        let data = try #require(published.json?["data"])
        #expect(data["id"] == .string("sg_3"))
        #expect(data["content"] == .string("你好 👋"))
        #expect(data["tags"] == .array([.string("旅行")]))
        #expect(data["is_flash"] == .bool(true))
        #expect(data["created_at"] == .string("2026-11-30T08:00:00Z"))
        #expect(data["expires_at"] == .string("2026-11-30T10:00:00Z"))
        #expect(published.header("X-Request-Id") == "fixed")
        #expect(published.delayMilliseconds == 150)

        // The same seed gives the same "random" numbers.
        var again = try EngineFixture(fixtures: "signal.publish:\n  - {name: r, default: true, data: {id: x, sender: {uid: '{{random 1 1000}}', nickname: n, avatar: 'https://a.example/a', gender: 1}, content: c, media: [], tags: [], is_flash: false, status: active, created_at: '{{now}}'}}\n", seed: 42)
        let replayed = again.handle(again.signed("POST", "/api/v1/signals", body: #"{"content":"x","is_flash":false}"#))
        #expect(replayed.json?["data"]?["sender"]?["uid"] == data["sender"]?["uid"])
    }

    @Test func streamedChatSendsEventsEndingInDone() throws {
        var fixture = try EngineFixture(fixtures: """
        ai.chat:
          - name: streamed
            when: {body: {stream: true}}
            stream:
              - {data: {delta: 你好}, delay: 100ms}
              - {data: {delta: '，{{request.body.session_id}}'}, delay: 100ms}
        """)
        let body = #"{"session_id":"ss_1","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        let response = fixture.handle(fixture.signed("POST", "/api/v1/ai/chat", body: body))
        #expect(response.header("content-type") == "text/event-stream; charset=utf-8")
        #expect(response.body == .events([
            .init(data: Array(#"{"delta":"你好"}"#.utf8), delayMilliseconds: 100),
            .init(data: Array(#"{"delta":"，ss_1"}"#.utf8), delayMilliseconds: 100),
            .init(data: Array("[DONE]".utf8)),
        ]))
        #expect(response.text == "data: {\"delta\":\"你好\"}\n\ndata: {\"delta\":\"，ss_1\"}\n\ndata: [DONE]\n\n")
        let plain = fixture.handle(fixture.signed("POST", "/api/v1/ai/chat", body: body.replacingOccurrences(of: "true", with: "false")))
        #expect(plain.summary.source == "example:default")
    }

    @Test func withoutFixtureOrExampleTheSchemaGeneratesAStableValue() throws {
        var fixture = try EngineFixture()
        let body = #"{"session_id":"s","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        let streamed = fixture.handle(fixture.signed("POST", "/api/v1/ai/chat", body: body))
        #expect(streamed.summary.source == "generated")
        #expect(streamed.text == "data: {\"delta\":\"delta\"}\n\ndata: {\"delta\":\"delta\"}\n\ndata: {\"delta\":\"delta\"}\n\ndata: [DONE]\n\n")
    }

    // MARK: Refusals

    @Test func unknownRouteNamesTheNearestOnes() throws {
        var fixture = try EngineFixture()
        let response = fixture.handle(fixture.signed("GET", "/api/v1/signal/inbox"))
        #expect(response.status == 404)
        #expect(response.text == #"{"code":1000,"msg":"no route for GET /api/v1/signal/inbox","data":{"error":"route_not_found","nearest":["GET /api/v1/signals/inbox","GET /api/v1/signals/mine","GET /api/v1/signals/quota"]}}"#)
    }

    @Test func wrongMethodAnswers405WithAllow() throws {
        var fixture = try EngineFixture()
        let response = fixture.handle(fixture.signed("PUT", "/api/v1/signals/sg_1"))
        #expect(response.status == 405)
        #expect(response.header("Allow") == "GET, DELETE, HEAD, OPTIONS")
    }

    @Test func aLiteralPathWinsForEveryMethodAndHEADIsAnsweredAsGET() throws {
        var fixture = try EngineFixture()
        // DELETE is declared for /signals/{id}, not for the literal /signals/inbox: a 405 of the literal path.
        let deleted = fixture.handle(fixture.signed("DELETE", "/api/v1/signals/inbox"))
        #expect(deleted.status == 405)
        #expect(deleted.header("Allow") == "GET, HEAD, OPTIONS")
        #expect(deleted.json?["data"]?["allowed"] == .array([.string("GET"), .string("HEAD")]))
        let head = fixture.handle(fixture.signed("HEAD", "/api/v1/signals/inbox"))
        let get = fixture.handle(fixture.signed("GET", "/api/v1/signals/inbox"))
        #expect(head.status == 200)
        #expect(head.summary.endpoint == "signal.inbox")
        #expect(head.header("content-type") == get.header("content-type"))
        // HEAD on a templated route, too.
        #expect(fixture.handle(fixture.signed("HEAD", "/api/v1/signals/sg_7f3b")).summary.endpoint == "signal.detail")
    }

    @Test func malformedJSONSaysWhere() throws {
        var fixture = try EngineFixture()
        let response = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: "{\"content\": \"x\",\n \"is_flash\": tru}"))
        #expect(response.status == 400)
        #expect(response.json?["data"] == .object([
            .init("error", .string("malformed_json")), .init("offset", .int(30)), .init("line", .int(2)), .init("column", .int(14)),
        ]))
        #expect(response.json?["msg"] == .string("the body is not JSON: invalid literal; expected 'true' at line 2, column 14 (byte 30)"))
    }

    @Test func everyViolationIsListed() throws {
        var fixture = try EngineFixture()
        var request = fixture.signed("POST", "/api/v1/signals?debug=1",
                                     body: #"{"content":"","is_flash":"yes","tags":["a","b","c","d","e","f"],"media":[{"type":"gif","url":"nope"}]}"#)
        request.headers["x-os"] = "windows"
        let response = fixture.handle(request)
        #expect(response.status == 400)
        let violations = try #require(response.json?["data"]?["violations"])
        guard case .array(let list) = violations else { return }
        #expect(list.map { $0["pointer"] } == [
            "/query/debug", "/headers/X-OS", "/body/content", "/body/media/0/type", "/body/media/0/url", "/body/tags", "/body/is_flash",
        ].map { .string($0) })
        #expect(list[1] == .object([.init("pointer", .string("/headers/X-OS")), .init("expected", .string("one of ios, android")),
                                    .init("actual", .string("a string \"windows\"")),
                                    .init("message", .string("expected one of ios, android, found a string \"windows\""))]))
        #expect(response.json?["msg"] == .string("7 problems in the request"))
        #expect(response.summary.verdict == .invalid)
    }

    @Test func typedQueryParametersAreCoerced() throws {
        var fixture = try EngineFixture()
        let bad = fixture.handle(fixture.signed("GET", "/api/v1/signals/inbox?limit=abc&filter=all&filter=unread"))
        let messages = bad.json?["data"]?["violations"].flatMap { value -> [JSONValue]? in
            if case .array(let items) = value { return items.compactMap { $0["message"] } }
            return nil
        }
        #expect(messages == [.string("expected integer, found 'abc'"), .string("'filter' is given 2 times; it takes one value")])
        let outOfRange = fixture.handle(fixture.signed("GET", "/api/v1/signals/inbox?limit=51"))
        #expect(outOfRange.json?["msg"] == .string("expected at most 50, found an integer 51"))
        let repeated = fixture.handle(fixture.signed("GET", "/api/v1/review/tasks?range=today"))
        #expect(repeated.status == 200)
    }

    @Test func missingBearerTokenEndsTheSession() throws {
        var fixture = try EngineFixture()
        let response = fixture.handle(fixture.signed("GET", "/api/v1/users/me", bearer: .none))
        #expect(response.text == #"{"code":1006,"msg":"账号已在其他设备登录","data":{"reason":"missing 'Authorization: Bearer <access_token>'"}}"#)
        let open = fixture.handle(fixture.signed("GET", "/api/v1/app/start-config", bearer: .none))
        #expect(open.status == 200)
    }

    @Test func bodyLimitAndMediaType() throws {
        var fixture = try EngineFixture()
        var large = fixture.signed("POST", "/api/v1/feedback", body: #"{"category":"bug","content":"x"}"#)
        large.bodyLimitExceeded = true
        let tooLarge = fixture.handle(large)
        #expect(tooLarge.status == 413)
        #expect(tooLarge.json?["data"]?["error"] == .string("body_too_large"))
        var form = fixture.signed("POST", "/api/v1/feedback", body: "category=bug")
        form.headers["content-type"] = "application/x-www-form-urlencoded"
        let unsupported = fixture.handle(form)
        #expect(unsupported.status == 415)
        #expect(unsupported.json?["msg"] == .string("'feedback.submit' takes application/json, found 'application/x-www-form-urlencoded'"))
    }

    // MARK: Signing

    @Test func signatureFailuresExplainThemselves() throws {
        var fixture = try EngineFixture()
        var tampered = fixture.signed("POST", "/api/v1/feedback", body: #"{"category":"bug","content":"x"}"#)
        tampered.body = Array(#"{"category":"bug","content":"y"}"#.utf8)
        let bad = fixture.handle(tampered)
        #expect(bad.status == 200)
        #expect(bad.code == .int(1001))
        #expect(bad.json?["data"]?["sorted_params"] == .string("category=bug&content=y"))
        let nonce = tampered.header("x-nonce")!
        #expect(bad.json?["data"]?["string_to_sign"] == .string("dev_app_key\(fixture.now)\(nonce)category=bug&content=y<app_secret>"))

        let stale = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", timestamp: fixture.now - 301))
        #expect(stale.code == .int(1003))
        let request = fixture.signed("GET", "/api/v1/signals/quota")
        #expect(fixture.handle(request).code == .int(0))
        let replay = fixture.handle(request)
        #expect(replay.code == .int(1004))
        #expect(replay.summary.verdict == .replay)

        let unsigned = fixture.handle(MockRequest(method: "GET", target: "/api/v1/signals/quota"))
        #expect(unsigned.json?["data"]?["missing_headers"] == .array(["X-App-Key", "X-Timestamp", "X-Nonce", "X-Sign"].map { .string($0) }))
    }

    @Test func exemptEndpointsAndNoSignOptionSkipVerification() throws {
        let headers = [("X-Device-Id", "D"), ("X-OS", "ios"), ("X-App-Version", "1.0.0")]
        let exempt = try EngineFixture().handle(MockRequest(method: "GET", target: "/api/v1/app/start-config", headers: headers))
        #expect(exempt.code == .int(0))
        let noSign = try EngineFixture(options: MockOptions(verifiesSignatures: false))
        let unsigned = noSign.handle(MockRequest(method: "GET", target: "/api/v1/signals/quota",
                                                 headers: headers + [("Authorization", "Bearer \(noSign.token)")]))
        #expect(unsigned.code == .int(0))
        let signing = try EngineFixture()
        let refused = signing.handle(MockRequest(method: "GET", target: "/api/v1/signals/quota",
                                                 headers: headers + [("Authorization", "Bearer \(signing.token)")]))
        #expect(refused.code == .int(1001))
    }

    // MARK: CORS

    @Test func preflightIsAnswered() throws {
        let fixture = try EngineFixture()
        let response = fixture.handle(MockRequest(method: "OPTIONS", target: "/api/v1/signals/sg_1", headers: [
            ("Origin", "http://localhost:3000"), ("Access-Control-Request-Method", "DELETE"),
            ("Access-Control-Request-Headers", "x-sign, content-type"),
        ]))
        #expect(response.status == 204)
        #expect(response.header("Access-Control-Allow-Methods") == "GET, DELETE, HEAD, OPTIONS")
        #expect(response.header("Access-Control-Allow-Headers") == "x-sign, content-type")
        #expect(response.header("Access-Control-Allow-Origin") == "*")
    }
}

extension MockRequest {
    func replacingHeader(_ name: String, _ value: String) -> MockRequest {
        var copy = self
        copy.headers[name] = value
        return copy
    }
}
