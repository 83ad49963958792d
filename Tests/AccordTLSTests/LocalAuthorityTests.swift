import AccordTLS
import Foundation
import Testing

/// The local CA and its server certificates, checked with OpenSSL's own reader.
@Suite struct LocalAuthorityTests {
    private let names = ["localhost", "127.0.0.1", "::1", "dev.accord.test"]

    private func store() throws -> LocalAuthority {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("accord-ca-\(UUID().uuidString)/tls").path
        return LocalAuthority(directory: path)
    }

    /// `openssl x509 -text` of a PEM file.
    private func text(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["x509", "-in", path, "-noout", "-text"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theFirstUseMakesACAThatSignsOnlyServerCertificatesAndALeafAppleAccepts() throws {
        let store = try store()
        let prepared = try store.prepare(names: names)
        #expect(prepared.event == .created)
        let authority = try text(store.authorityPath)
        #expect(authority.contains("CA:TRUE, pathlen:0"))
        #expect(authority.contains("Certificate Sign, CRL Sign"))
        #expect(authority.contains("ASN1 OID: prime256v1"))
        let leaf = try text(store.certificatePath)
        #expect(leaf.contains("Signature Algorithm: ecdsa-with-SHA256"))
        #expect(leaf.contains("ASN1 OID: prime256v1"))
        #expect(leaf.contains("CA:FALSE"))
        #expect(leaf.contains("TLS Web Server Authentication"))
        #expect(leaf.contains("DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:dev.accord.test"))
        #expect(prepared.identity.secondsLeft <= LocalAuthority.maximumLeafDays * 86_400)
        #expect(prepared.identity.secondsLeft > (LocalAuthority.maximumLeafDays - 1) * 86_400)
        let directory = try FileManager.default.attributesOfItem(atPath: store.directory)[.posixPermissions] as? Int
        #expect(directory == 0o700)
        for file in try FileManager.default.contentsOfDirectory(atPath: store.directory) {
            #expect(try FileManager.default.attributesOfItem(atPath: store.directory + "/" + file)[.posixPermissions] as? Int == 0o600, "\(file)")
        }
        #expect(String(decoding: prepared.authorityPEM, as: UTF8.self).hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(prepared.authorityDER.first == 0x30)  // a DER SEQUENCE
    }

    @Test func laterUsesReuseTheLeafAndRenewItForANewNameOrANearExpiry() throws {
        let store = try store()
        let first = try store.prepare(names: names)
        let again = try store.prepare(names: ["localhost", "dev.accord.test"])
        #expect(again.event == .reused, "a subset of the names is served by the same certificate")
        // The same certificate and key (its seconds left are read at each use, and a second may pass between two).
        #expect(again.identity.certificatePEM == first.identity.certificatePEM)
        #expect(again.identity.privateKeyPEM == first.identity.privateKeyPEM)
        let added = try store.prepare(names: names + ["192.0.2.10", "phone.accord.test"])
        #expect(added.event == .renewed(reason: "new names: 192.0.2.10, phone.accord.test"))
        #expect(added.authorityPEM == first.authorityPEM, "the CA devices trust stays")
        #expect(added.identity.certificatePEM != first.identity.certificatePEM)
        let short = try store.prepare(names: ["localhost", "fresh.accord.test"], leafDays: 10)
        #expect(short.event == .renewed(reason: "new name: fresh.accord.test"))
        let nearing = try store.prepare(names: ["localhost"])
        #expect(nearing.event == .renewed(reason: "the server certificate expires in 10 days"))
        #expect(try store.prepare(names: ["localhost"]).event == .reused)
    }

    @Test func aDamagedOrForeignLeafIsMadeAgainAndADamagedCAStartsOver() throws {
        let store = try store()
        let first = try store.prepare(names: names)
        try Data("not a key".utf8).write(to: URL(fileURLWithPath: store.directory + "/server-key.pem"))
        let damaged = try store.prepare(names: names)
        #expect(damaged.event == .renewed(reason: "no server certificate and key that belong together in \(store.directory)"))
        let other = try self.store()
        _ = try other.prepare(names: names)
        try FileManager.default.removeItem(atPath: store.certificatePath)
        try FileManager.default.copyItem(atPath: other.certificatePath, toPath: store.certificatePath)
        try FileManager.default.removeItem(atPath: store.directory + "/server-key.pem")
        try FileManager.default.copyItem(atPath: other.directory + "/server-key.pem", toPath: store.directory + "/server-key.pem")
        #expect(try store.prepare(names: names).event == .renewed(reason: "the server certificate is not signed by this CA"))
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: store.authorityPath))
        let restarted = try store.prepare(names: names)
        #expect(restarted.event == .created)
        #expect(restarted.authorityPEM != first.authorityPEM)
    }

    @Test func yourOwnFilesAreCheckedBeforeTheyAreServed() throws {
        let store = try store()
        _ = try store.prepare(names: names)
        let other = try self.store()
        _ = try other.prepare(names: names)
        let identity = try TLSIdentity(certificateFile: store.certificatePath, keyFile: store.directory + "/server-key.pem")
        #expect(identity.commonName == "localhost")
        #expect(throws: TLSError.self) { try TLSIdentity(certificateFile: store.certificatePath, keyFile: other.directory + "/server-key.pem") }
        do {
            _ = try TLSIdentity(certificateFile: store.certificatePath, keyFile: other.directory + "/server-key.pem")
        } catch {
            #expect(error.description == "\(other.directory)/server-key.pem is not the private key of \(store.certificatePath)")
        }
        do {
            _ = try TLSIdentity(certificateFile: store.directory + "/server-key.pem", keyFile: store.directory + "/server-key.pem")
        } catch {
            #expect(error.description == "\(store.directory)/server-key.pem: not a PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        do {
            _ = try TLSIdentity(certificateFile: "/nonexistent.pem", keyFile: store.directory + "/server-key.pem")
        } catch {
            #expect(error.description == "/nonexistent.pem: cannot read the certificate")
        }
    }

    @Test func theProfileIsAPropertyListCarryingTheRootCertificate() throws {
        let prepared = try store().prepare(names: ["localhost"])
        let bytes = try TrustProfile.mobileconfig(authorityDER: prepared.authorityDER, commonName: "Accord local CA")
        let profile = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any])
        #expect(profile["PayloadType"] as? String == "Configuration")
        let root = try #require((profile["PayloadContent"] as? [[String: Any]])?.first)
        #expect(root["PayloadType"] as? String == "com.apple.security.root")
        #expect(root["PayloadContent"] as? Data == Data(prepared.authorityDER))
        // Downloaded again, the same profile: iOS replaces it instead of adding another.
        #expect(try TrustProfile.mobileconfig(authorityDER: prepared.authorityDER, commonName: "Accord local CA") == bytes)
    }
}
