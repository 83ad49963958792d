/// Where the nonces seen within their window are kept: ``NonceCache`` in memory, or a
/// store several servers share.
///
/// A shared implementation maps ``insert(appKey:nonce:now:)`` to one atomic
/// check-and-set with a time to live, such as Redis `SET nonce:APP:NONCE 1 NX EX TTL`:
/// two replicas that receive the same nonce at once must not both accept it.
public protocol NonceStorage: Sendable {
    /// The most nonces kept; beyond it an implementation answers ``NonceCache/Outcome/full``.
    var capacity: Int { get }
    /// The nonces within their window now.
    var count: Int { get }
    /// Records `nonce` of `appKey` seen at `now` (Unix seconds), atomically: whether it
    /// is new, was already seen within the window, or cannot be kept.
    func insert(appKey: String, nonce: String, now: Int64) -> NonceCache.Outcome
}

extension NonceCache: NonceStorage {}
