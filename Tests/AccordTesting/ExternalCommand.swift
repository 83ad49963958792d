import AccordSync
import Foundation

/// A program the tests run as a person would (curl, openssl, python3), waited for.
public enum ExternalCommand {
    /// What a run printed and how it ended.
    public struct Outcome: Sendable {
        public var status: Int32
        public var output: Data
        public var errors: String
        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// ``run(_:_:input:timeLimit:)`` on a thread of its own, for a long program (`swift
    /// build`) in an async test: waiting on the cooperative pool, whose threads are as many
    /// as the cores, would leave every other async test without a thread for minutes.
    public static func runOnOwnThread(_ program: String, _ arguments: [String], input: String? = nil,
                                      timeLimit: Double = 300) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try run(program, arguments, input: input, timeLimit: timeLimit) })
            }
        }
    }

    /// Runs `program` (a path, or a name looked up on `PATH`) with `arguments`, feeding it
    /// `input`. A program still running after `timeLimit` seconds is killed (its status is
    /// SIGKILL's, its errors say so), so no program can hang the suite.
    public static func run(_ program: String, _ arguments: [String], input: String? = nil, timeLimit: Double = 300) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        process.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
        let output = Pipe(), errors = Pipe(), feed = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = feed
        try process.run()
        let overrun = Locked(false)
        let watchdog = DispatchWorkItem { [process] in
            guard process.isRunning else { return }
            overrun.withLock { $0 = true }
            kill(process.processIdentifier, SIGKILL)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: watchdog)
        defer { watchdog.cancel() }
        if let input { feed.fileHandleForWriting.write(Data(input.utf8)) }
        try feed.fileHandleForWriting.close()
        // Both pipes are drained at once, so a chatty standard error cannot block the program.
        let errorText = Locked(Data())
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorText.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() }
            drained.signal()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        var errorOutput = String(decoding: errorText.withLock { $0 }, as: UTF8.self)
        if overrun.withLock({ $0 }) { errorOutput += "\n\(program) was killed: still running after \(timeLimit) s" }
        return Outcome(status: process.terminationStatus, output: data, errors: errorOutput)
    }
}
