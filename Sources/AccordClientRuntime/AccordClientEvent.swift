import Foundation

/// What the app should be told, outside any one call.
public nonisolated enum AccordClientEvent<Service: AccordContractService>: Sendable, Equatable {
    /// The tokens were cleared (1006, 1007, a failed refresh): go to login.
    case loggedOut(Service.Code)
    case banned(Service.BanPayload)
    /// A code whose flow is a global alert (3008 …), with its message.
    case alert(Service.Code, String)
}
