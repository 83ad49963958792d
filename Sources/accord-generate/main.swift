import AccordCommandLine
import AccordGenerateCommand
import Foundation

// `accord-generate [options]`: `accord generate` alone, the tool of the AccordGenerate and
// AccordBuild plugins. It links no HTTP server, HTTP client or Redis client, so a plugin
// builds far less than the whole `accord`.
exit(GenerateCommand().run(Array(CommandLine.arguments.dropFirst()), console: .standard, invokedAs: "accord-generate"))
