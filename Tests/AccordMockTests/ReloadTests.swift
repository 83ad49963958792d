import AccordContract
import AccordMock
import AccordMockState
import AccordSync
import AccordTesting
import Foundation
import Testing

/// Hot reload in-process: the watcher loads a settled change once, and the live
/// engine serves the new version from the next request on.
@Suite struct ReloadTests {
    @Test func aSettledChangeIsLoadedOnceAndServedByTheLiveEngine() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("accord-reload-\(UUID().uuidString)")
        let contracts = root.appendingPathComponent("contracts"), mocks = root.appendingPathComponent("mocks")
        try FileManager.default.createDirectory(at: mocks, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repository.contracts, toPath: contracts.path)
        defer { try? FileManager.default.removeItem(at: root) }

        var fixture = try EngineFixture()
        let live = LiveEngine(fixture.engine)
        let state = fixture.state
        let loads = Locked<[MockProject.Outcome]>([])
        let watcher = ProjectWatcher(contracts: contracts.path, mocks: mocks.path, interval: .milliseconds(20)) { outcome in
            if let project = outcome.project {
                live.replace(with: MockEngine(contract: project.contract, fixtures: project.fixtures, state: state))
            }
            loads.withLock { $0.append(outcome) }
        }
        defer { watcher.stop() }
        #expect(live.handle(fixture.signed("GET", "/api/v1/signals/quota")).json?.value(at: "/data/used") == .int(3))

        try "signal.quota:\n  - name: full\n    default: true\n    data: {daily_limit: 20, used: 20, resets_at: '2026-12-01T00:00:00+08:00'}\n"
            .write(to: mocks.appendingPathComponent("signal.yaml"), atomically: true, encoding: .utf8)
        let deadline = Date().addingTimeInterval(5)
        while loads.withLock({ $0.isEmpty }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(loads.withLock { $0.count } == 1)
        #expect(loads.withLock { $0.first?.diagnostics.isEmpty } == true)
        #expect(live.handle(fixture.signed("GET", "/api/v1/signals/quota")).json?.value(at: "/data/used") == .int(20))
    }
}
