import AccordSync

/// Where `POST /__accord/shutdown` asks the serving process to stop: the process sets
/// an action; the control call runs it once.
public final class ShutdownSwitch: Sendable {
    private struct State {
        var action: (@Sendable () -> Void)?
        var requested = false
    }

    private let state = Locked(State())

    public init() {}

    /// What a request to stop does (the server's own stop, as on SIGTERM).
    public func onRequest(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.action = action }
    }

    /// Runs the action, the first time only; false when no action is set.
    public func request() -> Bool {
        let (isSet, action) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard let action = state.action else { return (false, nil) }
            defer { state.requested = true }
            return (true, state.requested ? nil : action)
        }
        action?()
        return isSet
    }
}
