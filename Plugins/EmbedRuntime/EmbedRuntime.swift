import Foundation
import PackagePlugin

/// Embeds the generator's runtime (`Runtime/*.swift` of the target, ordinary Swift
/// files excluded from its sources) into the generator as string literals.
@main
struct EmbedRuntime: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let runtime = target.directoryURL.appending(path: "Runtime")
        let inputs = try FileManager.default.contentsOfDirectory(at: runtime, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedRuntime.swift")
        return [.buildCommand(
            displayName: "Embedding the generated runtime (\(inputs.count) files)",
            executable: try context.tool(named: "accord-embed").url,
            arguments: [output.path] + inputs.map(\.path),
            inputFiles: inputs,
            outputFiles: [output]
        )]
    }
}
