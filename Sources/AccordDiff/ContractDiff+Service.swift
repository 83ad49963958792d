import AccordContract
import AccordDiagnostics

/// The service-wide part of the comparison: base path, answer style, signing, auth and the code table.
extension Walker {
    mutating func compareService() {
        let (before, after) = (old.service, new.service)
        let both: Set<ContractChange.Party> = [.app, .backend]
        if before.basePath != after.basePath {
            add("base path changed from \(before.basePath) to \(after.basePath)", breaks: both, old: before.location, new: after.location)
        }
        switch (before.envelope, after.envelope) {
        case (nil, _?): add("answers are now wrapped in an envelope (they were plain, envelope: none)", breaks: both, old: before.location, new: after.location)
        case (_?, nil): add("answers are now plain (envelope: none); they were wrapped in an envelope", breaks: both, old: before.location, new: after.location)
        case (let was?, let now?) where was != now: add("envelope member names changed", breaks: both, old: before.location, new: after.location)
        default: break
        }
        if before.envelope == nil, after.envelope == nil, before.errors.mediaType != after.errors.mediaType {
            add("errors are now \(after.errors.mediaType), were \(before.errors.mediaType)", breaks: both, old: before.location, new: after.location)
        }
        compareAuth(before.auth, after.auth, old: before.location, new: after.location)
        let (signedBefore, signedAfter) = (before.signing, after.signing)
        if signedBefore.isEnabled != signedAfter.isEnabled || signedBefore.algorithm != signedAfter.algorithm || signedBefore.parts != signedAfter.parts
            || signedBefore.signatureHeader != signedAfter.signatureHeader {
            add("the signing rule changed (\(signedBefore.algorithm.rawValue) → \(signedAfter.algorithm.rawValue))", breaks: both,
                old: before.location, new: after.location)
        }
        if signedAfter.windowSeconds < signedBefore.windowSeconds {
            add("the signing window narrowed from ±\(signedBefore.windowSeconds) s to ±\(signedAfter.windowSeconds) s", breaks: [.app],
                old: before.location, new: after.location)
        }
        // An entry is its code and, for a plain API, the discriminator that tells it from its status's others.
        func counterpart(of code: BusinessCode, in service: Service) -> BusinessCode? {
            service.codes.first { $0.code == code.code && $0.discriminator == code.discriminator }
        }
        for code in before.codes {
            guard let now = counterpart(of: code, in: after) else {
                add("business code \(code.code) (\(code.name)) removed from the table", breaks: [.backend], old: code.location, new: nil)
                continue
            }
            if now.flow != code.flow {
                add("business code \(code.code) flow changed from \(code.flow.rawValue) to \(now.flow.rawValue)", breaks: [.app],
                    old: code.location, new: now.location)
            }
            if now.httpStatus != code.httpStatus {
                add("business code \(code.code) travels with HTTP \(now.httpStatus), was \(code.httpStatus)", breaks: [.app, .backend],
                    old: code.location, new: now.location)
            }
        }
        for code in after.codes where counterpart(of: code, in: before) == nil {
            add("business code \(code.code) (\(code.name)) added to the table", breaks: [], old: nil, new: code.location)
        }
        compareFields(before.headers, after.headers, owner: "service request /headers", direction: .request,
                      oldOwner: before.location, newOwner: after.location)
    }

    /// A changed kind of credential breaks both sides; an API key dropped breaks apps that send it.
    mutating func compareAuth(_ before: Service.Auth, _ after: Service.Auth, old: SourceLocation, new: SourceLocation) {
        func kind(_ auth: Service.Auth) -> String {
            switch auth.kind {
            case .none: "none"
            case .bearer: "bearer tokens in \(auth.header)"
            case .apiKey(let key): "an API key in the \(key.location.rawValue) '\(key.name)'"
            }
        }
        if kind(before) != kind(after) {
            add("auth changed from \(kind(before)) to \(kind(after))", breaks: [.app, .backend], old: old, new: new)
        } else if let was = before.apiKey, let now = after.apiKey {
            for key in was.keys where !now.keys.contains(key) {
                add("API key '\(key)' is no longer accepted", breaks: [.app], old: old, new: new)
            }
        }
        if before.refreshes && !after.refreshes {
            add("tokens are no longer refreshed ('\(before.refreshEndpoint)' is not the refresh endpoint)", breaks: [.app], old: old, new: new)
        }
    }
}
