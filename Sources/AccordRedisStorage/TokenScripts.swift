import AccordRedis

/// The Lua scripts of ``RedisTokens``: each operation that reads and then writes runs as
/// one script, atomic on Redis. A token is a hash `PREFIX:token:T` of `u` (the user),
/// `e` (expiry in mock time), `p` (the other token of its pair), `r` (revoked) and `i`
/// (invalidated); `PREFIX:user:UID:tokens` is the set of a user's access tokens, and
/// `PREFIX:tokens:issued` the access tokens in the order issued, for the cap.
enum TokenScripts {
    /// Issues a pair: `ARGV` = prefix, uid, access, refresh, access TTL, refresh TTL, capacity, key lifetime, wall.
    private static let issueFunction = LuaClock.offset + """

    local function issue(prefix, uid, access, refresh, attl, rttl, capacity, keep, now)
      local a, r = prefix .. ':token:' .. access, prefix .. ':token:' .. refresh
      redis.call('HSET', a, 'u', uid, 'e', string.format('%d', now + attl), 'p', refresh)
      redis.call('HSET', r, 'u', uid, 'e', string.format('%d', now + rttl), 'p', access)
      redis.call('EXPIRE', a, keep)
      redis.call('EXPIRE', r, keep)
      local user = prefix .. ':user:' .. uid .. ':tokens'
      redis.call('SADD', user, access)
      redis.call('EXPIRE', user, keep)
      local issued = prefix .. ':tokens:issued'
      redis.call('RPUSH', issued, access)
      while redis.call('LLEN', issued) > capacity do
        local old = redis.call('LPOP', issued)
        local grant = redis.call('HMGET', prefix .. ':token:' .. old, 'u', 'p')
        redis.call('DEL', prefix .. ':token:' .. old)
        if grant[2] then redis.call('DEL', prefix .. ':token:' .. grant[2]) end
        if grant[1] then redis.call('SREM', prefix .. ':user:' .. grant[1] .. ':tokens', old) end
      end
    end
    """

    static let issue = RedisScript(issueFunction + """

    issue(ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]),
          mock_now(ARGV[1], ARGV[9]))
    return 1
    """)

    /// Rotates a refresh token into the pair given: `ARGV` = prefix, refresh token, then as ``issue`` from the access token on.
    /// Returns the user, or false when the token is unknown, used, revoked or expired.
    static let refresh = RedisScript(issueFunction + """

    local prefix = ARGV[1]
    local key = prefix .. ':token:' .. ARGV[2]
    local now = mock_now(prefix, ARGV[9])
    local grant = redis.call('HMGET', key, 'u', 'e', 'p', 'r')
    if not grant[1] or grant[4] == '1' or tonumber(grant[2]) <= now then return false end
    redis.call('HSET', key, 'r', '1')
    if redis.call('EXISTS', prefix .. ':token:' .. grant[3]) == 1 then redis.call('HSET', prefix .. ':token:' .. grant[3], 'i', '1') end
    issue(prefix, grant[1], ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]), now)
    return tonumber(grant[1])
    """)

    /// Lua of what an access token is worth at mock time `now`: `kind, uid, ban` with kind
    /// 0 valid (its user's ban read too), 1 expired, 2 invalidated or unknown, 3 revoked.
    static let verdictFunction = """
    local function token_verdict(prefix, token, now)
      local grant = redis.call('HMGET', prefix .. ':token:' .. token, 'u', 'e', 'r', 'i')
      if not grant[1] then return 2, 0, false end
      local uid = tonumber(grant[1])
      if grant[3] == '1' then return 3, uid, false end
      if tonumber(grant[2]) <= now then return 1, uid, false end
      if grant[4] == '1' then return 2, uid, false end
      return 0, uid, redis.call('GET', prefix .. ':ban:' .. grant[1])
    end
    """

    /// What an access token is worth: `ARGV` = prefix, token, wall. `{kind, uid, ban}` as ``verdictFunction``.
    static let verdict = RedisScript(LuaClock.offset + "\n" + verdictFunction + """

    local kind, uid, ban = token_verdict(ARGV[1], ARGV[2], mock_now(ARGV[1], ARGV[3]))
    return {kind, uid, ban}
    """)

    /// A login: the user's ban, or a fresh pair issued: `ARGV` as ``issue``. `{0, ban}` or `{1}`.
    static let login = RedisScript(issueFunction + """

    local ban = redis.call('GET', ARGV[1] .. ':ban:' .. ARGV[2])
    if ban then return {0, ban} end
    issue(ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]),
          mock_now(ARGV[1], ARGV[9]))
    return {1}
    """)

    /// Changes the access tokens of a user (`ARGV[3]`, or everyone's when empty): `ARGV` =
    /// prefix, what (`expire`, `invalidate`, `logout`, `revoke` of the token `ARGV[3]`), user or token, wall. Returns how many.
    static let change = RedisScript(LuaClock.offset + """

    local prefix, what, who = ARGV[1], ARGV[2], ARGV[3]
    local now = mock_now(prefix, ARGV[4])
    local tokens
    if what == 'revoke' then tokens = {who}
    elseif who == '' then tokens = redis.call('LRANGE', prefix .. ':tokens:issued', 0, -1)
    else tokens = redis.call('SMEMBERS', prefix .. ':user:' .. who .. ':tokens') end
    local count = 0
    for _, token in ipairs(tokens) do
      local key = prefix .. ':token:' .. token
      local grant = redis.call('HMGET', key, 'e', 'p', 'r', 'i')
      if grant[1] then
        if what == 'expire' then
          if tonumber(grant[1]) > now then
            count = count + 1
            redis.call('HSET', key, 'e', string.format('%d', now))
          end
        elseif what == 'invalidate' then
          if grant[3] ~= '1' and grant[4] ~= '1' then
            count = count + 1
            redis.call('HSET', key, 'i', '1')
          end
        elseif grant[3] ~= '1' then
          count = count + 1
          redis.call('HSET', key, 'r', '1')
          if redis.call('EXISTS', prefix .. ':token:' .. grant[2]) == 1 then redis.call('HSET', prefix .. ':token:' .. grant[2], 'r', '1') end
        end
      end
    end
    return count
    """)

    /// Bans a user or lifts its ban, the banned users counted in `PREFIX:bans`: `ARGV` =
    /// prefix, user, the ban's record (empty to lift), capacity. Returns 0 for a new ban when
    /// `capacity` users are banned already, else 1.
    static let ban = RedisScript("""
    local prefix, uid = ARGV[1], ARGV[2]
    local key = prefix .. ':ban:' .. uid
    if ARGV[3] == '' then
      redis.call('DEL', key)
      redis.call('SREM', prefix .. ':bans', uid)
      return 1
    end
    if redis.call('EXISTS', key) == 0 and redis.call('SCARD', prefix .. ':bans') >= tonumber(ARGV[4]) then return 0 end
    redis.call('SET', key, ARGV[3])
    redis.call('SADD', prefix .. ':bans', uid)
    return 1
    """)

    static let all = [issue, refresh, verdict, login, change, ban]
}
