import AccordContract
import AccordCrypto
import AccordHTTP
import AccordJSON
import AccordMock
import AccordMockState
import AccordSigning
import AccordTesting
import Foundation
import Testing

/// The vectors of `docs/signing-vectors.json`, through the builder, the signer and
/// the verifier with the clock pinned to each vector's timestamp.
@Suite struct SigningVectorTests {
    typealias Vector = SigningVector

    static let vectors = SigningVector.all

    static let settings = Service.Signing(apps: ["dev_app_key": "dev_app_secret"])

    private func query(of target: String) -> [(name: String, value: String)] {
        MockRequest(method: "GET", target: target).query
    }

    private func body(_ vector: Vector) throws -> JSONValue? {
        try vector.bodyValue()
    }

    @Test func theFileHoldsEveryCaseOfTheRule() {
        #expect(Self.vectors.count == 10)
    }

    @Test(arguments: vectors)
    func sortedParamsAndSignatureMatch(_ vector: Vector) throws {
        let sorted = SortedParams.make(query: query(of: vector.target), body: try body(vector))
        #expect(sorted == vector.sortedParams)
        let input = RequestSigner.Input(appKey: "dev_app_key", timestamp: vector.timestamp, nonce: vector.nonce, sortedParams: sorted)
        #expect(RequestSigner(settings: Self.settings).signature(input, secret: "dev_app_secret") == vector.sign)
    }

    @Test(arguments: vectors)
    func verifierAcceptsAtTheVectorsTime(_ vector: Vector) throws {
        let headers = ["x-app-key": "dev_app_key", "x-timestamp": vector.timestamp, "x-nonce": vector.nonce, "x-sign": vector.sign]
        let verifier = SignatureVerifier(settings: Self.settings)
        let result = verifier.verify(header: { headers[$0.lowercased()] }, query: query(of: vector.target),
                                     body: try body(vector), now: Int64(vector.timestamp)!)
        #expect(try result.get() == SignatureVerifier.SignedRequest(appKey: "dev_app_key", nonce: vector.nonce))
    }

    @Test func oneChangedByteIsRefusedWithTheServersView() throws {
        let vector = Self.vectors[2]
        let tampered = vector.body!.replacingOccurrences(of: "13800138000", with: "13800138001")
        let headers = ["x-app-key": "dev_app_key", "x-timestamp": vector.timestamp, "x-nonce": vector.nonce, "x-sign": vector.sign]
        let result = SignatureVerifier(settings: Self.settings).verify(
            header: { headers[$0.lowercased()] }, query: [], body: try JSONReader.read(Array(tampered.utf8)), now: 1_764_500_001)
        guard case .failure(let rejection) = result else {
            Issue.record("tampered body accepted")
            return
        }
        #expect(rejection.failure == .signatureInvalid)
        #expect(rejection.details["sorted_params"] == .string(#"code=123456&device_info={"app_version":"1.2.0","device_id":"D-1","os":"ios"}&phone=13800138001"#))
        #expect(rejection.details["string_to_sign"] == .string(
            #"dev_app_key1764500001n-0003code=123456&device_info={"app_version":"1.2.0","device_id":"D-1","os":"ios"}&phone=13800138001<app_secret>"#))
    }

    @Test func staleTimestampAndTheNonceLeftToItsStore() throws {
        let vector = Self.vectors[0]
        let headers = ["x-app-key": "dev_app_key", "x-timestamp": vector.timestamp, "x-nonce": vector.nonce, "x-sign": vector.sign]
        let verifier = SignatureVerifier(settings: Self.settings)
        let verify = { (now: Int64) in verifier.verify(header: { headers[$0.lowercased()] }, query: self.query(of: vector.target), body: nil, now: now) }
        #expect(throws: Never.self) { try verify(1_764_500_300).get() }             // 300 s late: inside the window
        #expect(failure(verify(1_764_500_301)) == .timestampOutsideWindow)            // 301 s: outside
        #expect(failure(verify(1_764_499_699)) == .timestampOutsideWindow)            // 301 s early
        // The verifier holds no state: the same request verifies again, and the nonce store tells the replay.
        let signed = try verify(1_764_500_000).get()
        let nonces = NonceCache(ttlSeconds: Self.settings.nonceTTLSeconds)
        #expect(nonces.insert(appKey: signed.appKey, nonce: signed.nonce, now: 1_764_500_000) == .accepted)
        #expect(nonces.insert(appKey: signed.appKey, nonce: signed.nonce, now: 1_764_500_001) == .reused)
        #expect(verifier.replayed(signed).failure == .nonceReused)
        #expect(verifier.replayed(signed).message == "X-Nonce '\(vector.nonce)' was already used within 600 s")
    }

