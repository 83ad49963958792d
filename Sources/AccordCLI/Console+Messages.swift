import AccordCommandLine
import AccordHosting

extension Console {
    /// The console as a running server's messages.
    var messages: HostMessages { HostMessages(output: { self.write($0) }, error: { self.writeError($0) }) }
}
