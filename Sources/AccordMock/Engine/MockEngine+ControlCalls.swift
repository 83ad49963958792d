import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordMocksFormat

/// The handlers of the control API's calls (``MockEngine/controlRoutes`` lists them).
extension MockEngine {
    // MARK: Rules

    func listRules(_ call: ControlCall) throws(StorageError) -> MockResponse {
        controlAnswer(.object([.init("rules", .array(try state.rules.all.map(\.json)))]))
    }

    func addRule(_ call: ControlCall) throws(StorageError) -> MockResponse {
        let rule: InjectionRule
        do {
            rule = try InjectionRule(json: call.body, contract: contract)
        } catch {
            return controlError(400, "invalid_rule", error.message)
        }
        do {
            return controlAnswer(try state.rules.add(rule).json, status: 201)
        } catch .rulesFull(let capacity) {
            return controlError(429, "too_many_rules", "\(capacity) rules stand already, the most the server keeps; "
                                + "delete some (DELETE /__accord/rules/{id}) or all (DELETE /__accord/rules)")
        }
    }

    func removeRules(_ call: ControlCall) throws(StorageError) -> MockResponse {
        try state.rules.removeAll()
        return controlAnswer(.object([]))
    }

    func removeRule(_ call: ControlCall) throws(StorageError) -> MockResponse {
        let id = call.wildcards[0]
        guard let number = Int(id), try state.rules.remove(id: number) else { return controlError(404, "no_such_rule", "no rule \(id)") }
        return controlAnswer(.object([]))
    }

    // MARK: Tokens and users

    func expireTokens(_ call: ControlCall) throws(StorageError) -> MockResponse {
        controlAnswer(.object([.init("expired", .int(try state.tokens.expireAccessTokens(uid: Self.uid(in: call.body))))]))
    }

    func invalidateTokens(_ call: ControlCall) throws(StorageError) -> MockResponse {
        controlAnswer(.object([.init("invalidated", .int(try state.tokens.invalidateAccessTokens(uid: Self.uid(in: call.body))))]))
    }

    func ban(_ call: ControlCall) throws(StorageError) -> MockResponse {
        guard let uid = Int(call.wildcards[0]) else { return invalidUID(call) }
        guard case .string(let reason)? = call.body["reason"] else { return controlError(400, "invalid_ban", "a ban needs {\"reason\": …}") }
        let ban = UserBan(reason: reason, until: call.body["until"].flatMap(Self.string),
                                 appealURL: call.body["appeal_url"].flatMap(Self.string))
        for (name, text) in [("reason", ban.reason), ("until", ban.until), ("appeal_url", ban.appealURL)] {
            if let text, text.utf8.count > UserBan.maxTextBytes {
                return controlError(400, "invalid_ban", "'\(name)' takes at most \(UserBan.maxTextBytes) bytes, found \(text.utf8.count)")
            }
        }
        do {
            try state.tokens.setBan(ban, uid: uid)
        } catch .bansFull(let capacity) {
            return controlError(429, "too_many_bans", "\(capacity) users are banned already, the most the server keeps; "
                                + "lift a ban (DELETE /__accord/users/{uid}/ban) or all (POST /__accord/reset)")
        }
        return controlAnswer(.object([.init("uid", .int(uid)), .init("ban_info", ban.json)]))
    }

    func unban(_ call: ControlCall) throws(StorageError) -> MockResponse {
        guard let uid = Int(call.wildcards[0]) else { return invalidUID(call) }
        try state.tokens.setBan(nil, uid: uid)
        return controlAnswer(.object([]))
    }

    func forceLogout(_ call: ControlCall) throws(StorageError) -> MockResponse {
        guard let uid = Int(call.wildcards[0]) else { return invalidUID(call) }
        return controlAnswer(.object([.init("revoked", .int(try state.tokens.forceLogout(uid: uid)))]))
    }

    private func invalidUID(_ call: ControlCall) -> MockResponse {
        controlError(400, "invalid_uid", "'\(call.wildcards[0])' is not a user id")
    }

    /// `{"uid": N}`, or nil for every user.
    private static func uid(in body: JSONValue) -> Int? {
        if case .int(let value)? = body["uid"] { value } else { nil }
    }