    @Test(arguments: ["12a", "-1", "+1", " 1764500000", "1764500000 ", "1764500000\u{0}", "9223372036854775808", "99999999999999999999",
                      "\u{0661}\u{0667}\u{0666}\u{0664}", String(repeating: "9", count: 40)])
    func aTimestampThatIsNotDecimalSecondsIsRefusedByName(timestamp: String) {
        let vector = Self.vectors[0]
        let headers = ["x-app-key": "dev_app_key", "x-timestamp": timestamp, "x-nonce": vector.nonce, "x-sign": vector.sign]
        let result = SignatureVerifier(settings: Self.settings).verify(header: { headers[$0.lowercased()] }, query: query(of: vector.target),
                                                                        body: nil, now: 1_764_500_000)
        guard case .failure(let rejection) = result else {
            Issue.record("'\(timestamp)' accepted")
            return
        }
        #expect(rejection.message == "X-Timestamp must be Unix seconds in decimal, found '\(timestamp)'")
    }

    @Test func theLargestTimestampIsReadAndIsOutsideTheWindow() {
        let vector = Self.vectors[0]
        let headers = ["x-app-key": "dev_app_key", "x-timestamp": "9223372036854775807", "x-nonce": vector.nonce, "x-sign": vector.sign]
        let result = SignatureVerifier(settings: Self.settings).verify(header: { headers[$0.lowercased()] }, query: query(of: vector.target),
                                                                        body: nil, now: 1_764_500_000)
        #expect(failure(result) == .timestampOutsideWindow)
    }

    @Test func missingHeadersAreNamed() {
        let result = SignatureVerifier(settings: Self.settings).verify(header: { $0 == "x-app-key" ? "dev_app_key" : nil }, query: [], body: nil, now: 0)
        guard case .failure(let rejection) = result else {
            Issue.record("accepted")
            return
        }
        #expect(rejection.message == "missing signing headers X-Timestamp, X-Nonce, X-Sign")
        #expect(rejection.failure == .signatureInvalid)
    }

    @Test func nonceCacheRefusesAReplayForTheWholeTTLWhateverTheLoad() {
        let cache = NonceCache(ttlSeconds: 600, capacity: 1_000_000)
        #expect(cache.insert(appKey: "k", nonce: "first", now: 1_000) == .accepted)
        // 200,000 other nonces in the next seconds: the first is still remembered.
        for index in 0..<200_000 {
            #expect(cache.insert(appKey: "k", nonce: "n\(index)", now: 1_000 + Int64(index / 50_000)) == .accepted)
        }
        #expect(cache.insert(appKey: "k", nonce: "first", now: 1_003) == .reused)
        #expect(cache.insert(appKey: "k", nonce: "first", now: 1_599) == .reused)     // 599 s later
        #expect(cache.insert(appKey: "k", nonce: "first", now: 1_601) == .accepted)   // past the TTL
        #expect(cache.insert(appKey: "other", nonce: "n5", now: 1_605) == .accepted)  // per app key
        #expect(cache.count == 2)                                                      // the flood expired
    }

    @Test func nonceTableIsSizedToItsLiveNoncesNotToAPowerOfTwo() {
        var table = NonceTable()
        let fingerprints = (1...100_000).map { NonceTable.fingerprint(of: UInt64($0) &* 0x9E37_79B9_7F4A_7C15) }
        for fingerprint in fingerprints { table.insert(fingerprint, at: 0, span: 10) }
        table.rebuild(keepingLiveAt: 5, span: 10)
        #expect(table.slotCount == 166_667)                                   // 100,000 at 60%, not 262,144
        #expect(fingerprints.allSatisfy { table.containsLive($0, at: 5, span: 10) })
        #expect(!table.containsLive(NonceTable.fingerprint(of: 0x1234_5678_9ABC_DEF0), at: 5, span: 10))
        table.rebuild(keepingLiveAt: 11, span: 10)                            // all expired
        #expect(table.slotCount == NonceTable.minimumSlots)
        #expect(table.liveCount(at: 11, span: 10) == 0)
    }

