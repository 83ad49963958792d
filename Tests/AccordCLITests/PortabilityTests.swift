import AccordTesting
import Foundation
import Testing

/// `Sources/` and the test support (`Tests/AccordTesting/`) build on macOS as on Linux: every call or constant only Linux (or glibc)
/// has stands inside a platform check (`#if os(Linux)`, `#if canImport(Glibc)`,
/// `#ifdef __linux__`, `#ifdef __GLIBC__`, or `#if defined(NAME)` of the name itself) with
/// another path beside it. This machine cannot build for macOS; this test is what fails
/// when a Linux-only call slips in unguarded.
@Suite struct PortabilityTests {
    /// Names Darwin lacks (or spells otherwise), as they appear in code.
    static let linuxOnly = ["epoll_create", "epoll_ctl", "epoll_wait", "MSG_NOSIGNAL", "\"/proc/", "prctl(", "mallopt(", "malloc_trim",
                            "M_MMAP_THRESHOLD", "POLLRDHUP", "accept4(", "pipe2(", "SOCK_CLOEXEC", "SOCK_NONBLOCK", "sched_getaffinity",
                            "gettid(", "eventfd(", "signalfd(", "timerfd_", "inotify_", "sendfile(", "<malloc.h>", "import Glibc"]

    /// Conditions that hold only where the Linux-only names exist.
    static func isLinuxGuard(_ condition: String, for name: String) -> Bool {
        let guards = ["os(Linux)", "canImport(Glibc)", "__linux__", "__GLIBC__"]
        let bare = name.trimmingCharacters(in: CharacterSet(charactersIn: "(\"<>/ ")).replacingOccurrences(of: "import ", with: "")
        return guards.contains { condition.contains($0) } || condition.contains("defined(\(bare))") || condition == "#ifdef \(bare)"
    }

    /// Each unguarded use of a Linux-only name in `text`, as `LINE: NAME`.
    static func unguarded(in text: String) -> [String] {
        var conditions: [(text: String, isElse: Bool)] = []
        var inComment = false
        var found: [String] = []
        for (index, rawLine) in text.components(separatedBy: "\n").enumerated() {
            var line = rawLine
            if inComment {
                guard let end = line.range(of: "*/") else { continue }
                line = String(line[end.upperBound...])
                inComment = false
            }
            while let start = line.range(of: "/*") {
                if let end = line.range(of: "*/", range: start.upperBound..<line.endIndex) {
                    line.removeSubrange(start.lowerBound..<end.upperBound)
                } else {
                    line = String(line[..<start.lowerBound])
                    inComment = true
                }
            }
            if let slashes = line.range(of: "//") { line = String(line[..<slashes.lowerBound]) }
            let directive = line.trimmingCharacters(in: .whitespaces)
            if directive.hasPrefix("#if") {
                conditions.append((directive, false))
                continue
            }
            if directive.hasPrefix("#elseif") || directive.hasPrefix("#elif") || directive.hasPrefix("#else") {
                if !conditions.isEmpty { conditions[conditions.count - 1] = (directive, !directive.hasPrefix("#elseif") && !directive.hasPrefix("#elif")) }
                continue
            }
            if directive.hasPrefix("#endif") {
                _ = conditions.popLast()
                continue
            }
            for name in linuxOnly where line.contains(name) {
                let guarded = conditions.contains { !$0.isElse && isLinuxGuard($0.text, for: name) }
                if !guarded { found.append("\(index + 1): \(name)") }
            }
        }
        return found
    }

    @Test func aLinuxOnlyCallIsFoundUnlessAPlatformCheckHoldsIt() {
        #expect(Self.unguarded(in: "let sent = send(fd, bytes, count, Int32(MSG_NOSIGNAL))\n") == ["1: MSG_NOSIGNAL"])
        #expect(Self.unguarded(in: "#if os(Linux)\nlet flags = Int32(MSG_NOSIGNAL)\n#else\nlet flags: Int32 = 0\n#endif\n") == [])
        #expect(Self.unguarded(in: "#if os(Linux)\nlet a = 1\n#else\nmallopt(M_MMAP_THRESHOLD, 1)\n#endif\n") == ["4: mallopt(", "4: M_MMAP_THRESHOLD"])
        #expect(Self.unguarded(in: "#if defined(POLLRDHUP)\nreturn POLLRDHUP;\n#endif\n/* POLLRDHUP in a comment */\n") == [])
        #expect(Self.unguarded(in: "import Glibc\n") == ["1: import Glibc"])
    }

    @Test(arguments: ["Sources", "Tests/AccordTesting"])
    func noLinuxOnlyCallIsUnguarded(in folder: String) throws {
        let root = Repository.root.appendingPathComponent(folder)
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var found: [String] = []
        for case let file as URL in files where ["swift", "h", "c"].contains(file.pathExtension) {
            let text = try String(contentsOf: file, encoding: .utf8)
            found += Self.unguarded(in: text).map { "\(file.path.dropFirst(root.path.count + 1)):\($0)" }
        }
        #expect(found == [])
    }
}