    // MARK: Clock, journal, scenarios, collections, the process

    func moveClock(_ call: ControlCall) throws(StorageError) -> MockResponse {
        do {
            if case .string(let text)? = call.body["advance"], let seconds = DurationText.seconds(text) {
                try state.clock.advance(by: Int64(seconds))
            } else if case .int(let time)? = call.body["set"] {
                try state.clock.set(to: Int64(time))
            } else {
                return controlError(400, "invalid_clock", "give {\"advance\": \"2h\"} (units s, m, h, d; at most a year, \"-1h\" goes back) "
                                    + "or {\"set\": UNIX_SECONDS} (within 100 years of now)")
            }
        } catch .clockOutOfRange(let message) {
            return controlError(400, "clock_out_of_range", message)
        }
        return controlAnswer(try clockJSON())
    }

    func listRequests(_ call: ControlCall) throws(StorageError) -> MockResponse {
        let capacity = state.journal.capacity
        let limitText = call.query("limit")
        guard let limit = limitText.map({ Int($0) }) ?? 1_000, (1...capacity).contains(limit) else {
            return controlError(400, "invalid_limit", "'limit' takes a number from 1 to \(capacity), found '\(limitText ?? "")'")
        }
        let filter: JournalFilter
        do {
            filter = try JournalFilter(query: call.request.query)
        } catch {
            return controlError(400, "invalid_filter", error.message)
        }
        var members: [JSONValue.Member] = [.init("requests", .array(try journalEntries(matching: filter, limit: limit).map(\.json)))]
        if let recording = state.journal.recordingStatus { members.append(.init("recording", recording.json)) }
        if let shared = state.journal as? any SharedJournalStorage, shared.dropped > 0 { members.append(.init("dropped", .int(shared.dropped))) }
        return controlAnswer(.object(members))
    }

    func startScenario(_ call: ControlCall) throws(StorageError) -> MockResponse {
        guard case .string(let name)? = call.body["name"], scenarios[name] != nil else {
            return controlError(400, "invalid_scenario", "give {\"name\": SCENARIO}; scenarios: \(scenarios.keys.sorted().joined(separator: ", "))")
        }
        let session = PercentDecoding.decode(call.wildcards[0], plusAsSpace: false)
        try state.scenarios.start(name, session: session)
        return controlAnswer(.object([.init("session", .string(session)), .init("scenario", .string(name))]))
    }

    func resetState(_ call: ControlCall) throws(StorageError) -> MockResponse {
        let session = call.query("session")
        try state.collections.reset(session: session)
        return controlAnswer(.object([.init("reset", .string(session ?? "every session"))]))
    }

    func collectionState(_ call: ControlCall) throws(StorageError) -> MockResponse {
        guard let collection = collections[call.wildcards[0]] else {
            return controlError(404, "no_such_collection",
                                "no collection '\(call.wildcards[0])'; collections: \(collections.keys.sorted().joined(separator: ", "))")
        }
        let session = call.query("session") ?? "anonymous"
        let records = try state.collections.records(of: collection, session: session, state: state)
        let counts = try state.collections.counts
        let bytes = try state.collections.byteCounts
        return controlAnswer(.object([
            .init("collection", .string(collection.name)), .init("type", .string(collection.typeName)), .init("session", .string(session)),
            .init("limit", .int(collection.limit)), .init("records", .array(records)),
            .init("sessions", .object([.init("kept", .int(counts.sessions)), .init("limit", .int(state.collections.sessionLimit)),
                                       .init("evicted", .int(counts.evicted))])),
            .init("bytes", .object([.init("kept", .int(bytes.bytes)), .init("session_budget", .int(state.collections.sessionBudgetBytes)),
                                    .init("total_budget", .int(state.collections.totalBudgetBytes)),
                                    .init("records_dropped_for_budget", .int(bytes.trimmed))])),
        ]))
    }

    func shutdown(_ call: ControlCall) -> MockResponse {
        guard state.shutdown.request() else {
            return controlError(409, "cannot_stop", "this engine runs inside a process that does not stop on request")
        }
        return controlAnswer(.object([.init("stopping", .bool(true))]), status: 202)
    }
}
