import AccordContract
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordRedis

/// Scenario progress in Redis: a hash per session, `PREFIX:scenario:SESSION` of the
/// scenario (`n`), the step (`i`) and the scenario it was started on (`s`), and the
/// sessions in the order they were first followed (`PREFIX:scenarios:order`), the oldest
/// forgotten past the capacity. A step advances by compare-and-set: a replica that lost
/// the race reads again, so two requests never both take one step.
final class RedisScenarios: ScenarioStorage {
    private let client: RedisClient
    private let snapshot: RequestSnapshot
    let capacity: Int
    /// Attempts of one step under contention before the request is answered 503.
    static let attempts = 16

    init(client: RedisClient, snapshot: RequestSnapshot, capacity: Int = ScenarioProgress.defaultCapacity) {
        self.client = client
        self.snapshot = snapshot
        self.capacity = max(1, capacity)
    }

    /// `ARGV` = prefix, session, expected scenario ('' when not followed), expected step, new scenario, new step,
    /// capacity, started scenario ('' to keep it). 1 when written, 0 when the session moved meanwhile.
    static let move = RedisScript("""
    local prefix, session = ARGV[1], ARGV[2]
    local key = prefix .. ':scenario:' .. session
    local now = redis.call('HMGET', key, 'n', 'i')
    if (now[1] or '') ~= ARGV[3] or (now[1] and now[2] ~= ARGV[4]) then return 0 end
    redis.call('HSET', key, 'n', ARGV[5], 'i', ARGV[6])
    if ARGV[8] ~= '' then redis.call('HSET', key, 's', ARGV[8]) end
    if not now[1] then
      local order = prefix .. ':scenarios:order'
      redis.call('ZADD', order, redis.call('INCR', prefix .. ':scenarios:uses'), session)
      while redis.call('ZCARD', order) > tonumber(ARGV[7]) do
        local oldest = redis.call('ZPOPMIN', order)
        redis.call('DEL', prefix .. ':scenario:' .. oldest[1])
      end
    end
    return 1
    """)

    static let scripts = [move]

    var count: Int {
        get throws(StorageError) {
            try shared { () throws(RedisError) in Int(try client.send(RedisCommand("ZCARD", client.key("scenarios", "order"))).requireInteger("ZCARD")) }
        }
    }

    func step(for endpoint: String, session: String, scenario: Scenario) throws(StorageError) -> (index: Int, step: Scenario.Step)? {
        for _ in 0..<Self.attempts {
            let known = try position(of: session)
            var position = known ?? (scenario.name, 0)
            if position.scenario != scenario.name { position = (scenario.name, 0) }
            var taken: (index: Int, step: Scenario.Step)?
            if position.step < scenario.steps.count {
                let step = scenario.steps[position.step]
                if EndpointPattern.matches(step.endpoint, endpoint) {
                    taken = (position.step, step)
                    if !step.repeats { position.step += 1 }
                }
            }
            if let known, known == position { return taken }
            if try move(session, from: known, to: position, started: nil) { return taken }
        }
        throw .unavailable("Redis: the scenario step of session '\(session)' kept changing under \(Self.attempts) attempts")
    }

    func start(_ scenario: String, session: String) throws(StorageError) {
        for _ in 0..<Self.attempts where try move(session, from: try position(of: session), to: (scenario, 0), started: scenario) { return }
        throw .unavailable("Redis: session '\(session)' kept changing under \(Self.attempts) attempts")
    }

    func startedScenario(session: String) throws(StorageError) -> String? {
        try shared { () throws(RedisError) in
            if let read = try snapshot.position(of: session, consuming: false) { return read.started }
            return try client.send(RedisCommand("HGET", client.key("scenario", session), "s")).text
        }
    }

    func reset() throws(StorageError) {
        try shared { () throws(RedisError) in
            try client.deleteKeys(matching: "scenario:*")
            try client.deleteKeys(matching: "scenarios:*")
        }
    }

    private func position(of session: String) throws(StorageError) -> (scenario: String, step: Int)? {
        try shared { () throws(RedisError) -> (scenario: String, step: Int)? in
            // The request's prelude read it, the first time; a retry after a lost race reads afresh.
            if let read = try snapshot.position(of: session, consuming: true) { return read.current }
            let reply = try client.send(RedisCommand("HMGET", client.key("scenario", session), "n", "i"))
            guard let fields = reply.elements, fields.count == 2, let name = fields[0].text else { return nil }
            return (name, Int(fields[1].integer ?? 0))
        }
    }

    private func move(_ session: String, from known: (scenario: String, step: Int)?, to position: (scenario: String, step: Int),
                      started: String?) throws(StorageError) -> Bool {
        try shared { () throws(RedisError) in
            try client.run(Self.move, keys: [], arguments: [client.url.prefix, session, known?.scenario ?? "", known?.step ?? 0, position.scenario,
                                                              position.step, capacity, started ?? ""]).requireInteger("a scenario step") == 1
        }
    }
}
