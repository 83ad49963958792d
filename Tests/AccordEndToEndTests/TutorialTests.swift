import AccordTesting
import Foundation
import Testing

/// docs/tutorial.md, run: every file it says to write is written, every `$ ` command of
/// its shell blocks is run in one bash session in a fresh directory (with this build's
/// `accord` first on `PATH`), and each command's output must be the lines the page shows
/// under it, where `…` stands for any text. Port 8080 is swapped for a free one.
@Suite struct TutorialTests {
    /// A step of the page: a file to write, or a command and the output shown for it.
    enum Step: Equatable {
        case file(path: String, text: String)
        case command(String, output: [String])
    }

    static let page = Repository.root.appendingPathComponent("docs/tutorial.md").path

    /// The steps, in the page's order.
    static func steps(of markdown: String) -> [Step] {
        var steps: [Step] = []
        var lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        var file: String?
        while let line = lines.popFirst() {
            if line.hasPrefix("<!-- file: "), line.hasSuffix(" -->") {
                file = String(line.dropFirst("<!-- file: ".count).dropLast(" -->".count))
                continue
            }
            guard line.hasPrefix("```"), line.count > 3 else { continue }
            var block: [String] = []
            while let inner = lines.popFirst(), inner != "```" { block.append(inner) }
            if let path = file {
                steps.append(.file(path: path, text: block.joined(separator: "\n") + "\n"))
                file = nil
            } else if line == "```sh" {
                for text in block {
                    if text.hasPrefix("$ ") {
                        steps.append(.command(String(text.dropFirst(2)), output: []))
                    } else if case .command(let command, let output)? = steps.last {
                        steps[steps.count - 1] = .command(command, output: output + [text])
                    }
                }
            }
        }
        return steps
    }

    /// One bash script for the steps: a marker before each command, so its output can be
    /// told from the next one's; a background server is stopped however the script ends.
    static func script(_ steps: [Step], accord: URL) -> String {
        var script = """
            exec 2>&1
            trap 'kill $(jobs -p) 2>/dev/null' EXIT
            export PATH="\(accord.deletingLastPathComponent().path):$PATH"

            """
        for (index, step) in steps.enumerated() {
            switch step {
            case .file(let path, let text):
                script += "mkdir -p \"$(dirname '\(path)')\"\ncat > '\(path)' <<'ACCORD_TUTORIAL_END'\n\(text)ACCORD_TUTORIAL_END\n"
            case .command(let command, _):
                // On a line of its own even after output without a newline (curl's).
                script += "printf '\\n@@step \(index)\\n'\n\(command)\n"
            }
        }
        return script
    }

    /// Whether `line` is what `expected` shows, `…` standing for any text.
    static func matches(_ line: String, _ expected: String) -> Bool {
        let parts = expected.components(separatedBy: "…")
        guard parts.count > 1 else { return line == expected }
        let pattern = "^" + parts.map(NSRegularExpression.escapedPattern(for:)).joined(separator: ".*") + "$"
        return line.range(of: pattern, options: .regularExpression) != nil
    }

    @Test func thePageHasItsSteps() throws {
        let steps = Self.steps(of: try String(contentsOfFile: Self.page, encoding: .utf8))
        let files = steps.compactMap { if case .file(let path, _) = $0 { path } else { nil } }
        #expect(files == ["contracts/reviews.yaml", "mocks/reviews.yaml", "App/Package.swift", "App/Sources/Bookshelf/ReviewsModel.swift",
                          "App/Tests/BookshelfTests/ReviewsModelTests.swift"])
        #expect(steps.count { if case .command = $0 { true } else { false } } >= 14)
        #expect(Self.matches("✔ Test run with 2 tests in 1 suite passed after 0.004 seconds.", "✔ Test run with 2 tests in 1 suite passed after … seconds."))
        #expect(!Self.matches("✘ Test run with 2 tests in 1 suite failed after 0.004 seconds.", "✔ Test run with 2 tests in 1 suite passed after … seconds."))
    }

    /// Left out of the ThreadSanitizer run, as `InitEndToEndTests` is: its `swift test` of
    /// an app package holds both cores while sanitized servers must answer in time.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "swift test of an app package starves the sanitized servers"))
    func everyCommandOfTheTutorialGivesTheOutputItShows() async throws {
        let listener = LoopbackListener()
        let port = String(listener.port)
        listener.close()
        let markdown = try String(contentsOfFile: Self.page, encoding: .utf8).replacingOccurrences(of: "8080", with: port)
        let steps = Self.steps(of: markdown)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-tutorial-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await ExternalCommand.runOnOwnThread("/bin/bash", ["-c", "cd \"$0\" && " + Self.script(steps, accord: ServerProcess.executable), directory.path],
                                                             timeLimit: 900)
        var printed: [Int: [String]] = [:]
        var current: Int?
        for line in outcome.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("@@step "), let index = Int(line.dropFirst("@@step ".count)) { current = index; continue }
            if let current { printed[current, default: []].append(line) }
        }
        for (index, step) in steps.enumerated() {
            guard case .command(let command, let expected) = step else { continue }
            let lines = Array((printed[index] ?? []).reversed().drop { $0.isEmpty }.reversed())
            let same = lines.count == expected.count && zip(lines, expected).allSatisfy { Self.matches($0, $1) }
            #expect(same, "$ \(command)\nprinted:\n\(lines.joined(separator: "\n"))\nthe page shows:\n\(expected.joined(separator: "\n"))")
        }
    }
}
