import AccordDiagnostics
import AccordMock
import AccordSync
import Foundation
import Synchronization

extension ServeCommand {
    /// The engine being served, replaced as a whole on reload. A request takes one
    /// reference under the lock rather than copying the engine.
    final class CurrentEngine: Sendable {
        private final class Box: Sendable {
            let engine: MockEngine

            init(_ engine: MockEngine) {
                self.engine = engine
            }
        }

        private let storage: Locked<Box>

        init(_ engine: MockEngine) {
            storage = Locked(Box(engine))
        }

        func handle(_ request: MockRequest) -> MockResponse {
            storage.withLock { $0 }.engine.handle(request)
        }

        func replace(with engine: MockEngine) {
            let box = Box(engine)
            storage.withLock { $0 = box }
        }
    }

    /// Polls the directories and swaps in a new engine when they change; a broken edit
    /// is reported and the last good version keeps serving.
    final class Watcher: @unchecked Sendable {
        private let running = Atomic<Bool>(true)

        init(settings: Settings, current: CurrentEngine, state: MockState, console: Console) {
            let directories = [settings.contracts, settings.mocks]
            let initial = MockProject.fingerprint(of: directories)
            let thread = Thread { [self] in
                var served = initial
                // A change is read only once two polls in a row see the same files, and
                // kept only if they did not move while being read: an editor or `cp`
                // half-way through a file is never served.
                var settling: [String]?
                while self.running.load(ordering: .relaxed) {
                    Thread.sleep(forTimeInterval: 0.25)
                    let now = MockProject.fingerprint(of: directories)
                    guard now != served else { settling = nil; continue }
                    guard now == settling else { settling = now; continue }
                    let outcome = MockProject.load(contracts: settings.contracts, mocks: settings.mocks)
                    guard MockProject.fingerprint(of: directories) == now else { settling = nil; continue }
                    served = now
                    settling = nil
                    var renderer = DiagnosticRenderer()
                    for diagnostic in outcome.diagnostics { console.writeError(renderer.render(diagnostic)) }
                    guard let project = outcome.project else {
                        console.printError("accord serve: the change has errors; still serving the previous version")
                        continue
                    }
                    current.replace(with: MockEngine(contract: project.contract, fixtures: project.fixtures, scenarios: project.scenarios,
                                                     options: settings.mockOptions, state: state))
                    console.print("accord serve: reloaded: \(project.contract.endpoints.count) endpoints, \(project.fixtures.count) fixtures")
                }
            }
            thread.name = "accord.reload"
            thread.start()
        }

        func stop() {
            running.store(false, ordering: .relaxed)
        }
    }
}
