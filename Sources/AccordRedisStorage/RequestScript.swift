import AccordRedis

/// The one script a request's first round trip runs (``RequestSnapshot``): everything
/// the routed request will read, and its nonce stored, atomically.
enum RequestScript {
    /// `ARGV` = prefix, nonce key ('' for none), nonce lifetime in seconds, access token
    /// ('' for none), named session ('' for none), wall, 1 to reserve a `{{seq}}` number.
    /// `{0}` when the nonce was seen, else `{1, offset, rules version, verdict kind (-1: no
    /// token), uid, ban, session, scenario, step, started scenario, number}`.
    static let prelude = RedisScript(TokenScripts.verdictFunction + """

    local prefix = ARGV[1]
    if ARGV[2] ~= '' and not redis.call('SET', ARGV[2], '1', 'NX', 'EX', ARGV[3]) then return {0} end
    local offset = redis.call('GET', prefix .. ':clock:offset')
    local version = redis.call('GET', prefix .. ':rules:version')
    local kind, uid, ban = -1, 0, false
    if ARGV[4] ~= '' then kind, uid, ban = token_verdict(prefix, ARGV[4], tonumber(ARGV[6]) + tonumber(offset or '0')) end
    local session = ARGV[5]
    if session == '' then
      if kind == 0 or kind == 1 or kind == 3 then session = 'user:' .. uid else session = 'anonymous' end
    end
    local position = redis.call('HMGET', prefix .. ':scenario:' .. session, 'n', 'i', 's')
    local number = false
    if ARGV[7] == '1' then number = redis.call('INCR', prefix .. ':seq') end
    return {1, offset, version, kind, uid, ban, session, position[1], position[2], position[3], number}
    """)

    /// What the prelude read of the request's access token.
    struct Verdict {
        enum Outcome {
            /// With the user's ban as stored, or nil for none.
            case valid(uid: Int, ban: [UInt8]?)
            case expired(uid: Int)
            case invalidated
            case revoked(uid: Int)
        }

        var token: String
        var outcome: Outcome

        /// The outcome of the `kind, uid, ban` the verdict's Lua answers.
        static func outcome(kind: Int64, uid: Int, ban: [UInt8]?) -> Outcome {
            switch kind {
            case 0: .valid(uid: uid, ban: ban)
            case 1: .expired(uid: uid)
            case 3: .revoked(uid: uid)
            default: .invalidated
            }
        }
    }

    /// Where a session stood in its scenario when the prelude read it.
    struct Position {
        var session: String
        /// The scenario being followed and its step, nil when none.
        var current: (scenario: String, step: Int)?
        /// The scenario started on the session (`POST /__accord/scenarios/…`), nil when none.
        var started: String?
    }

    /// The prelude's answer, read, for a request checking `token` (nil for none).
    struct Read {
        var nonceIsNew: Bool
        var values: RequestSnapshot.Values?
        var verdict: Verdict?
        var position: Position?
        var sequence: Int?

        init(_ reply: RedisReply, token: String?) throws(RedisError) {
            guard let parts = reply.elements, let first = parts.first?.integer else { throw .unexpected("the request's prelude answered \(reply)") }
            nonceIsNew = first == 1
            guard nonceIsNew else { return }
            guard parts.count == 11, let kind = parts[3].integer, let uid = parts[4].integer.map(Int.init), let session = parts[6].text else {
                throw .unexpected("the request's prelude answered \(reply)")
            }
            values = RequestSnapshot.Values(offset: parts[1].integer ?? 0, rulesVersion: parts[2].integer ?? 0)
            position = Position(session: session, current: parts[7].text.map { ($0, Int(parts[8].integer ?? 0)) }, started: parts[9].text)
            sequence = parts[10].integer.map(Int.init)
            verdict = token.map { Verdict(token: $0, outcome: Verdict.outcome(kind: kind, uid: uid, ban: parts[5].bytes)) }
        }
    }
}
