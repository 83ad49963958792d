import AccordContract
import AccordMock
import AccordMockState
import AccordRedis
import AccordSync

/// Injection rules in Redis: the order in `PREFIX:rules` (ids), each rule a hash
/// `PREFIX:rule:ID` of its record (``RuleRecord``), `seen` and the uses left (`n`, -1 for
/// always), and `PREFIX:rules:version`, which every change moves. A replica keeps the
/// records of the version it last read, so a request reads one number when no rule can
/// concern it, and a rule's use is counted and consumed in one script.
final class RedisRules: RuleStorage {
    private let client: RedisClient
    private let random: @Sendable () -> Double
    let capacity: Int
    /// The rules of the last version read, without their counters.
    private let cache = Locked<(version: Int64, rules: [InjectionRule])?>(nil)
    private let snapshot: RequestSnapshot

    init(client: RedisClient, snapshot: RequestSnapshot, capacity: Int = InjectionRules.defaultCapacity, random: @escaping @Sendable () -> Double) {
        self.client = client
        self.snapshot = snapshot
        self.capacity = max(1, capacity)
        self.random = random
    }

    static let add = RedisScript("""
    local prefix = ARGV[1]
    if redis.call('LLEN', prefix .. ':rules') >= tonumber(ARGV[2]) then return 0 end
    local id = redis.call('INCR', prefix .. ':rules:next')
    redis.call('HSET', prefix .. ':rule:' .. id, 'd', ARGV[3], 's', '0', 'n', ARGV[4])
    redis.call('RPUSH', prefix .. ':rules', id)
    redis.call('INCR', prefix .. ':rules:version')
    return id
    """)

    static let remove = RedisScript("""
    local prefix = ARGV[1]
    local removed = redis.call('LREM', prefix .. ':rules', 0, ARGV[2])
    redis.call('DEL', prefix .. ':rule:' .. ARGV[2])
    if removed > 0 then redis.call('INCR', prefix .. ':rules:version') end
    return removed
    """)

    /// `ARGV` = prefix, then per candidate in order: id, after, probability (-1 for none), draw.
    /// Returns `{id, seen}` of the rule that fires, its use counted (and the rule gone at its last), or false.
    static let fire = RedisScript("""
    local prefix = ARGV[1]
    for index = 2, #ARGV, 4 do
      local id = ARGV[index]
      local key = prefix .. ':rule:' .. id
      if redis.call('EXISTS', key) == 1 then
        local seen = redis.call('HINCRBY', key, 's', 1)
        local probability = tonumber(ARGV[index + 2])
        if seen > tonumber(ARGV[index + 1]) and (probability < 0 or tonumber(ARGV[index + 3]) < probability) then
          local left = tonumber(redis.call('HGET', key, 'n'))
          if left == 1 then
            redis.call('DEL', key)
            redis.call('LREM', prefix .. ':rules', 0, id)
            redis.call('INCR', prefix .. ':rules:version')
          elseif left > 1 then
            redis.call('HINCRBY', key, 'n', -1)
          end
          return {tonumber(id), seen, left}
        end
      end
    end
    return false
    """)

    static let scripts = [add, remove, fire]

    var all: [InjectionRule] {
        get throws(StorageError) {
            try shared { () throws(RedisError) in
                let ids = try client.send(RedisCommand("LRANGE", client.key("rules"), 0, -1)).elements?.compactMap(\.text) ?? []
                let replies = try client.send(ids.map { RedisCommand("HMGET", client.key("rule", $0), "d", "s", "n") })
                return zip(ids, replies).compactMap { id, reply in Self.rule(id: id, reply) }
            }
        }
    }

    private static func rule(id: String, _ reply: RedisReply) -> InjectionRule? {
        guard let id = Int(id), let fields = reply.elements, fields.count == 3, let record = fields[0].bytes,
              let seen = fields[1].integer, let left = fields[2].integer else { return nil }
        return RuleRecord.rule(id: id, bytes: record, seen: Int(seen), remaining: left < 0 ? nil : Int(left))
    }

    func add(_ rule: InjectionRule) throws(StorageError) -> InjectionRule {
        snapshot.begin()
        let id = try shared { () throws(RedisError) in
            try client.run(Self.add, keys: [], arguments: [client.url.prefix, capacity, RuleRecord.bytes(of: rule), rule.remaining ?? -1])
                .requireInteger("adding a rule")
        }
        guard id > 0 else { throw .rulesFull(capacity: capacity) }
        var added = rule
        added.id = Int(id)
        added.seen = 0
        return added
    }

    func remove(id: Int) throws(StorageError) -> Bool {
        snapshot.begin()
        return try shared { () throws(RedisError) in
            try client.run(Self.remove, keys: [], arguments: [client.url.prefix, id]).requireInteger("removing a rule") > 0
        }
    }

    func removeAll() throws(StorageError) {
        snapshot.begin()
        try shared { () throws(RedisError) in
            let ids = try client.send(RedisCommand("LRANGE", client.key("rules"), 0, -1)).elements?.compactMap(\.text) ?? []
            _ = try client.send([RedisCommand("DEL", client.key("rules"))] + ids.map { RedisCommand("DEL", client.key("rule", $0)) }
                            + [RedisCommand("INCR", client.key("rules", "version"))])
        }
    }

    func fire(endpoint: String, user: Int?, session: String) throws(StorageError) -> InjectionRule? {
        let rules = try current()
        let candidates = rules.filter { EndpointPattern.matches($0.endpoint, endpoint) && $0.concerns(user: user, session: session) }
        guard !candidates.isEmpty else { return nil }
        var arguments: [any RedisArgument] = [client.url.prefix]
        for rule in candidates {
            arguments += [rule.id, rule.after, rule.probability.map { "\($0)" } ?? "-1", rule.probability == nil ? "0" : "\(random())"]
        }
        let reply = try shared { () throws(RedisError) in try client.run(Self.fire, keys: [], arguments: arguments) }
        guard let fields = reply.elements, fields.count == 3, let id = fields[0].integer, let seen = fields[1].integer,
              var rule = candidates.first(where: { $0.id == id }) else { return nil }
        rule.seen = Int(seen)
        rule.remaining = fields[2].integer.flatMap { $0 < 0 ? nil : Int($0) }
        return rule
    }

    /// The rules of the version Redis holds now: one `GET` while it is the one cached.
    private func current() throws(StorageError) -> [InjectionRule] {
        let version = try shared { () throws(RedisError) in try snapshot.values.rulesVersion }
        if let cached = cache.withLock({ $0 }), cached.version == version { return cached.rules }
        let rules = try all
        cache.withLock { $0 = (version, rules) }
        return rules
    }
}
