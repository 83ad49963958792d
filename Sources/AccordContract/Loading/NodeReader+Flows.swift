import AccordYAML

extension NodeReader {
    /// The service file's `flows:` section: the retry policy, the alert window and the
    /// endpoints a banned user may call.
    mutating func flows(_ node: Node) -> Service.Flows {
        var flows = Service.Flows()
        guard let pairs = mapping(node, "'flows'") else { return flows }
        checkKeys(pairs, allowed: ContractKeys.flows.names, in: "'flows'")
        for pair in pairs {
            let value = pair.value
            switch pair.key.scalar?.value {
            case "retry": flows.retry = retryPolicy(value)
            case "alert_window": flows.alertWindowMilliseconds = milliseconds(value, "'alert_window'", within: 1...600_000) ?? flows.alertWindowMilliseconds
            case "allowed_while_banned": flows.allowedWhileBanned = texts(value, "'allowed_while_banned'")
            default: break
            }
        }
        return flows
    }

    private mutating func retryPolicy(_ node: Node) -> Service.RetryPolicy {
        var policy = Service.RetryPolicy()
        guard let pairs = mapping(node, "'retry'") else { return policy }
        checkKeys(pairs, allowed: ContractKeys.retry.names, in: "'retry'")
        for pair in pairs {
            let value = pair.value
            switch pair.key.scalar?.value {
            case "attempts":
                guard let attempts = int(value, "'attempts'") else { break }
                guard (0...Service.RetryPolicy.attemptLimit).contains(attempts) else {
                    error("'attempts' is the number of retries after the first try, 0 to \(Service.RetryPolicy.attemptLimit), found \(attempts)", at: value)
                    break
                }
                policy.attempts = attempts
            case "backoff": policy.backoffMilliseconds = milliseconds(value, "'backoff'", within: 0...60_000) ?? policy.backoffMilliseconds
            case "max_backoff": policy.maxBackoffMilliseconds = milliseconds(value, "'max_backoff'", within: 0...600_000) ?? policy.maxBackoffMilliseconds
            case "methods": policy.methods = retryMethods(value)
            default: break
            }
        }
        if policy.maxBackoffMilliseconds < policy.backoffMilliseconds, let place = node["max_backoff"] {
            error("'max_backoff' (\(policy.maxBackoffMilliseconds) ms) is shorter than 'backoff' (\(policy.backoffMilliseconds) ms); "
                  + "make it at least \(policy.backoffMilliseconds)ms", at: place)
        }
        return policy
    }

    private mutating func retryMethods(_ node: Node) -> [String] {
        let allowed = Service.RetryPolicy.methodNames
        var methods: [String] = []
        for item in node.sequence ?? [node] {
            guard let method = text(item, "a method") else { continue }
            guard allowed.contains(method) else {
                error("'methods' lists '\(method)', which is not one of \(allowed.joined(separator: ", "))\(NameSuggestion.hint(for: method, in: allowed))", at: item)
                continue
            }
            if methods.contains(method) { error("method '\(method)' is listed twice", at: item) } else { methods.append(method) }
        }
        return methods
    }

    /// `150ms`, `2s` or a bare number of milliseconds, within `range`.
    private mutating func milliseconds(_ node: Node, _ what: String, within range: ClosedRange<Int>) -> Int? {
        let parsed: Int? = if case .int(let value)? = node.scalar?.resolved { value } else { node.scalar.flatMap { DurationText.milliseconds($0.value) } }
        guard let parsed, range.contains(parsed) else {
            error("expected a duration for \(what) such as 200ms or 2s, from \(range.lowerBound) ms to \(range.upperBound / 1_000) s, "
                  + "found \(node.kindDescription) '\(node.scalar?.value ?? "")'", at: node)
            return nil
        }
        return parsed
    }
}
