import AccordJSON
import AccordSync

/// A file the mock stores for an app: an uploaded avatar or photo, served back by id.
public struct StoredFile: Sendable, Hashable {
    /// Where stored files are written (`PUT`, with a signed policy) and served back (`GET`):
    /// outside the base path and the control API, so a device reaches it.
    public static let pathPrefix = "/__storage/"

    /// Random, 32 hex digits: the name under ``pathPrefix``.
    public var id: String
    public var contentType: String
    public var size: Int
    /// The mock time it was stored, in Unix seconds.
    public var storedAt: Int64

    public init(id: String, contentType: String, size: Int, storedAt: Int64) {
        self.id = id
        self.contentType = contentType
        self.size = size
        self.storedAt = storedAt
    }
}

extension StoredFile {
    /// What templates read (`{{upload.PART.url}}`): `{id, url, size, content_type}`.
    package func json(origin: String) -> JSONValue {
        .object([.init("id", .string(id)), .init("url", .string(origin + Self.pathPrefix + id)), .init("size", .int(size)),
                 .init("content_type", .string(contentType))])
    }
}

/// The bytes of uploaded files, within a budget: a shared implementation keeps one key
/// per file with a size-ordered eviction (`SET file:ID … `, `ZADD files:age`).
public protocol UploadStorage: Sendable {
    /// Keeps `bytes` (under `id`, a policy's, or a new random one), evicting the oldest
    /// files until the new one fits the budget; nil when the file alone is larger than the budget.
    func store(_ bytes: [UInt8], contentType: String, at time: Int64, id: String?) throws(StorageError) -> StoredFile?
    /// The file and its bytes, if it is still kept.
    func file(_ id: String) throws(StorageError) -> (file: StoredFile, bytes: [UInt8])?
    /// What is kept now: files, bytes, the budget, and how many were evicted so far.
    var usage: UploadUsage { get throws(StorageError) }
    func reset() throws(StorageError)
}

/// How full the upload store is.
public struct UploadUsage: Sendable, Hashable {
    public var files: Int
    public var bytes: Int
    public var budgetBytes: Int
    public var evicted: Int

    public init(files: Int, bytes: Int, budgetBytes: Int, evicted: Int) {
        self.files = files
        self.bytes = bytes
        self.budgetBytes = budgetBytes
        self.evicted = evicted
    }
}
