import AccordSync
import Foundation

/// A real `accord serve` (or `accord proxy`) process on a free loopback port, for end-to-end tests.
public final class ServerProcess: @unchecked Sendable {
    /// The `accord` built beside this test binary.
    public static var executable: URL {
        let directory = Bundle.main.executableURL?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return directory.appendingPathComponent("accord")
    }

    private let process = Process()
    private let output = TextBuffer()
    private let errors = TextBuffer()
    public private(set) var port: UInt16 = 0
    /// `https` when the server was started with `--tls`.
    public private(set) var scheme = "http"
    /// The plain HTTP port that offers the CA (`--tls` with the local CA), or nil.
    public private(set) var trustPort: UInt16?

    public struct LaunchError: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Starts the server and waits for its banner.
    /// - Parameters:
    ///   - command: `serve`, or `proxy` (give it `--upstream URL` in `arguments`).
    ///   - fileSizeLimitKiB: runs the server under `ulimit -f` (bash's 1 KiB blocks), to fill its "disk".
    public init(command: String = "serve", arguments: [String] = [], mocks: String? = nil, contracts: String? = nil,
                fileSizeLimitKiB: Int? = nil) throws {
        let serve = [command, "--port", "0",
                     "--contracts", contracts ?? Repository.contracts,
                     "--mocks", mocks ?? Repository.mocks] + arguments
        if let fileSizeLimitKiB {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "ulimit -f \(fileSizeLimitKiB) && exec \"$0\" \"$@\"", Self.executable.path] + serve
        } else {
            process.executableURL = Self.executable
            process.arguments = serve
        }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        // At the end of a stream the handler is taken off before the pipe can close: a read
        // source left on a closed descriptor, which another test may reuse, is what
        // libdispatch's event loop must never meet.
        stdout.fileHandleForReading.readabilityHandler = { [output] handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                output.finish()
            } else {
                output.append(data)
            }
        }
        stderr.fileHandleForReading.readabilityHandler = { [errors] handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                errors.finish()
            } else {
                errors.append(data)
            }
        }
        try process.run()
        // The whole banner: its last line names the console.
        let banner = try waitFor(timeout: 10) { text, _ in text.contains("accord \(command): http") && (command != "serve" || text.contains("  console: ")) }
        guard let range = banner.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression),
              let port = UInt16(banner[range].split(separator: ":").last ?? "") else {
            throw LaunchError(description: "no URL in the banner: \(banner)")
        }
        self.port = port
        scheme = banner.contains("accord \(command): https://") ? "https" : "http"
        if let trust = banner.range(of: #"CA over plain HTTP: http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
            trustPort = UInt16(banner[trust].split(separator: ":").last ?? "")
        }
    }

    deinit {
        guard process.isRunning else { return }
        stop()
    }

    /// SIGTERM, and SIGKILL for a server that has not stopped 10 s later, so one stuck
    /// stop cannot hang the suite.
    private func stop() {
        process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    public var standardOutput: String { output.text }
    public var standardError: String { errors.text }
    public var baseURL: String { "\(scheme)://127.0.0.1:\(port)" }

    /// The server's process identifier, for reading /proc.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// The server's resident memory in KiB, from /proc (from `ps` where there is no /proc).
    public var residentKiB: Int {
        #if os(Linux)
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        #else
        let text = (try? ExternalCommand.run("/bin/ps", ["-o", "rss=", "-p", String(process.processIdentifier)]).text) ?? ""
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #endif
    }

    /// Polls the output until `condition(stdout, stderr)` holds; returns stdout.
    @discardableResult
    public func waitFor(timeout: Double, _ condition: (String, String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let (out, err) = (standardOutput, standardError)
            if condition(out, err) { return out }
            if !process.isRunning { throw LaunchError(description: "accord exited (\(process.terminationStatus)): \(out)\(err)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw LaunchError(description: "timed out; stdout: \(standardOutput) stderr: \(standardError)")
    }

    /// Waits for the process to exit by itself (`POST /__accord/shutdown`) and for the
    /// last of its output; its exit status, or nil when it still runs after `timeout`.
    public func waitForExit(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        while !(output.isFinished && errors.isFinished) && Date() < deadline.addingTimeInterval(5) { Thread.sleep(forTimeInterval: 0.01) }
        return process.terminationStatus
    }

    /// Sends SIGTERM (SIGKILL when the process still runs 10 s later) and waits for the
    /// process and for the last of its output (the pipes are read on another thread, so
    /// the exit can come before the last line); returns the exit status and how long the
    /// process took to exit.
    public func terminate() -> (status: Int32, seconds: Double) {
        let start = Date()
        stop()
        let elapsed = Date().timeIntervalSince(start)
        let deadline = Date().addingTimeInterval(5)
        while !(output.isFinished && errors.isFinished) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return (process.terminationStatus, elapsed)
    }
}

/// Text collected from a pipe on another thread.
public final class TextBuffer: Sendable {
    private let storage = Locked((text: "", finished: false))

    public init() {}

    public func append(_ data: Data) {
        storage.withLock { $0.text += String(decoding: data, as: UTF8.self) }
    }

    /// The pipe reached its end: nothing more will be appended.
    public func finish() {
        storage.withLock { $0.finished = true }
    }

    public var isFinished: Bool { storage.withLock { $0.finished } }

    public var text: String { storage.withLock { $0.text } }
}
