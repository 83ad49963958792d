import AccordRedis

/// The Lua scripts of ``RedisRecords``. Under `PREFIX:rec:`, a session (its name in hex)
/// has a hash per collection (`S:NAME`: the records' JSON `j`, version `v`, size `z`),
/// the names it holds (`S:names`) and its bytes (`S:meta` `b`); `sessions` orders the
/// sessions by last use, and `bytes`, `evicted`, `trimmed` and `versions` count.
enum RecordScripts {
    private static let functions = """
    local function touch(prefix, session)
      redis.call('ZADD', prefix .. ':rec:sessions', redis.call('INCR', prefix .. ':rec:uses'), session)
    end

    local function drop(prefix, session)
      local base = prefix .. ':rec:' .. session
      for _, name in ipairs(redis.call('SMEMBERS', base .. ':names')) do redis.call('DEL', base .. ':' .. name) end
      redis.call('DECRBY', prefix .. ':rec:bytes', tonumber(redis.call('HGET', base .. ':meta', 'b') or '0'))
      redis.call('DEL', base .. ':names', base .. ':meta')
      redis.call('ZREM', prefix .. ':rec:sessions', session)
    end

    local function evict(prefix, keeping, limit, budget)
      local sessions = prefix .. ':rec:sessions'
      while redis.call('ZCARD', sessions) > limit or tonumber(redis.call('GET', prefix .. ':rec:bytes') or '0') > budget do
        local oldest = redis.call('ZRANGE', sessions, 0, 1)
        local victim = oldest[1] ~= keeping and oldest[1] or oldest[2]
        if not victim then break end
        drop(prefix, victim)
        redis.call('INCR', prefix .. ':rec:evicted')
      end
    end
    """

    /// `ARGV` = prefix, session, name. `{json, version, session bytes}` when seeded (the session marked used), else false.
    static let read = RedisScript(functions + """

    local base = ARGV[1] .. ':rec:' .. ARGV[2]
    local found = redis.call('HMGET', base .. ':' .. ARGV[3], 'j', 'v')
    if not found[1] then return false end
    touch(ARGV[1], ARGV[2])
    return {found[1], found[2], redis.call('HGET', base .. ':meta', 'b') or '0'}
    """)

    /// `ARGV` = prefix, session, name, seeds' JSON, their size, session limit, total budget: seeds the
    /// collection unless it is; then as ``read``.
    static let seed = RedisScript(functions + """

    local prefix, session, name = ARGV[1], ARGV[2], ARGV[3]
    local base = prefix .. ':rec:' .. session
    local key = base .. ':' .. name
    if redis.call('EXISTS', key) == 0 then
      redis.call('HSET', key, 'j', ARGV[4], 'v', redis.call('INCR', prefix .. ':rec:versions'), 'z', ARGV[5])
      redis.call('SADD', base .. ':names', name)
      redis.call('HINCRBY', base .. ':meta', 'b', ARGV[5])
      redis.call('INCRBY', prefix .. ':rec:bytes', ARGV[5])
    end
    touch(prefix, session)
    evict(prefix, session, tonumber(ARGV[6]), tonumber(ARGV[7]))
    local found = redis.call('HMGET', key, 'j', 'v')
    return {found[1], found[2], redis.call('HGET', base .. ':meta', 'b') or '0'}
    """)

    /// `ARGV` = prefix, session, name, expected version, new JSON, new size, records trimmed, session limit,
    /// total budget: the new version, or 0 when the records changed since they were read.
    static let write = RedisScript(functions + """

    local prefix, session, name = ARGV[1], ARGV[2], ARGV[3]
    local base = prefix .. ':rec:' .. session
    local key = base .. ':' .. name
    local now = redis.call('HMGET', key, 'v', 'z')
    if now[1] ~= ARGV[4] then return 0 end
    local version = redis.call('INCR', prefix .. ':rec:versions')
    redis.call('HSET', key, 'j', ARGV[5], 'v', version, 'z', ARGV[6])
    local delta = tonumber(ARGV[6]) - tonumber(now[2])
    redis.call('HINCRBY', base .. ':meta', 'b', delta)
    redis.call('INCRBY', prefix .. ':rec:bytes', delta)
    if tonumber(ARGV[7]) > 0 then redis.call('INCRBY', prefix .. ':rec:trimmed', ARGV[7]) end
    touch(prefix, session)
    evict(prefix, session, tonumber(ARGV[8]), tonumber(ARGV[9]))
    return version
    """)

    /// `ARGV` = prefix, then sessions to forget (back to the seeds).
    static let reset = RedisScript(functions + """

    for index = 2, #ARGV do drop(ARGV[1], ARGV[index]) end
    return 1
    """)

    /// `ARGV` = prefix, then the collections whose records every session drops.
    static let forget = RedisScript(functions + """

    local prefix = ARGV[1]
    for _, session in ipairs(redis.call('ZRANGE', prefix .. ':rec:sessions', 0, -1)) do
      local base = prefix .. ':rec:' .. session
      for index = 2, #ARGV do
        local size = redis.call('HGET', base .. ':' .. ARGV[index], 'z')
        if size then
          redis.call('DEL', base .. ':' .. ARGV[index])
          redis.call('SREM', base .. ':names', ARGV[index])
          redis.call('HINCRBY', base .. ':meta', 'b', -tonumber(size))
          redis.call('DECRBY', prefix .. ':rec:bytes', size)
        end
      end
    end
    return 1
    """)

    static let all = [read, seed, write, reset, forget]
}
