import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TongbanAPI

/// The generated client through its `Transport` seam, with a fixed clock and nonce: the
/// exact request it puts on the wire, and how it reads what comes back.
@Suite struct TransportSeamTests {
    /// Answers every request with one envelope and keeps the requests.
    private actor RecordingTransport: Transport {
        private(set) var requests: [URLRequest] = []
        let answer: String

        init(answer: String) {
            self.answer = answer
        }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            requests.append(request)
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1",
                                           headerFields: ["Content-Type": "application/json"])!
            return (Data(answer.utf8), response)
        }
    }

    private func client(_ transport: some Transport, storage: InMemoryTokenStorage = InMemoryTokenStorage()) -> APIClient {
        APIClient(configuration: ClientConfiguration(serverURL: URL(string: "https://api.example.com/")!, appKey: "dev_app_key",
                                                     appSecret: "dev_app_secret", deviceID: "D-1", os: "ios", appVersion: "1.2.0"),
                  storage: storage, transport: transport,
                  clock: { Date(timeIntervalSince1970: 1_764_500_000.9) }, nonce: { "n-0001" })
    }

    @Test func theFirstSigningVectorGoesOnTheWireAsTheDocumentSays() async throws {
        let transport = RecordingTransport(answer: #"{"code":0,"message":"ok","data":{"items":[],"unread_count":0}}"#)
        let api = client(transport, storage: InMemoryTokenStorage(Tokens(accessToken: "at_1", refreshToken: "rt_1")))
        let inbox = try await api.send(API.signal.inbox(cursor: "abc", limit: 20))
        #expect(inbox == SignalInbox(items: [], unreadCount: 0))
        let request = try #require(await transport.requests.first)
        #expect(request.url?.absoluteString == "https://api.example.com/api/v1/signals/inbox?cursor=abc&limit=20")
        #expect(request.httpMethod == "GET")
        #expect(request.value(forHTTPHeaderField: "X-Timestamp") == "1764500000")
        #expect(request.value(forHTTPHeaderField: "X-Nonce") == "n-0001")
        // Vector 1 of docs/signing-vectors.json.
        #expect(request.value(forHTTPHeaderField: "X-Sign") == "3b4f2f49f4bf30d5af9c52fc268604ef")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer at_1")
        #expect(request.httpBody == nil)
    }

    @Test func theBodySentIsTheCanonicalJSONThatWasSigned() async throws {
        let transport = RecordingTransport(answer: #"{"code":0,"message":"ok","data":{"code_ttl":300}}"#)
        let api = client(transport)
        _ = try? await api.send(API.auth.smsSend(AuthSMSSendRequest(phone: "13800138000", scene: .login)))
        let request = try #require(await transport.requests.first)
        let body = try #require(request.httpBody)
        #expect(String(decoding: body, as: UTF8.self) == #"{"phone":"13800138000","scene":"login"}"#)
        let signer = RequestSigner(appKey: "dev_app_key", appSecret: "dev_app_secret")
        #expect(request.value(forHTTPHeaderField: "X-Sign")
                == signer.signature(timestamp: "1764500000", nonce: "n-0001", sortedParams: "phone=13800138000&scene=login"))
    }

    @Test func anAnswerThatIsNotTheEnvelopeIsUndecodable() async throws {
        let api = client(RecordingTransport(answer: #"{"items":[]}"#))
        do {
            _ = try await api.send(API.signal.quota())
            Issue.record("a bare object was read as an answer")
        } catch {
            guard case .undecodable = error else {
                Issue.record("\(error)")
                return
            }
        }
    }
}
