import AccordContract
import AccordMock
import AccordMockState
import AccordRedis
import AccordRedisStorage

/// Where `accord serve` keeps its state: this process's memory (the default), or one
/// Redis that several replicas share (`--storage redis://HOST:PORT[/DB][?prefix=NAME]`).
public enum StorageChoice: Sendable, Equatable {
    case memory
    /// - Parameters:
    ///   - allowEviction: serve although Redis's `maxmemory-policy` evicts keys (`--allow-eviction`).
    ///   - replica: the name this replica's journal entries carry (`--replica`).
    case redis(RedisURL, allowEviction: Bool, replica: String)
}

extension StorageChoice {
    /// `seed` mixed with the replica's name: replicas sharing one storage draw
    /// different `{{random}}` and `{{uuid}}` values (ids of records in one shared
    /// collection must not repeat), and one replica still draws the same ones each run.
    static func seed(_ seed: UInt64, replica: String) -> UInt64 {
        SplitMix.seed(seed, mixedWith: replica)
    }
}

extension MockHost.StateLimits {
    /// The state `storage` keeps, shaped by these limits and the contract's defaults;
    /// Redis is checked first (it answers, it does not evict), its failure said through
    /// `messages` with the URL, and the start refused (exit status 1).
    func state(for contract: Contract, storage: StorageChoice, recorder: JournalRecorder?, messages: HostMessages) throws(HostFailure) -> MockState {
        let auth = contract.service.auth
        let (access, refresh) = (accessTTL ?? auth.accessTTLSeconds, refreshTTL ?? auth.refreshTTLSeconds)
        let nonceTTL = contract.service.signing.nonceTTLSeconds
        switch storage {
        case .memory:
            return MockState(nonceTTLSeconds: nonceTTL, accessTTL: access, refreshTTL: refresh, seed: seed, journal: Journal(recorder: recorder),
                             collections: CollectionStore(sessionBudgetBytes: sessionStateBudget, totalBudgetBytes: stateBudget),
                             uploads: UploadStore(budgetBytes: uploadBudget))
        case .redis(let url, let allowEviction, let replica):
            var redis: RedisStorage?
            let state = MockState(seed: StorageChoice.seed(seed, replica: replica)) { random in
                let made = RedisStorage(url: url, nonceTTLSeconds: nonceTTL, accessTTL: access, refreshTTL: refresh, recorder: recorder, replica: replica,
                                        uploadBudget: uploadBudget, sessionBudget: sessionStateBudget, totalBudget: stateBudget, random: random,
                                        report: { messages.warn("warning: \($0)") })
                redis = made
                return made
            }
            do {
                try redis?.checkReachable(allowEviction: allowEviction)
            } catch {
                messages.warn("error: --storage \(url): \(error)")
                throw .startup
            }
            return state
        }
    }
}
