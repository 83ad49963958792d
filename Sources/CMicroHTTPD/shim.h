#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>
#include <stdint.h>
#include <microhttpd.h>

/* MHD_start_daemon and MHD_get_daemon_info are C-variadic; Swift cannot call them.
 * These wrappers keep the variadic calls in C, where each argument is type-checked. */

/* Starts an epoll daemon with a worker pool on an IPv4 address ("127.0.0.1").
 * Returns NULL if the address does not parse or the daemon cannot start. */
static inline struct MHD_Daemon *
accord_start_daemon(const char *ipv4, uint16_t port, unsigned int threads,
                    unsigned int connection_timeout_seconds,
                    MHD_AccessHandlerCallback handler, void *handler_context,
                    MHD_RequestCompletedCallback completed, void *completed_context)
{
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, ipv4, &address.sin_addr) != 1) {
        return NULL;
    }
    return MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_TURBO,
        port, NULL, NULL, handler, handler_context,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *) &address,
        MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int) 1,
        /* MHD zeroes this pool on every request; 16 KiB holds any sane request head
         * (bodies go to the handler's own buffer) at half the default's cost. */
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) (16 * 1024),
        MHD_OPTION_END);
}

/* The port the daemon is bound to (useful after asking for port 0), or 0. */
static inline uint16_t
accord_daemon_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* MHD_CONTENT_READER_END_OF_STREAM is a macro with a cast Swift does not import. */
static inline ssize_t
accord_end_of_stream(void)
{
    return MHD_CONTENT_READER_END_OF_STREAM;
}

/* MHD_SIZE_UNKNOWN is a macro with a cast Swift does not import. */
static inline uint64_t
accord_size_unknown(void)
{
    return MHD_SIZE_UNKNOWN;
}

/* Whether the client of a connection connected from a loopback address
 * (127.0.0.0/8, ::1 or an IPv4-mapped loopback). */
static inline int
accord_client_is_loopback(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) {
        return 0;
    }
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *) address;
        return (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *) address;
        if (IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr)) return 1;
        return IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr) && v6->sin6_addr.s6_addr[12] == 127;
    }
    return 0;
}

/* Makes the connection end with a TCP reset when MHD closes it. */
static inline void
accord_reset_on_close(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL) {
        return;
    }
    struct linger linger = { 1, 0 };
    setsockopt(info->connect_fd, SOL_SOCKET, SO_LINGER, &linger, sizeof(linger));
}
