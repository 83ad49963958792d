@testable import AccordClientRuntime
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the in-process mock reads a request, without any contract: the path below the
/// base path, path parameters decoded, the query, and the JSON or multipart body its
/// fixtures' matchers test.
@Suite struct ReceivedRequestTests {
    private static let route = MockRoute(id: "signal.get", method: .get, path: "/signals/{signal_id}", requiresAuth: true, answers: [])

    private func request(_ url: String, method: String = "GET", type: String? = nil, body: Data? = nil) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        request.setValue(type, forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return request
    }

    @Test func thePathBelowTheBasePathAndItsParametersDecoded() throws {
        // The server URL has a path of its own before the base path.
        let received = ReceivedRequest(try request("https://h.example/gateway/api/v1/signals/sg%2F1%20x?cursor=a%20b&limit=20"), basePath: "/api/v1")
        #expect(received.method == "GET")
        #expect(received.segments == ["signals", "sg%2F1%20x"])
        #expect(Self.route.matches(received.segments))
        let parameters = received.parameters(of: Self.route)
        #expect(parameters == ["signal_id": "sg/1 x"])
        #expect(received.satisfies(.init(.query, "cursor", .equals("a b")), parameters: parameters))
        #expect(received.satisfies(.init(.params, "signal_id", .regex("^sg/")), parameters: parameters))
        #expect(received.satisfies(.init(.query, "missing", .present(false)), parameters: parameters))
        #expect(!received.satisfies(.init(.query, "limit", .equals("21")), parameters: parameters))
    }

    @Test func aJSONBodyIsReadByPointer() throws {
        let body = Data(#"{"device_info":{"os":"ios","build":42},"tags":["a","b"],"note":null}"#.utf8)
        let received = ReceivedRequest(try request("https://h.example/api/v1/signals", method: "POST", type: "application/json", body: body),
                                       basePath: "/api/v1")
        #expect(received.satisfies(.init(.body, "/device_info/os", .equals("ios")), parameters: [:]))
        #expect(received.satisfies(.init(.body, "/device_info/build", .equals("42")), parameters: [:]))
        #expect(received.satisfies(.init(.body, "/tags/1", .equals("b")), parameters: [:]))
        // `null` is no value; an index past the end, or on an object, is none either.
        #expect(received.satisfies(.init(.body, "/note", .present(false)), parameters: [:]))
        #expect(received.satisfies(.init(.body, "/tags/2", .present(false)), parameters: [:]))
        #expect(received.satisfies(.init(.body, "/device_info/0", .present(false)), parameters: [:]))
    }

    @Test func aMultipartBodyIsItsTextPartsWithoutTheFiles() throws {
        let body = Data(("--XyZ\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\n海边 🌊\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n\u{1}\u{2}\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"kind\"\r\n\r\navatar\r\n--XyZ--\r\n").utf8)
        let received = ReceivedRequest(try request("https://h.example/api/v1/uploads", method: "POST", type: "multipart/form-data; boundary=XyZ",
                                                   body: body), basePath: "/api/v1")
        #expect(received.body.map { String(decoding: $0.bytes, as: UTF8.self) } == #"{"caption":"海边 🌊","kind":"avatar"}"#)
        #expect(received.satisfies(.init(.body, "/kind", .equals("avatar")), parameters: [:]))
        #expect(received.satisfies(.init(.body, "/photo", .present(false)), parameters: [:]))
    }

    /// Cut anywhere, or with bytes replaced, a multipart body gives the parts it still holds
    /// whole and never traps (2,000 seeded variations).
    @Test func aBrokenMultipartBodyNeverTraps() throws {
        let whole = Array(("--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\none\r\n--B\r\nContent-Disposition: form-data; name=\"b\"\r\n\r\ntwo\r\n--B--\r\n").utf8)
        var random = Random(seed: 7)
        for round in 0..<2_000 {
            var bytes = Array(whole.prefix(Int(random.next() % UInt64(whole.count + 1))))
            if round.isMultiple(of: 2), !bytes.isEmpty {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            let received = ReceivedRequest(try request("https://h.example/api/v1/x", method: "POST", type: "multipart/form-data; boundary=B",
                                                       body: Data(bytes)), basePath: "/api/v1")
            guard case .object(let fields)? = received.body else { Issue.record("no object for \(bytes)"); return }
            #expect(fields.count <= 2)
        }
        let cut = ReceivedRequest(try request("https://h.example/api/v1/x", method: "POST", type: "multipart/form-data; boundary=B",
                                              body: Data(whole.prefix(60))), basePath: "/api/v1")
        #expect(cut.body.map { String(decoding: $0.bytes, as: UTF8.self) } == #"{"a":"one"}"#)
    }
}

/// A linear congruential generator (Knuth's MMIX constants): seeded, so a failing
/// variation replays.
private struct Random {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}
