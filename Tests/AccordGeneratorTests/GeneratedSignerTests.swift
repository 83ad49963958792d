import AccordJSON
import AccordSigning
import AccordTesting
import Foundation
import Testing
import TongbanAPI

/// The generated signer (CryptoKit where it exists, the portable MD5 here) against the
/// vectors of docs/signing-vectors.json: each body as the file writes it, and the first
/// six with bodies encoded the way the client does.
@Suite struct GeneratedSignerTests {
    @Test(arguments: SigningVector.all)
    func everyVectorOfTheFile(_ vector: SigningVector) {
        let query = vector.query.map { QueryItem(name: $0.name, value: $0.value) }
        check(query: query, body: vector.body.map { Data($0.utf8) }, timestamp: vector.timestamp, nonce: vector.nonce,
              sorted: vector.sortedParams, sign: vector.sign)
    }

    private let signer = TongbanAPI.RequestSigner(appKey: "dev_app_key", appSecret: "dev_app_secret")

    private func encode(_ value: some Encodable) throws -> Data {
        try TongbanAPI.RequestSigner.canonicalBody(value)
    }

    private func check(query: [QueryItem], body: Data?, timestamp: String, nonce: String, sorted: String, sign: String) {
        let params = TongbanAPI.RequestSigner.sortedParams(query: query, body: body)
        #expect(params == sorted)
        #expect(signer.signature(timestamp: timestamp, nonce: nonce, sortedParams: params) == sign)
    }

    @Test func vectorsWithoutBodies() {
        check(query: [.init(name: "limit", value: "20"), .init(name: "cursor", value: "abc")], body: nil, timestamp: "1764500000",
              nonce: "n-0001", sorted: "cursor=abc&limit=20", sign: "3b4f2f49f4bf30d5af9c52fc268604ef")
        check(query: [], body: nil, timestamp: "1764500000", nonce: "n-0002", sorted: "", sign: "32db600f10f77141b468f78a765a0c54")
        check(query: [.init(name: "range", value: "today"), .init(name: "range", value: "week")], body: nil, timestamp: "1764500004",
              nonce: "n-0006", sorted: "range=today&range=week", sign: "c47c4cff65a2d0464a3aa8214950e701")
    }

    @Test func vectorThreeNestedObject() throws {
        struct Device: Encodable { var os = "ios", device_id = "D-1", app_version = "1.2.0" }
        struct Body: Encodable { var phone = "13800138000", code = "123456", device_info = Device() }
        check(query: [], body: try encode(Body()), timestamp: "1764500001", nonce: "n-0003",
              sorted: #"code=123456&device_info={"app_version":"1.2.0","device_id":"D-1","os":"ios"}&phone=13800138000"#,
              sign: "77e0491fb331a12699b38022748ee382")
    }

    @Test func vectorFourNonASCIIArraysNullAndEmpty() throws {
        struct Body: Encodable {
            var content = "你好，同路人 👋", is_flash = true, tags = ["旅行", "摄影"], media: [String]? = nil, topic = ""
        }
        check(query: [], body: try encode(Body()), timestamp: "1764500002", nonce: "n-0004",
              sorted: #"content=你好，同路人 👋&is_flash=true&tags=["旅行","摄影"]&topic="#, sign: "ae5492dde91a2b879a002776c7a68d21")
    }

    @Test func vectorFiveValuesHoldingSeparators() throws {
        struct Body: Encodable { var session_id = "s_42", input_text = "a=b&c", score = 87, ratio = 0.5 }
        check(query: [.init(name: "debug", value: "1")], body: try encode(Body()), timestamp: "1764500003", nonce: "n-0005",
              sorted: "debug=1&input_text=a=b&c&ratio=0.5&score=87&session_id=s_42", sign: "ae1fcb6ff3d6009a51ebef0f96f8db44")
    }

    @Test func escapedStringsAreSignedUnescaped() throws {
        struct Body: Encodable { var text = "say \"hi\"\n\\ /" }
        #expect(TongbanAPI.RequestSigner.sortedParams(query: [], body: try encode(Body())) == "text=say \"hi\"\n\\ /")
    }

    /// Keys that JSONEncoder's `.sortedKeys` orders differently on Apple platforms and
    /// Linux (case, digits), numbers it writes differently, and integers past 2^53: the
    /// bytes sent and the signed text are the server's own canonical form.
    @Test func nestedBodiesAreCanonicalWhateverTheEncoder() throws {
        struct Body: Encodable {
            var nested = ["b": 1, "B": 2, "10": 3, "9": 4, "a_b": 5, "Z9": 6]
            var numbers = [0.1, 1e20, -0.0, 2.5e-8]
            var big = 9_007_199_254_740_993
            var Upper = ["x": [["y": "中文/emoji 👋"]]]
        }
        let body = try encode(Body())
        let expected = #"{"Upper":{"x":[{"y":"中文/emoji 👋"}]},"big":9007199254740993,"#
            + #""nested":{"10":3,"9":4,"B":2,"Z9":6,"a_b":5,"b":1},"numbers":[0.1,1e+20,0,2.5e-08]}"#
        #expect(String(decoding: body, as: UTF8.self) == expected)
        // What the mock server computes from the same bytes.
        let server = AccordSigning.SortedParams.make(query: [("q", "1")], body: try JSONReader.read(Array(body)))
        #expect(TongbanAPI.RequestSigner.sortedParams(query: [.init(name: "q", value: "1")], body: body) == server)
    }
}
