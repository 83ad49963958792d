import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory accord-generate [--contracts DIR] --output DIR [--access LEVEL] [--namespace NAME] [--check]`
///
/// Runs `accord-generate` (`accord generate` alone, without the server) from this
/// package, so an app package that depends on Accord regenerates its client without
/// installing anything. Paths are relative to the
/// package the command runs in (to the Xcode project's directory from Xcode).
@main
struct AccordGeneratePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try Self.generate(tool: context.tool(named: "accord-generate").url, arguments: arguments, in: context.package.directoryURL)
    }

    /// `accord-generate` with `arguments` (and `--contracts contracts` unless they name a directory), in `directory`.
    static func generate(tool: URL, arguments: [String], in directory: URL) throws {
        var arguments = arguments
        if !arguments.contains("--contracts") && !arguments.contains(where: { $0.hasPrefix("--contracts=") }) {
            arguments += ["--contracts", "contracts"]
        }
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GenerateFailed(status: process.terminationStatus)
        }
    }

    struct GenerateFailed: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "accord-generate exited with \(status)" }
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

// Unverified: Xcode is not available where Accord is built and tested.
extension AccordGeneratePlugin: XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
        try Self.generate(tool: context.tool(named: "accord-generate").url, arguments: arguments, in: context.xcodeProject.directoryURL)
    }
}
#endif
