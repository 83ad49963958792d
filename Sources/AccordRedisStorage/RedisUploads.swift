import AccordMock
import AccordMockState
import AccordRedis

/// Uploaded files in Redis, within one budget for all replicas: a hash per file
/// (`PREFIX:file:ID`: type, size, time, bytes), their age in `PREFIX:files:age`, and the
/// bytes kept in `PREFIX:files:bytes`; one script stores a file and evicts the oldest
/// until it fits, so a file uploaded through one replica is served by every other.
final class RedisUploads: UploadStorage {
    private let client: RedisClient
    let budgetBytes: Int

    init(client: RedisClient, budgetBytes: Int = UploadStore.defaultBudget) {
        self.client = client
        self.budgetBytes = max(1, budgetBytes)
    }

    static let store = RedisScript("""
    local prefix, id, bytes = ARGV[1], ARGV[2], ARGV[3]
    local size = string.len(bytes)
    local key, age, total = prefix .. ':file:' .. id, prefix .. ':files:age', prefix .. ':files:bytes'
    local old = redis.call('HGET', key, 's')
    if old then
      redis.call('DECRBY', total, old)
      redis.call('DEL', key)
      redis.call('ZREM', age, id)
    end
    while redis.call('ZCARD', age) > 0 and (tonumber(redis.call('GET', total) or '0') + size > tonumber(ARGV[6])
                                            or redis.call('ZCARD', age) >= tonumber(ARGV[7])) do
      local oldest = redis.call('ZPOPMIN', age)
      local gone = prefix .. ':file:' .. oldest[1]
      local kept = redis.call('HGET', gone, 's')
      if kept then redis.call('DECRBY', total, kept) end
      redis.call('DEL', gone)
      redis.call('INCR', prefix .. ':files:evicted')
    end
    redis.call('HSET', key, 't', ARGV[4], 's', size, 'a', ARGV[5], 'b', bytes)
    redis.call('ZADD', age, redis.call('INCR', prefix .. ':files:generation'), id)
    redis.call('INCRBY', total, size)
    return 1
    """)

    static let scripts = [store]

    func store(_ bytes: [UInt8], contentType: String, at time: Int64, id given: String?) throws(StorageError) -> StoredFile? {
        guard bytes.count <= budgetBytes else { return nil }
        let id = given ?? SecureRandom.hex(16)
        try shared { () throws(RedisError) in
            try client.run(Self.store, keys: [], arguments: [client.url.prefix, id, bytes, contentType, time, budgetBytes, UploadStore.maxFiles])
        }
        return StoredFile(id: id, contentType: contentType, size: bytes.count, storedAt: time)
    }

    func file(_ id: String) throws(StorageError) -> (file: StoredFile, bytes: [UInt8])? {
        let reply = try shared { () throws(RedisError) in try client.send(RedisCommand("HMGET", client.key("file", id), "t", "a", "b")) }
        guard let fields = reply.elements, fields.count == 3, let type = fields[0].text, let time = fields[1].integer, let bytes = fields[2].bytes else {
            return nil
        }
        return (StoredFile(id: id, contentType: type, size: bytes.count, storedAt: time), bytes)
    }

    var usage: UploadUsage {
        get throws(StorageError) {
            let replies = try shared { () throws(RedisError) in
                try client.send([RedisCommand("ZCARD", client.key("files", "age")), RedisCommand("GET", client.key("files", "bytes")),
                                 RedisCommand("GET", client.key("files", "evicted"))])
            }
            return UploadUsage(files: Int(replies[0].integer ?? 0), bytes: Int(replies[1].integer ?? 0), budgetBytes: budgetBytes,
                               evicted: Int(replies[2].integer ?? 0))
        }
    }

    func reset() throws(StorageError) {
        try shared { () throws(RedisError) in
            try client.deleteKeys(matching: "file:*")
            try client.deleteKeys(matching: "files:*")
        }
    }
}
