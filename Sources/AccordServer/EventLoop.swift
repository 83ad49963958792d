internal import CMicroHTTPD

extension HTTPServer {
    /// How libmicrohttpd's workers wait on their sockets.
    public enum EventLoop: String, Sendable, CaseIterable {
        /// The platform's best: epoll on Linux, poll on macOS and elsewhere.
        case automatic = "auto"
        /// Linux only.
        case epoll
        case poll

        var flag: Int32 {
            switch self {
            case .automatic: ACCORD_EVENT_LOOP_AUTO
            case .epoll: ACCORD_EVENT_LOOP_EPOLL
            case .poll: ACCORD_EVENT_LOOP_POLL
            }
        }

        /// What a start failure adds on this platform: epoll asked for where it does not exist.
        var startFailureHint: String {
            #if os(Linux)
            ""
            #else
            self == .epoll ? " on epoll, which exists on Linux only (use --event-loop auto)" : ""
            #endif
        }
    }
}
