import AccordContract
import AccordHTTP
import AccordJSON
@testable import AccordMock
import AccordMockState
import AccordTesting
import AccordValidation
import Foundation
import Testing

/// `multipart/form-data` uploads in-process (docs/mocks.md, "Uploads"): the parts held to
/// the contract, the bytes sniffed, the files stored within their budget and served back.
@Suite struct UploadTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + (0..<2_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<100).map { UInt8($0) }

    typealias Part = MultipartForm.Part

    /// A signed upload: the text parts are what the signature covers, as the generated client signs them.
    private func upload(_ fixture: inout EngineFixture, _ parts: [Part], contentType: String = "multipart/form-data; boundary=accord-test-boundary",
                        body: [UInt8]? = nil) throws(StorageError) -> MockResponse {
        let text = parts.filter { $0.filename == nil && $0.name != "file" }
        let signedBody = JSONWriter.string(.object(text.map { .init($0.name, .string(String(decoding: $0.bytes, as: UTF8.self))) }))
        var signed = fixture.signed("POST", "/api/v1/uploads/images", body: signedBody)
        signed.headers["content-type"] = contentType
        signed.body = body ?? MultipartForm(parts: parts, boundary: "accord-test-boundary").bytes
        return fixture.handle(signed)
    }

    @Test func aTextPartSentWithAFilenameIsStillSignedAndValidated() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let file = Part(name: "file", filename: "me.jpg", contentType: "image/jpeg", bytes: Self.jpeg)
        // Signed over no parameters, as if `purpose` were a file: the signature does not cover it, so 1001.
        var unsigned = fixture.signed("POST", "/api/v1/uploads/images", body: "{}")
        unsigned.headers["content-type"] = "multipart/form-data; boundary=accord-test-boundary"
        unsigned.body = MultipartForm(parts: [file, Part(name: "purpose", filename: "purpose.txt", bytes: Array("avatar".utf8))],
                                      boundary: "accord-test-boundary").bytes
        #expect(fixture.handle(unsigned).code == .int(1001))
        // Signed with it, the part is a text part: validated against its enum and answered.
        var signed = fixture.signed("POST", "/api/v1/uploads/images", body: #"{"purpose":"wallpaper"}"#)
        signed.headers["content-type"] = "multipart/form-data; boundary=accord-test-boundary"
        signed.body = MultipartForm(parts: [file, Part(name: "purpose", filename: "purpose.txt", bytes: Array("wallpaper".utf8))],
                                    boundary: "accord-test-boundary").bytes
        let refused = fixture.handle(signed)
        #expect(violations(refused) == ["/body/purpose: expected one of avatar, signal, evidence, found a string \"wallpaper\""])
    }

    private func violations(_ response: MockResponse) -> [String] {
        guard case .array(let items)? = response.json?["data"]?["violations"] else { return [] }
        return items.map { item in
            let text = { (key: String) in if case .string(let value)? = item[key] { value } else { "" } }
            return text("pointer") + ": " + text("message")
        }
    }

    @Test func anUploadedImageIsStoredAndServedBackByteForByte() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let answer = try upload(&fixture, [Part(name: "file", filename: "me.jpg", contentType: "image/jpeg", bytes: Self.jpeg),
                                       Part(name: "purpose", bytes: Array("avatar".utf8))])
        #expect(answer.status == 200, "\(answer.text)")
        let data = try #require(answer.json?["data"])
        #expect(data["size"] == .int(Self.jpeg.count))
        #expect(data["content_type"] == .string("image/jpeg"))
        #expect(data["purpose"] == .string("avatar"))
        guard case .string(let url)? = data["url"], case .string(let id)? = data["id"] else { Issue.record("no url: \(answer.text)"); return }
        #expect(url == "http://localhost/__storage/\(id)")
        let served = fixture.handle(MockRequest(method: "GET", target: "/__storage/\(id)"))
        #expect(served.status == 200)
        #expect(served.bodyBytes == Self.jpeg)
        #expect(served.headers.first { $0.name == "Content-Type" }?.value == "image/jpeg")
        #expect(fixture.handle(MockRequest(method: "GET", target: "/__storage/" + String(repeating: "a", count: 32))).status == 404)
        #expect(fixture.handle(MockRequest(method: "DELETE", target: "/__storage/\(id)")).status == 405)
        // A PUT needs a policy this server signed.
        #expect(fixture.handle(MockRequest(method: "PUT", target: "/__storage/\(id)")).status == 403)
    }

    @Test func aTextFileNamedJPGIsRefusedByItsBytes() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let answer = try upload(&fixture, [Part(name: "file", filename: "notes.jpg", contentType: "image/jpeg", bytes: Array("just some notes\n".utf8)),
                                       Part(name: "purpose", bytes: Array("signal".utf8))])
        #expect(answer.status == 400)
        #expect(answer.code == .int(1000))
        #expect(violations(answer) == ["/body/file: file 'file' (notes.jpg) is sent as image/jpeg but its bytes are text"])
        // A PNG sent as a JPEG is refused too: the bytes decide, not the name or the header.
        let mislabelled = try upload(&fixture, [Part(name: "file", filename: "a.jpg", contentType: "image/jpeg", bytes: Self.png),
                                            Part(name: "purpose", bytes: Array("signal".utf8))])
        #expect(violations(mislabelled) == ["/body/file: file 'file' (a.jpg) is sent as image/jpeg but its bytes are image/png"])
    }

    @Test func everyProblemOfTheFormIsListed() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let big = Self.jpeg + [UInt8](repeating: 0, count: 4 << 20)
        let answer = try upload(&fixture, [Part(name: "file", filename: "big.jpg", contentType: "image/jpeg", bytes: big),
                                       Part(name: "purpose", bytes: Array("wallpaper".utf8)),
                                       Part(name: "caption", bytes: Array("hi".utf8))])
        #expect(violations(answer) == [
            "/body/purpose: expected one of avatar, signal, evidence, found a string \"wallpaper\"",
            "/body/file: file 'file' (big.jpg) is \(big.count) bytes; at most 4194304 are allowed",
            "/body/caption: unknown part 'caption'",
        ])
        let gif = try upload(&fixture, [Part(name: "file", filename: "a.gif", contentType: "image/gif", bytes: Array("GIF89a".utf8))])
        #expect(violations(gif) == [
            "/body/purpose: missing required member 'purpose'",
            "/body/file: file 'file' (a.gif) is sent as 'image/gif'; expected one of image/png, image/jpeg, image/heic, image/webp",
        ])
        let none = try upload(&fixture, [Part(name: "purpose", bytes: Array("avatar".utf8))])
        #expect(violations(none) == ["/body/file: missing required file part 'file'"])
    }

    @Test func aBodyThatIsNotMultipartIsRefusedPrecisely() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let json = try upload(&fixture, [], contentType: "application/json", body: Array(#"{"purpose":"avatar"}"#.utf8))
        #expect(json.status == 415)
        #expect(json.json?["msg"] == .string("'upload.image' takes multipart/form-data, found 'application/json'"))
        let unclosed = try upload(&fixture, [], body: Array("--accord-test-boundary\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\navatar".utf8))
        #expect(unclosed.status == 400)
        #expect(unclosed.json?["msg"] == .string("the body is not multipart/form-data: part 'purpose' is not closed by the boundary"))
        let noBoundary = try upload(&fixture, [], body: Array("hello".utf8))
        #expect(noBoundary.json?["msg"] == .string("the body is not multipart/form-data: the body does not contain its boundary 'accord-test-boundary'"))
        // Near-boundaries repeated through a large body are read through once, and the part is still unclosed.
        let teasing = Array("--accord-test-boundary\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n".utf8)
            + Array(String(repeating: "\r\n--accord-test-boundar", count: 40_000).utf8)
        #expect(try upload(&fixture, [], body: teasing).json?["msg"] == .string("the body is not multipart/form-data: part 'purpose' is not closed by the boundary"))
        let nameless = try upload(&fixture, [], body: Array("--accord-test-boundary\r\nContent-Disposition: form-data\r\n\r\nx\r\n--accord-test-boundary--".utf8))
        #expect(nameless.json?["msg"] == .string("the body is not multipart/form-data: part 1 has no name in its Content-Disposition"))
    }

    /// The path and query of `url`, as a request target.
    private func target(_ url: JSONValue?) throws -> String {
        guard case .string(let text)? = url, let components = URLComponents(string: text) else { throw URLError(.badURL) }
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    @Test func theURLsHandedOutAreHTTPSUnderTLSAndNeverAForeignHost() throws {
        var options = MockOptions()
        options.scheme = "https"
        options.fallbackHost = "localhost:8443"
        options.serverNames = ["dev.accord.test"]
        var fixture = try EngineFixture(fixturesIn: Repository.mocks, options: options)
        func policy(host: String) throws -> (upload: String, file: String) {
            var request = fixture.signed("POST", "/api/v1/uploads/policy", body: #"{"content_type":"image/jpeg","size":100,"purpose":"avatar"}"#)
            request.headers["host"] = host
            let data = try #require(fixture.handle(request).json?["data"])
            guard case .string(let upload)? = data["upload_url"], case .string(let file)? = data["public_url"] else { throw URLError(.badURL) }
            return (upload, file)
        }
        for host in ["127.0.0.1:8443", "localhost:8443", "dev.accord.test:8443"] {
            let urls = try policy(host: host)
            #expect(urls.upload.hasPrefix("https://\(host)/__storage/") && urls.file.hasPrefix("https://\(host)/__storage/"), "\(urls)")
        }
        // A forged Host is not reflected: the server's own name is used.
        let forged = try policy(host: "evil.example:666")
        #expect(forged.upload.hasPrefix("https://localhost:8443/__storage/"), "\(forged.upload)")
        #expect(forged.file.hasPrefix("https://localhost:8443/__storage/"))
        // A multipart upload's stored file, too.
        var upload = fixture.signed("POST", "/api/v1/uploads/images", body: #"{"purpose":"avatar"}"#)
        upload.headers["content-type"] = "multipart/form-data; boundary=accord-test-boundary"
        upload.headers["host"] = "evil.example:666"
        upload.body = MultipartForm(parts: [Part(name: "file", filename: "me.jpg", contentType: "image/jpeg", bytes: Self.jpeg),
                                            Part(name: "purpose", bytes: Array("avatar".utf8))], boundary: "accord-test-boundary").bytes
        guard case .string(let url)? = fixture.handle(upload).json?["data"]?["url"] else { Issue.record("no url"); return }
        #expect(url.hasPrefix("https://localhost:8443/__storage/"), "\(url)")
    }

    @Test func aSignedPolicyTakesOneDirectUploadAndNothingElse() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let policy = try #require(fixture.handle(fixture.signed("POST", "/api/v1/uploads/policy",
                                                                body: #"{"content_type":"image/jpeg","size":\#(Self.jpeg.count),"purpose":"avatar"}"#)).json?["data"])
        #expect(policy["method"] == .string("PUT"))
        #expect(policy["max_size"] == .int(Self.jpeg.count))
        #expect(policy["headers"] == .object([.init("Content-Type", .string("image/jpeg"))]))
        let upload = try target(policy["upload_url"])
        func put(_ target: String, type: String = "image/jpeg", _ bytes: [UInt8] = Self.jpeg) throws(StorageError) -> MockResponse {
            fixture.handle(MockRequest(method: "PUT", target: target, headers: [("Content-Type", type)], body: bytes))
        }
        // Tampered, mistyped, too large, not what it says: each refused, nothing stored.
        #expect(try put(upload.replacingOccurrences(of: "max=\(Self.jpeg.count)", with: "max=99999999")).json?["error"] == .string("policy_invalid"))
        #expect(try put(upload, type: "image/png").json?["error"] == .string("content_type_mismatch"))
        #expect(try put(upload, Self.jpeg + [0]).json?["error"] == .string("file_too_large"))
        let text = try put(upload, Array(String(repeating: "x", count: Self.jpeg.count).utf8))
        #expect(text.status == 422)
        #expect(text.json?["message"] == .string("the file is sent as image/jpeg but its bytes are text"))
        #expect(fixture.handle(MockRequest(method: "GET", target: try target(policy["public_url"]))).status == 404)
        // The upload itself, then the file at its public URL.
        let stored = try put(upload)
        #expect(stored.status == 200, "\(stored.text)")
        #expect(stored.json?["url"] == policy["public_url"])
        let served = fixture.handle(MockRequest(method: "GET", target: try target(policy["public_url"])))
        #expect(served.bodyBytes == Self.jpeg)
        // Past its 15 minutes the policy is refused.
        try fixture.state.clock.advance(by: 901)
        #expect(try put(upload).json?["error"] == .string("policy_expired"))
    }

    @Test func theStoreEvictsTheOldestFilesWithinItsBudget() {
        let store = UploadStore(budgetBytes: 10_000)
        let first = store.store([UInt8](repeating: 1, count: 4_000), contentType: "image/png", at: 0)
        let second = store.store([UInt8](repeating: 2, count: 4_000), contentType: "image/png", at: 1)
        let third = store.store([UInt8](repeating: 3, count: 4_000), contentType: "image/png", at: 2)
        #expect(first != nil && second != nil && third != nil)
        #expect(store.file(first?.id ?? "") == nil)
        #expect(store.file(third?.id ?? "")?.bytes.first == 3)
        #expect(store.usage == UploadUsage(files: 2, bytes: 8_000, budgetBytes: 10_000, evicted: 1))
        #expect(store.store([UInt8](repeating: 4, count: 10_001), contentType: "image/png", at: 3) == nil)
        for index in 0..<3_000 { _ = store.store([UInt8(truncatingIfNeeded: index)], contentType: "image/png", at: 4) }
        #expect(store.usage.bytes <= 10_000)
        #expect(store.usage.files <= UploadStore.maxFiles)
    }

    @Test func aFileStoredAgainUnderItsIdIsTheNewestAndTheOrderStaysBounded() throws {
        let store = UploadStore(budgetBytes: 10_000)
        let id = "0123456789abcdef0123456789abcdef"
        _ = store.store([UInt8](repeating: 1, count: 4_000), contentType: "image/png", at: 0, id: id)
        let second = try #require(store.store([UInt8](repeating: 2, count: 4_000), contentType: "image/png", at: 1))
        // The same signed URL put again: its file is replaced and becomes the newest.
        _ = store.store([UInt8](repeating: 3, count: 4_000), contentType: "image/png", at: 2, id: id)
        _ = store.store([UInt8](repeating: 4, count: 4_000), contentType: "image/png", at: 3)
        #expect(store.file(second.id) == nil, "the older file goes first")
        #expect(store.file(id)?.bytes.first == 3, "the file put again stays")
        // 200,000 re-puts of one URL keep one file and an order of a few entries, not 200,000.
        for time in 0..<200_000 { _ = store.store([UInt8(truncatingIfNeeded: time)], contentType: "image/png", at: Int64(time), id: id) }
        #expect(store.usage.files <= 3)
        #expect(store.orderLength <= 2 * store.usage.files + 64, "the order holds \(store.orderLength) entries")
    }
}
