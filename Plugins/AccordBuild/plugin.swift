import Foundation
import PackagePlugin

/// Generates a target's client at build time: the target's `contracts/` (and `mocks/`, for
/// typed fixtures and `MockTransport`'s routes) become one Swift file in the build
/// directory, compiled with the target. Nothing generated is checked in.
///
/// ```swift
/// .target(name: "TongbanAPI", exclude: ["contracts", "mocks"],
///         plugins: [.plugin(name: "AccordBuild", package: "accord")])
/// ```
///
/// The service file's `swift: {namespace: Tongban}` nests the names; the declarations are `public`.
@main
struct AccordBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        try [Self.command(tool: context.tool(named: "accord-generate").url, directory: target.directoryURL,
                          workDirectory: context.pluginWorkDirectoryURL, name: target.name)]
    }

    /// `accord-generate` of `directory`'s `contracts/` and `mocks/` into `Accord.swift` in `workDirectory`.
    static func command(tool: URL, directory: URL, workDirectory: URL, name: String) throws -> Command {
        let contracts = directory.appending(path: "contracts")
        let mocks = directory.appending(path: "mocks")
        guard FileManager.default.fileExists(atPath: contracts.path) else { throw NoContracts(target: name, path: contracts.path) }
        let output = workDirectory.appending(path: "Accord.swift")
        var arguments = ["--contracts", contracts.path, "--output", output.path]
        var inputs = files(below: contracts)
        if FileManager.default.fileExists(atPath: mocks.path) {
            arguments += ["--mocks", mocks.path]
            inputs += files(below: mocks)
        } else {
            arguments.append("--no-fixtures")
        }
        return .buildCommand(displayName: "Generating the client of \(name) from contracts/", executable: tool, arguments: arguments,
                             inputFiles: inputs, outputFiles: [output])
    }

    /// Every file below `folder`, so that changing, adding or removing one regenerates.
    static func files(below folder: URL) -> [URL] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return (walker?.allObjects as? [URL] ?? []).filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.path < $1.path }
    }

    struct NoContracts: Error, CustomStringConvertible {
        var target: String
        var path: String
        var description: String { "AccordBuild: target '\(target)' has no contracts/ folder (\(path)); put the contracts there" }
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

// Unverified: Xcode is not available where Accord is built and tested.
extension AccordBuildPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        let directory = context.xcodeProject.directoryURL.appending(path: target.displayName)
        return try [Self.command(tool: context.tool(named: "accord-generate").url, directory: directory,
                                 workDirectory: context.pluginWorkDirectoryURL, name: target.displayName)]
    }
}
#endif
