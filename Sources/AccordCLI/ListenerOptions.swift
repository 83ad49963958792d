import AccordCommandLine
import AccordHosting
import AccordMock
import AccordServer
import Foundation

/// The options of a command that listens (`serve`, `proxy`): the address, workers,
/// limits and the steering guards, checked.
struct ListenerOptions {
    static let options = [
        Arguments.Option(name: "host", valueName: "IPV4", help: "The address to listen on (default: 127.0.0.1)."),
        Arguments.Option(name: "threads", valueName: "N", help: "Worker threads (default: the number of cores)."),
        Arguments.Option(name: "max-body", valueName: "SIZE",
                         help: "The largest JSON request body, such as 512KiB or 2MiB (default: 1MiB); an upload endpoint takes its declared maximum."),
        Arguments.Option(name: "body-budget", valueName: "SIZE",
                         help: "The most bytes the bodies of all requests in flight hold together; beyond it 503 (default: 256MiB)."),
        Arguments.Option(name: "request-timeout", valueName: "DURATION",
                         help: "How long a connection has to send a whole request, head and body (default: 30s, at most 1h)."),
        Arguments.Option(name: "min-body-rate", valueName: "SIZE",
                         help: "The slowest a body may arrive per second on average after its first 10 s, such as 1KiB (default: 1KiB)."),
        Arguments.Option(name: "header-timeout", valueName: "DURATION",
                         help: "How long a connection has to send each request head, such as 10s (default: 10s, at most 1h)."),
        Arguments.Option(name: "max-connections", valueName: "N", help: "The most open connections (default: 4096, at most 65536)."),
        Arguments.Option(name: "max-connections-per-ip", valueName: "N", help: "The most open connections from one address (default: half of --max-connections)."),
        Arguments.Option(name: "inject", valueName: "RULE", help: "An injection rule, such as 'signal.publish=3008' or 'auth.*=1005@once'; repeatable."),
        Arguments.Option(name: "scenario", valueName: "NAME", help: "Run mocks/scenarios/NAME.yaml for every session."),
        Arguments.Option(name: "admin-token", valueName: "TOKEN",
                         help: "Require X-Accord-Admin-Token on /__accord/ (needed to bind beyond loopback; default: $ACCORD_ADMIN_TOKEN)."),
        Arguments.Option(name: "event-loop", valueName: "LOOP",
                         help: "How the workers wait on sockets: 'auto' (epoll on Linux, poll elsewhere), 'epoll' or 'poll' (default: $ACCORD_EVENT_LOOP, else auto)."),
        Arguments.Option(name: "record", valueName: "FILE", help: "Append every request to FILE as a JSON line."),
        Arguments.Option(name: "fail-on", valueName: "LIST",
                         help: "Exit 1 on stop when any of these happened: 'violations', 'uncovered', 'flows' (comma-separated)."),
        Arguments.Option(name: "allow-remote-steering", valueName: nil,
                         help: "Accept X-Accord-Inject, X-Accord-Scenario and X-Accord-Session from beyond loopback without the admin token."),
        Arguments.Option(name: "no-sign", valueName: nil, help: "Do not check X-Sign (for quick poking with curl)."),
        Arguments.Option(name: "check-flows", valueName: nil,
                         help: "Hold each session to the flows of the codes it met (one refresh, no old token, no calls after a logout…); the report's 'flows'."),
        Arguments.Option(name: "quiet", valueName: nil, help: "No access log."),
        Arguments.Option(name: "log-format", valueName: "FORMAT", help: "Access log as 'text' or 'json' (default: text)."),
    ] + ReportOptions.options

    /// The socket, the engine's options, the access log, the rules and the journal file.
    var listener: Listener
    var report: ReportOptions

    /// - Parameters:
    ///   - defaultPort: the port without `--port`.
    ///   - environment: where `ACCORD_ADMIN_TOKEN` and `ACCORD_EVENT_LOOP` are read (a container sets them).
    init(_ arguments: Arguments, defaultPort: UInt16, environment: [String: String] = ProcessInfo.processInfo.environment) throws(UsageError) {
        var server = HTTPServer.Configuration(port: defaultPort)
        let loopName = arguments["event-loop"] ?? environment["ACCORD_EVENT_LOOP"] ?? "auto"
        guard let loop = HTTPServer.EventLoop(rawValue: loopName) else {
            throw UsageError("'--event-loop' (or ACCORD_EVENT_LOOP) is 'auto', 'epoll' or 'poll', found '\(loopName)'")
        }
        server.eventLoop = loop
        if let host = arguments["host"] { server.host = host }
        server.port = try arguments.port("port") ?? server.port
        server.threads = try arguments.integer("threads", in: 1...256) ?? server.threads
        server.maxBodyBytes = try arguments.size("max-body", example: "512KiB, 2MiB or 1048576") ?? server.maxBodyBytes
        server.headerTimeoutSeconds = try arguments.seconds("header-timeout", example: "10s") ?? server.headerTimeoutSeconds
        server.bodyBudgetBytes = try arguments.size("body-budget", minimum: 1 << 20, example: "256MiB") ?? server.bodyBudgetBytes
        server.requestTimeoutSeconds = try arguments.seconds("request-timeout", example: "30s") ?? server.requestTimeoutSeconds
        // 0 turns the minimum rate off.
        server.minimumBodyBytesPerSecond = try arguments.size("min-body-rate", example: "1KiB") ?? server.minimumBodyBytesPerSecond
        if let value = try arguments.integer("max-connections", in: 16...65_536) {
            server.connectionLimit = value
            server.perIPConnectionLimit = value / 2
        }
        server.perIPConnectionLimit = try arguments.integer("max-connections-per-ip", in: 1...server.connectionLimit) ?? server.perIPConnectionLimit
        var options = MockOptions(verifiesSignatures: !arguments.has("no-sign"), maxBodyBytes: server.maxBodyBytes)
        let formatName = arguments["log-format"] ?? "text"
        guard let format = AccessLog.Format(rawValue: formatName) else { throw UsageError("'--log-format' is 'text' or 'json', found '\(formatName)'") }
        report = try ReportOptions(arguments)
        options.scenario = arguments["scenario"]
        options.adminToken = arguments["admin-token"] ?? environment["ACCORD_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        options.allowsRemoteSteering = arguments.has("allow-remote-steering")
        options.checksFlows = arguments.has("check-flows")
        if !server.host.hasPrefix("127.") && options.adminToken == nil {
            throw UsageError("binding \(server.host) exposes the control API beyond this machine; give --admin-token TOKEN")
        }
        listener = Listener(server: server, options: options, accessLog: arguments.has("quiet") ? nil : format, injections: arguments.all("inject"),
                            journalPath: arguments["record"])
    }
}
