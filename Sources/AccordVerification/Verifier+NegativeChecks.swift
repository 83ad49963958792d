import AccordContract
import AccordHTTPClient
import AccordJSON
import AccordReport
import AccordSync
import AccordValidation
import Dispatch
import Foundation

extension Verifier {
    // MARK: Negative checks

    func negativeChecks(session: Session, client: HTTPClient) -> [VerificationCheck] {
        var checks: [VerificationCheck] = []
        let signing = contract.service.signing
        let probe = selected.first { endpoint in
            endpoint.method == .get && endpoint.requiresAuth && requests.isSigned(endpoint) && endpoint.examples.contains { $0.code == 0 }
        }
        if let probe, let example = probe.examples.first(where: { $0.code == 0 }), session.failure == nil {
            func expect(_ name: String, _ codes: [Int], _ request: HTTPClient.Request, meaning: String) {
                checks.append(expectCode(codes, for: request, check: name, of: probe, meaning: meaning, client: client))
            }
            if signing.isEnabled {
                var tampered = requests.request(for: example, of: probe, session: session)
                tampered.replaceHeader(signing.signatureHeader) { Self.flippingLastCharacter($0) }
                expect("tampered signature", [flows[.signatureInvalid]], tampered, meaning: "the backend accepts a wrong \(signing.signatureHeader)")
                let original = requests.request(for: example, of: probe, session: session)
                _ = try? deliver(original, client: client)
                expect("replayed nonce", [flows[.nonceReused]], original, meaning: "the backend accepts a \(signing.nonceHeader) it has seen")
                let stale = requests.request(for: example, of: probe, session: session,
                                             timestamp: Int64(Date().timeIntervalSince1970) - Int64(signing.windowSeconds) - 120)
                expect("stale timestamp", [flows[.timestampInvalid]], stale,
                       meaning: "the backend accepts a \(signing.timestampHeader) outside ±\(signing.windowSeconds) s")
            }
            let garbage = requests.request(for: example, of: probe, session: Session(accessToken: "garbage-\(UUID().uuidString)"))
            expect("garbage token", [flows[.tokenInvalid], flows[.forceLogout]], garbage, meaning: "the backend accepts a token it never issued")
        } else {
            checks.append(VerificationCheck(endpoint: probe?.id ?? "-", name: "signature and token checks",
                                            outcome: .skipped("no signed, signed-in GET endpoint with a success example among those selected")))
        }
        if let target = selected.first(where: { $0.body != nil && $0.examples.contains { $0.code == 0 } && requests.isSigned($0) }) {
            guard settings.allowsWrites else {
                checks.append(VerificationCheck(endpoint: target.id, name: "invalid body", outcome: .skipped("writes; --allow-writes runs it")))
                return checks
            }
            let example = target.examples.first { $0.code == 0 }!
            let invalid = requests.request(for: example, of: target, session: session, body: .array([]))
            checks.append(expectCode([flows.invalidRequest], for: invalid, check: "invalid body", of: target,
                                     meaning: "the backend accepts a body that is not an object", client: client))
        }
        return checks
    }

    /// Sends `request` and passes when the answer carries one of `codes`.
    func expectCode(_ codes: [Int], for request: HTTPClient.Request, check name: String, of endpoint: Endpoint, meaning: String,
                            client: HTTPClient) -> VerificationCheck {
        let response = try? deliver(request, client: client)
        let code = response.flatMap { response in contract.service.code(of: try? JSONReader.read(response.body), status: response.status) }
        let outcome: VerificationCheck.Outcome
        if let code, codes.contains(code) {
            outcome = .passed
        } else {
            let answered = response.map { "HTTP \($0.status)\(code.map { ", code \($0)" } ?? "")" } ?? "no answer"
            outcome = .failed(["expected code \(codes.map(String.init).joined(separator: " or ")), answered \(answered): \(meaning)"])
        }
        return VerificationCheck(endpoint: endpoint.id, name: name, outcome: outcome, status: response?.status, code: code)
    }

    static func flippingLastCharacter(_ text: String) -> String {
        guard let last = text.last else { return "0" }
        return String(text.dropLast()) + (last == "0" ? "1" : "0")
    }
}
