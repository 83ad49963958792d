import AccordHTTP
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// What large upstream answers cost `accord proxy`: an answer of small objects takes
/// about twenty times its size as the JSON tree its check reads.
@Suite(.serialized) struct ProxyMemoryTests {
    /// Eight answers of 4 MB each at once, on eight upstream workers: each is checked
    /// within the check budget and the pages of its tree go back to the system, so the
    /// proxy ends near where it began instead of keeping a tree's worth per worker
    /// (about 1.4 GB here before).
    /// Left out of the ThreadSanitizer run: the sanitizer's own allocator and shadow
    /// memory make the resident size say nothing of glibc's arenas, and the sanitized
    /// proxy takes minutes to read the trees (`CheckBudgetTests` runs there).
    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "RSS under the sanitizer's allocator is not glibc's"))
    func largeAnswersLeaveNoTreeBehindOnAnyWorker() async throws {
        let answer = Array(#"{"code":0,"msg":"ok","data":{"items":["#.utf8) + Array(repeating: Array(#"{"a":0},"#.utf8), count: 500_000).joined()
            + Array(#"{"a":0}]}}"#.utf8)
        let upstream = try ProxyEndToEndTests.StandIn { _, response in
            response.status = 200
            response.body = .bytes(answer)
        }
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream.url, "--quiet", "--no-sign", "--upstream-workers", "8"])
        let before = proxy.residentKiB
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let (data, response) = try await URLSession.shared.data(from: URL(string: proxy.baseURL + "/api/v1/app/start-config")!)
                    #expect((response as? HTTPURLResponse)?.statusCode == 200)
                    return data.count
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sizes == Array(repeating: answer.count, count: 8))
        let after = proxy.residentKiB
        #expect(after - before < 200_000, "resident memory went from \(before) KiB to \(after) KiB")
    }
}