    @Test func nonceCacheFailsClosedWhenFull() {
        let cache = NonceCache(ttlSeconds: 600, capacity: 1_000)
        for index in 0..<1_000 { #expect(cache.insert(appKey: "k", nonce: "n\(index)", now: 0) == .accepted) }
        #expect(cache.insert(appKey: "k", nonce: "fresh", now: 10) == .full)
        #expect(cache.insert(appKey: "k", nonce: "n0", now: 10) == .reused)           // never forgotten early
        #expect(cache.insert(appKey: "k", nonce: "fresh", now: 601) == .accepted)     // room again once they expire
        #expect(cache.count == 1)
    }

    @Test func nonceCacheForgetsAnOldNonceEvenWhenItsSixteenBitTickComesRoundAgain() {
        let cache = NonceCache(ttlSeconds: 60)
        #expect(cache.insert(appKey: "k", nonce: "a", now: 0) == .accepted)
        // 65,546 ticks later the stored 16-bit tick reads 10 ticks old: only the sweep
        // every 32,768 ticks tells the entry is long expired.
        #expect(cache.insert(appKey: "k", nonce: "b", now: 65_546) == .accepted)
        #expect(cache.insert(appKey: "k", nonce: "a", now: 65_547) == .accepted)
        #expect(cache.insert(appKey: "k", nonce: "a", now: 65_548) == .reused)
        #expect(cache.count == 2)
    }

    @Test func nonceCacheKeepsEntriesWhenTheClockStepsBack() {
        let cache = NonceCache(ttlSeconds: 60)
        #expect(cache.insert(appKey: "k", nonce: "a", now: 1_000) == .accepted)
        #expect(cache.insert(appKey: "k", nonce: "b", now: 900) == .accepted)
        #expect(cache.insert(appKey: "k", nonce: "b", now: 1_059) == .reused)
        #expect(cache.insert(appKey: "k", nonce: "a", now: 1_061) == .accepted)
    }

    @Test func otherAlgorithms() {
        let input = RequestSigner.Input(appKey: "k", timestamp: "1", nonce: "n", sortedParams: "a=1")
        var settings = Self.settings
        settings.algorithm = .sha256
        #expect(RequestSigner(settings: settings).signature(input, secret: "s") == Digest.sha256Hex("k1na=1s".utf8))
        settings.algorithm = .hmacSHA256
        #expect(RequestSigner(settings: settings).stringToSign(input, secret: "s") == "k1na=1")
        // RFC 4231 test case 2.
        #expect(Digest.hmacSHA256Hex(key: "Jefe".utf8, "what do ya want for nothing?".utf8)
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// The order of the UTF-8 bytes, not of characters: `Z` (0x5A) before `a`, `é` (0xC3 0xA9)
    /// after `z`, a key before a longer one it begins; repeated query keys keep the request's
    /// order, and a body member beside them comes after.
    @Test func sortedParamsOrderKeysByTheirBytesAndKeepRepeatsInOrder() throws {
        let body = try JSONReader.read(Array(#"{"é":1,"tag":"x","Z":true,"ab":null}"#.utf8))
        let sorted = SortedParams.make(query: [("tag", "2"), ("a", "1"), ("tag", "1"), ("z", "3")], body: body)
        #expect(sorted == "Z=true&a=1&tag=2&tag=1&tag=x&z=3&é=1")
    }

    /// Thousands of members in reverse order, one of them beside a query parameter of its
    /// name (the cost of a megabyte of them is `HostileClientTests`' to check).
    @Test func sortedParamsOfFiveThousandMembersInReverseOrder() throws {
        let count = 5_000
        let members = (0..<count).map { "\"k\(count - $0 + 100_000)\":\($0)" }
        let body = try JSONReader.read(Array("{\(members.joined(separator: ","))}".utf8))
        let sorted = SortedParams.make(query: [("k100001", "q")], body: body)
        let expected = (1...count).map { "k\(100_000 + $0)=\(count - $0)" }
        #expect(sorted == "k100001=q&" + expected.joined(separator: "&"))
    }

    private func failure(_ result: Result<SignatureVerifier.SignedRequest, SignatureVerifier.Rejection>) -> SignatureVerifier.Failure? {
        if case .failure(let rejection) = result { return rejection.failure }
        return nil
    }
}
