import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TongbanAPI

/// `accord serve --tls` against clients that check certificates for real: Python's `ssl`,
/// curl, OpenSSL, and the generated Swift client.
@Suite(.serialized) struct TLSEndToEndTests {
    /// A fresh certificate directory.
    private func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("accord-tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Python's `ssl` connecting to `port` as `name` with `cafile` trusted, at `version`:
    /// `ok TLSv1.3 200`, or the reason the handshake failed.
    private func python(port: UInt16, name: String, cafile: String, version: String = "") throws -> String {
        let script = """
        import socket, ssl, sys, warnings
        warnings.simplefilter('ignore')
        port, name, cafile, version = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
        context = ssl.create_default_context(cafile=cafile)
        if version:
            context.minimum_version = context.maximum_version = getattr(ssl.TLSVersion, version)
            context.set_ciphers('DEFAULT@SECLEVEL=0')
        try:
            with socket.create_connection(('127.0.0.1', port), timeout=5) as raw, context.wrap_socket(raw, server_hostname=name) as tls:
                negotiated = tls.version()
                tls.sendall(b'GET /__accord/clock HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n')
                answer = b''
                while chunk := tls.recv(4096):
                    answer += chunk
                print('ok', negotiated, answer.split(b' ')[1].decode())
        except ssl.SSLCertVerificationError as error:
            print('unverified', error.verify_message)
        except (ssl.SSLError, ConnectionError) as error:
            print('refused', getattr(error, 'reason', None) or type(error).__name__)
        """
        return try ExternalCommand.run("python3", ["-c", script, String(port), name, cafile, version]).text
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func pythonAndCurlVerifyTheChainAndTheNameForLocalhostAndTheLoopbackAddress() throws {
        let folder = try directory()
        let server = try ServerProcess(arguments: ["--tls", "--tls-dir", folder, "--quiet"])
        #expect(server.scheme == "https")
        #expect(server.standardOutput.contains("TLS 1.2/1.3: made a new local CA and server certificate for localhost, 127.0.0.1, ::1"))
        #expect(server.standardOutput.contains("simulator: xcrun simctl keychain booted add-root-cert \(folder)/ca.pem"))
        let ca = folder + "/ca.pem"
        for name in ["localhost", "127.0.0.1"] {
            #expect(try python(port: server.port, name: name, cafile: ca) == "ok TLSv1.3 200")
            let curl = try ExternalCommand.run("/usr/bin/curl", ["--silent", "--show-error", "--cacert", ca, "--resolve", "localhost:\(server.port):127.0.0.1",
                                                                 "-o", "/dev/null", "-w", "%{http_code} %{ssl_verify_result}", "https://\(name):\(server.port)/__accord/clock"])
            #expect(curl.text == "200 0", "\(name): \(curl.errors)")
        }
        #expect(try python(port: server.port, name: "wrong.example", cafile: ca) == "unverified Hostname mismatch, certificate is not valid for 'wrong.example'.")
        // Without the CA, curl refuses the certificate.
        let untrusted = try ExternalCommand.run("/usr/bin/curl", ["--silent", "https://127.0.0.1:\(server.port)/__accord/clock"])
        #expect(untrusted.status == 60)  // CURLE_PEER_FAILED_VERIFICATION
        // Plain HTTP on the HTTPS port gets no answer.
        #expect(try ExternalCommand.run("/usr/bin/curl", ["--silent", "--max-time", "3", "http://127.0.0.1:\(server.port)/__accord/clock"]).status != 0)
    }

    @Test func onlyTLS12And13AreSpoken() throws {
        let folder = try directory()
        let server = try ServerProcess(arguments: ["--tls", "--tls-dir", folder, "--quiet"])
        let ca = folder + "/ca.pem"
        #expect(try python(port: server.port, name: "localhost", cafile: ca, version: "TLSv1_2") == "ok TLSv1.2 200")
        #expect(try python(port: server.port, name: "localhost", cafile: ca, version: "TLSv1_3") == "ok TLSv1.3 200")
        // The same client, allowed TLS 1.1 only (at OpenSSL's lowest security level), is refused by the server.
        let old = try python(port: server.port, name: "localhost", cafile: ca, version: "TLSv1_1")
        #expect(old.hasPrefix("refused "), "\(old)")
        #expect(!old.contains("NO_PROTOCOLS_AVAILABLE") && !old.contains("NO_CIPHERS"), "the client itself refused: \(old)")
        let openssl = try ExternalCommand.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"], input: "")
        #expect(openssl.status != 0)
        #expect(openssl.text.contains("SSL handshake has read 0 bytes"), "the server sent no hello: \(openssl.text)")
        #expect(openssl.text.contains("Cipher is (NONE)"))
    }

    @Test func theServerCertificateIsReusedAcrossRestartsAndRenewedWhenANameIsAdded() throws {
        let folder = try directory()
        let first = try ServerProcess(arguments: ["--tls", "--tls-dir", folder, "--quiet"])
        let issued = try Data(contentsOf: URL(fileURLWithPath: folder + "/server.pem"))
        let authority = try Data(contentsOf: URL(fileURLWithPath: folder + "/ca.pem"))
        _ = first.terminate()
        let second = try ServerProcess(arguments: ["--tls", "--tls-dir", folder, "--quiet"])
        #expect(second.standardOutput.contains("TLS 1.2/1.3: reused the server certificate for localhost"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/server.pem")) == issued)
        _ = second.terminate()
        let third = try ServerProcess(arguments: ["--tls", "--tls-dir", folder, "--tls-name", "dev.accord.test", "--quiet"])
        #expect(third.standardOutput.contains("TLS 1.2/1.3: renewed the server certificate (new name: dev.accord.test) for localhost"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/server.pem")) != issued)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/ca.pem")) == authority, "the CA a device trusts stays")
        #expect(try python(port: third.port, name: "dev.accord.test", cafile: folder + "/ca.pem") == "ok TLSv1.3 200")
        for file in ["ca.pem", "ca-key.pem", "server.pem", "server-key.pem"] {
            let permissions = try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.posixPermissions] as? Int
            #expect(permissions == 0o600, "\(file)")
        }
    }

    @Test func yourOwnCertificateMadeByOpenSSLReqIsServed() throws {
        let folder = try directory()
        let certificate = folder + "/mine.pem", key = folder + "/mine-key.pem"
        let made = try ExternalCommand.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                                                "-keyout", key, "-out", certificate, "-days", "30", "-subj", "/CN=my.dev.test",
                                                                "-addext", "subjectAltName=DNS:my.dev.test,DNS:localhost,IP:127.0.0.1"])
        #expect(made.status == 0, "\(made.errors)")
        let server = try ServerProcess(arguments: ["--tls", "--tls-cert", certificate, "--tls-key", key, "--quiet"])
        #expect(server.standardOutput.contains("TLS 1.2/1.3: your certificate for my.dev.test (\(certificate), 30 days left)"))
        #expect(server.trustPort == nil, "no local CA to offer")
        #expect(try python(port: server.port, name: "my.dev.test", cafile: certificate) == "ok TLSv1.3 200")
        // A key of another certificate is refused before the server starts.
        let otherKey = folder + "/other-key.pem"
        _ = try ExternalCommand.run("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", otherKey])
        let refused = try ExternalCommand.run(ServerProcess.executable.path, ["serve", "--port", "0", "--tls", "--tls-cert", certificate, "--tls-key", otherKey,
                                                                              "--contracts", Repository.contracts, "--mocks", Repository.mocks])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("error: --tls: \(otherKey) is not the private key of \(certificate)"))
    }

    @Test func theCAIsOfferedOverPlainHTTPAsPEMAndAsAConfigurationProfile() throws {
        let folder = try directory()
        let server = try ServerProcess(arguments: ["--tls", "--tls-dir", folder, "--quiet"])
        let trustPort = try #require(server.trustPort)
        let profile = folder + "/accord.mobileconfig"
        let fetched = try ExternalCommand.run("/usr/bin/curl", ["--silent", "-o", profile, "-w", "%{http_code} %{content_type}",
                                                                "http://127.0.0.1:\(trustPort)/__accord/ca.mobileconfig"])
        #expect(fetched.text == "200 application/x-apple-aspen-config")
        let check = """
        import plistlib, subprocess, sys
        profile = plistlib.load(open(sys.argv[1], 'rb'))
        root = profile['PayloadContent'][0]
        der = subprocess.run(['openssl', 'x509', '-in', sys.argv[2], '-outform', 'der'], capture_output=True, check=True).stdout
        print(profile['PayloadType'], profile['PayloadVersion'], root['PayloadType'], root['PayloadContent'] == der, len(der))
        """
        let parsed = try ExternalCommand.run("python3", ["-c", check, profile, folder + "/ca.pem"])
        #expect(parsed.text.hasPrefix("Configuration 1 com.apple.security.root True "), "\(parsed.text)\(parsed.errors)")
        let pem = try ExternalCommand.run("/usr/bin/curl", ["--silent", "http://127.0.0.1:\(trustPort)/__accord/ca.pem"])
        #expect(pem.output == (try Data(contentsOf: URL(fileURLWithPath: folder + "/ca.pem"))))
        let elsewhere = try ExternalCommand.run("/usr/bin/curl", ["--silent", "-w", " %{http_code}", "http://127.0.0.1:\(trustPort)/api/v1/signals/quota"])
        #expect(elsewhere.text == "This port offers only the local CA: /__accord/ca.pem and /__accord/ca.mobileconfig. "
                + "The API is at https://127.0.0.1:\(server.port)\n 404")
    }

    /// The generated client over HTTPS. Linux Foundation's URLSession neither asks its
    /// delegate about server trust nor reads a CA file from the environment, so the CA is
    /// trusted the way Linux allows: a hashed file in the system's CA directory, which
    /// libcurl reads. It is removed afterwards.
    @Test func theGeneratedClientTalksToTheHTTPSServerOnceTheSystemTrustsTheCA() async throws {
        let folder = try directory()
        let server = try ServerProcess(arguments: ["--tls", "--tls-dir", folder, "--quiet"])
        let ca = folder + "/ca.pem"
        let hash = try ExternalCommand.run("/usr/bin/openssl", ["x509", "-hash", "-noout", "-in", ca]).text.trimmingCharacters(in: .whitespacesAndNewlines)
        let trusted = (0..<10).map { "/etc/ssl/certs/\(hash).\($0)" }.first { !FileManager.default.fileExists(atPath: $0) }
        guard let trusted, FileManager.default.isWritableFile(atPath: "/etc/ssl/certs") else {
            Issue.record("cannot add the CA to /etc/ssl/certs (not root?); the generated client over HTTPS is not tested")
            return
        }
        let login = AuthLoginPhoneRequest(phone: "13800138000", code: "123456",
                                          deviceInfo: DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0"))
        let configuration = ClientConfiguration(serverURL: URL(string: server.baseURL)!, appKey: "dev_app_key", appSecret: "dev_app_secret",
                                                deviceID: "tls-client", os: "ios", appVersion: "1.2.0", timeout: 10)
        // Each APIClient has its own URLSession, so nothing of an earlier trust decision is cached.
        do {
            _ = try await APIClient(configuration: configuration, storage: InMemoryTokenStorage()).send(API.auth.loginPhone(login))
            Issue.record("a certificate the system does not trust was accepted")
        } catch {
            #expect("\(error)".contains("certificate"), "\(error)")
        }
        try FileManager.default.copyItem(atPath: ca, toPath: trusted)
        defer { try? FileManager.default.removeItem(atPath: trusted) }
        let api = APIClient(configuration: configuration, storage: InMemoryTokenStorage())
        let session = try await api.send(API.auth.loginPhone(login))
        #expect(session.user.uid == 10086)
        let published = try await api.send(API.signal.publish(SignalPublishRequest(content: "over TLS", tags: [], isFlash: false)))
        #expect(published.content == "over TLS")
        let inbox = try await api.send(API.signal.inbox(limit: 20, filter: .flash))
        #expect(inbox.items.first?.id == "sg_flash_1")
    }
}
