import AccordCLI
import Foundation

exit(AccordCommand.run(Array(CommandLine.arguments.dropFirst())))
