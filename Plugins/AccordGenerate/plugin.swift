import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory accord-generate [--contracts DIR] --output DIR [--access LEVEL] [--check]`
///
/// Runs `accord generate` from this package, so an app package that depends on Accord
/// regenerates its client without installing anything. Paths are relative to the
/// package the command runs in.
@main
struct AccordGeneratePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let accord = try context.tool(named: "accord")
        var arguments = arguments
        if !arguments.contains("--contracts") && !arguments.contains(where: { $0.hasPrefix("--contracts=") }) {
            arguments += ["--contracts", "contracts"]
        }
        let process = Process()
        process.executableURL = accord.url
        process.arguments = ["generate"] + arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GenerateFailed(status: process.terminationStatus)
        }
    }

    struct GenerateFailed: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "accord generate exited with \(status)" }
    }
}
