import AccordCommandLine
import AccordHosting

/// `accord serve`: the mock backend on a contracts and a fixtures directory.
struct ServeCommand: Subcommand {
    let name = "serve"
    let abstract = "Serve a mock backend that validates every request against the contracts."
    let options = [
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "mocks", valueName: "DIR", help: "The fixtures directory (default: mocks)."),
        Arguments.Option(name: "port", valueName: "N", help: "The port; 0 picks a free one (default: 8080)."),
        Arguments.Option(name: "cors", valueName: "ORIGIN", help: "Access-Control-Allow-Origin to answer, or 'off' (default: *)."),
        Arguments.Option(name: "seed", valueName: "N", help: "Seed of {{random}} in fixtures and of exercise-flows-random's order (default: 0)."),
        Arguments.Option(name: "access-ttl", valueName: "DURATION", help: "Access token lifetime, such as 30s or 2h (default: the contract's)."),
        Arguments.Option(name: "refresh-ttl", valueName: "DURATION", help: "Refresh token lifetime (default: the contract's)."),
        Arguments.Option(name: "no-reload", valueName: nil, help: "Do not watch the directories for changes."),
        Arguments.Option(name: "state", valueName: "FILE", help: "Load the collections' records from FILE at start and write them there on stop."),
        Arguments.Option(name: "upload-budget", valueName: "SIZE",
                         help: "The most bytes of uploaded files kept, oldest evicted first, such as 256MiB (default: 64MiB)."),
        Arguments.Option(name: "session-state-budget", valueName: "SIZE",
                         help: "The most bytes of collection records one session keeps; past it its oldest records go (default: 16MiB)."),
        Arguments.Option(name: "state-budget", valueName: "SIZE",
                         help: "The most bytes of collection records all sessions keep; past it the least recently used session goes (default: 512MiB)."),
        Arguments.Option(name: "storage", valueName: "URL",
                         help: "Keep the state in Redis, shared by every replica naming it: redis://HOST:PORT[/DB][?prefix=NAME] (default: memory)."),
        Arguments.Option(name: "allow-eviction", valueName: nil, help: "With --storage: serve although Redis's maxmemory-policy evicts keys."),
        Arguments.Option(name: "replica", valueName: "NAME", help: "With --storage: the name this replica's journal entries carry (default: HOST-PID)."),
    ] + ListenerOptions.options + TLSOptions.options

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        runHost(Settings.self, arguments, console: console)
    }
}
