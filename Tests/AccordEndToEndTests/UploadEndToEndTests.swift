import AccordJSON
import AccordTesting
import AccordValidation
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TongbanAPI

/// Uploads through the real `accord serve`: `curl -F` as a person types it, the bytes
/// served back, the body limit, a text file posing as a JPEG, and the upload store's
/// memory across a thousand uploads.
@Suite(.serialized) struct UploadEndToEndTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

    /// Runs curl with `arguments`; its standard output.
    private func curl(_ arguments: [String]) throws -> Data {
        try ExternalCommand.run("/usr/bin/curl", ["--silent", "--show-error"] + arguments).output
    }

    /// The headers of a signed upload with these text parts, as curl `-H` arguments.
    private func signedHeaders(_ parts: [String: String], token: String) -> [String] {
        let body = JSONWriter.string(.object(parts.sorted { $0.key < $1.key }.map { .init($0.key, .string($0.value)) }))
        return ServeEndToEndTests.signedHeaders("/api/v1/uploads/images", body: body, token: token)
            .filter { $0.key != "Content-Type" }
            .flatMap { ["-H", "\($0.key): \($0.value)"] }
    }

    private func file(_ bytes: [UInt8], _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("accord-upload-\(UUID().uuidString)-\(name)")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func curlUploadsAnImageThatIsServedBackByteForByte() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let token = try ServeEndToEndTests.login(server)
        let image = try file(Self.jpeg, "avatar.jpg")
        defer { try? FileManager.default.removeItem(at: image) }
        let answer = try JSONReader.read(Array(try curl(signedHeaders(["purpose": "avatar"], token: token) + [
            "-F", "file=@\(image.path);type=image/jpeg", "-F", "purpose=avatar", server.baseURL + "/api/v1/uploads/images",
        ])))
        #expect(answer["code"] == .int(0), "\(answer)")
        #expect(answer.value(at: "/data/size") == .int(Self.jpeg.count))
        guard case .string(let url)? = answer.value(at: "/data/url") else { Issue.record("no url: \(answer)"); return }
        #expect(url.hasPrefix("http://127.0.0.1:\(server.port)/__storage/"))
        #expect(Array(try curl([url])) == Self.jpeg)
        let head = String(decoding: try curl(["--head", url]), as: UTF8.self).lowercased()
        #expect(head.contains("content-type: image/jpeg"))
        #expect(head.contains("content-length: \(Self.jpeg.count)"))
    }

    /// The generated client against `server`, logged in by phone.
    private func signedInClient(_ server: ServerProcess, device: String) async throws -> APIClient {
        let api = APIClient(configuration: ClientConfiguration(serverURL: URL(string: server.baseURL)!, appKey: "dev_app_key",
                                                               appSecret: "dev_app_secret", deviceID: device, os: "ios", appVersion: "1.2.0"))
        _ = try await api.send(API.auth.loginPhone(AuthLoginPhoneRequest(
            phone: "13800138000", code: "123456",
            deviceInfo: DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0"))))
        return api
    }

    @Test func theGeneratedClientStreamsAnUploadFromAFile() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = try await signedInClient(server, device: "uploader")
        // A 3 MB photo with a name that needs escaping in its part header.
        let photo = Self.jpeg + (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let image = try file(photo, "photo.jpg")
        defer { try? FileManager.default.removeItem(at: image) }
        let uploaded = try await api.send(API.upload.image(file: FilePart(fileURL: image, filename: "我的 \"头像\".jpg", contentType: "image/jpeg"),
                                                           purpose: .avatar))
        #expect(uploaded.size == photo.count)
        #expect(uploaded.contentType == "image/jpeg")
        #expect(uploaded.purpose == .avatar)
        let (served, response) = try await URLSession.shared.data(from: uploaded.url)
        #expect(Array(served) == photo)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
        // The same bytes through the API's binary endpoint, signed in; an id never stored is its not-found code.
        let fetched = try await api.send(API.upload.file(fileID: uploaded.id))
        #expect(Array(fetched.data) == photo)
        #expect(fetched.contentType == "image/jpeg")
        await #expect(throws: APIError.self) { try await api.send(API.upload.file(fileID: String(repeating: "0", count: 32))) }
        // The text file posing as a photo is refused by its bytes, through the client's typed error.
        let notes = try file(Array("not a photo".utf8), "notes.jpg")
        defer { try? FileManager.default.removeItem(at: notes) }
        do {
            _ = try await api.send(API.upload.image(file: FilePart(fileURL: notes, contentType: "image/jpeg"), purpose: .signal))
            Issue.record("the text file was stored")
        } catch {
            guard case .business(let code, let message, _) = error else { Issue.record("\(error)"); return }
            #expect(code == .invalidRequest)
            #expect(message == "file 'file' (\(notes.lastPathComponent)) is sent as image/jpeg but its bytes are text")
        }
    }

    @Test func aDirectUploadGoesThroughASignedPolicyWithTheClientAndWithCurl() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = try await signedInClient(server, device: "direct")
        // The app asks for a policy, then PUTs the file where it says, as it would to OSS or S3.
        let policy = try await api.send(API.upload.policy(UploadPolicyRequest(contentType: .imageJPEG, size: Self.jpeg.count, purpose: .avatar)))
        #expect(policy.method == .put)
        #expect(policy.maxSize == Self.jpeg.count)
        let image = try file(Self.jpeg, "direct.jpg")
        defer { try? FileManager.default.removeItem(at: image) }
        var put = URLRequest(url: policy.uploadURL)
        put.httpMethod = "PUT"
        for (name, value) in policy.headers { put.setValue(value, forHTTPHeaderField: name) }
        let (_, response) = try await URLSession.shared.upload(for: put, fromFile: image)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let (served, _) = try await URLSession.shared.data(from: policy.publicURL)
        #expect(Array(served) == Self.jpeg)
        // curl -T with a second policy; a policy's URL with its size changed is refused.
        let second = try await api.send(API.upload.policy(UploadPolicyRequest(contentType: .imageJPEG, size: Self.jpeg.count, purpose: .signal)))
        let tampered = second.uploadURL.absoluteString.replacingOccurrences(of: "max=\(Self.jpeg.count)", with: "max=\(Self.jpeg.count + 1)")
        let refused = String(decoding: try curl(["-o", "/dev/null", "-w", "%{http_code}", "-T", image.path, "-H", "Content-Type: image/jpeg", tampered]),
                             as: UTF8.self)
        #expect(refused == "403")
        let status = String(decoding: try curl(["-o", "/dev/null", "-w", "%{http_code}", "-T", image.path, "-H", "Content-Type: image/jpeg",
                                                second.uploadURL.absoluteString]), as: UTF8.self)
        #expect(status == "200")
        #expect(Array(try curl([second.publicURL.absoluteString])) == Self.jpeg)
    }

    @Test func aTextFileNamedJPGAndAFiveMegabyteUploadAreRefused() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        #expect(server.standardOutput.contains("body limit \(1 << 20) bytes (uploads: their declared maximum)"), "\(server.standardOutput)")
        let token = try ServeEndToEndTests.login(server)
        let notes = try file(Array("meeting notes, not a photo\n".utf8), "notes.jpg")
        defer { try? FileManager.default.removeItem(at: notes) }
        let refused = try JSONReader.read(Array(try curl(signedHeaders(["purpose": "signal"], token: token) + [
            "-F", "file=@\(notes.path);type=image/jpeg", "-F", "purpose=signal", server.baseURL + "/api/v1/uploads/images",
        ])))
        #expect(refused["code"] == .int(1000))
        #expect(refused.value(at: "/data/violations/0/message")
                == .string("file 'file' (\(notes.lastPathComponent)) is sent as image/jpeg but its bytes are text"))
        let big = try file(Self.jpeg + [UInt8](repeating: 0x5A, count: 5_000_000), "big.jpg")
        defer { try? FileManager.default.removeItem(at: big) }
        let status = String(decoding: try curl(signedHeaders(["purpose": "signal"], token: token) + [
            "-o", "/dev/null", "-w", "%{http_code}", "-F", "file=@\(big.path);type=image/jpeg", "-F", "purpose=signal",
            server.baseURL + "/api/v1/uploads/images",
        ]), as: UTF8.self)
        #expect(status == "413")
    }

    @Test func theUploadStoreKeepsItsBudgetAcrossAThousandUploads() async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--upload-budget", "8MiB"])
        let token = try ServeEndToEndTests.login(server)
        func form(_ index: Int) -> MultipartForm {
            let bytes = Self.jpeg + (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &+ index) }
            return MultipartForm(parts: [.init(name: "purpose", bytes: Array("signal".utf8)),
                                         .init(name: "file", filename: "\(index).jpg", contentType: "image/jpeg", bytes: bytes)])
        }
        func upload(_ index: Int) async throws -> JSONValue {
            var request = URLRequest(url: URL(string: server.baseURL + "/api/v1/uploads/images")!)
            request.httpMethod = "POST"
            for (name, value) in ServeEndToEndTests.signedHeaders("/api/v1/uploads/images", body: #"{"purpose":"signal"}"#, token: token) {
                request.setValue(value, forHTTPHeaderField: name)
            }
            let body = form(index)
            request.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.bytes)
            let (data, _) = try await URLSession.shared.data(for: request)
            return try JSONReader.read(Array(data))
        }
        _ = try await upload(0)
        let before = server.residentKiB
        var first: String?
        for index in 1...1_000 {
            let answer = try await upload(index)
            #expect(answer["code"] == .int(0), "upload \(index): \(answer)")
            if first == nil, case .string(let url)? = answer.value(at: "/data/url") { first = url }
        }
        let after = server.residentKiB
        // 1,000 uploads of ~100 KB are ~100 MB; 8 MiB of them are kept.
        print("upload store RSS: \(before) KiB after one upload, \(after) KiB after 1,000 more (budget 8 MiB)")
        #expect(after - before < 48 << 10, "RSS grew from \(before) KiB to \(after) KiB")
        // The first file went long ago: its url is gone.
        let (_, response) = try await URLSession.shared.data(from: URL(string: try #require(first))!)
        #expect((response as? HTTPURLResponse)?.statusCode == 404)
    }
}
