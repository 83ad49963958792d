#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <poll.h>
#include <microhttpd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* MHD_start_daemon and MHD_get_daemon_info are C-variadic; Swift cannot call them.
 * These wrappers keep the variadic calls in C, where each argument is type-checked. */

/* Defined in Swift (AccordServer, @_cdecl): receives MHD's own messages, formatted. */
extern void accord_mhd_log_sink(void *context, const char *message);

/* MHD's logger is C-variadic (a va_list); format here and hand Swift a string. */
static inline void
accord_mhd_logger(void *context, const char *format, va_list arguments)
{
    char message[512];
    vsnprintf(message, sizeof(message), format, arguments);
    accord_mhd_log_sink(context, message);
}

/* What accord_start_daemon needs; every callback gets `context`. */
struct accord_daemon_settings {
    const char *ipv4;
    uint16_t port;
    unsigned int threads;
    unsigned int connection_timeout_seconds;
    /* The most connections at once, and from one IP address. */
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    /* The bytes of each connection's memory pool: the request head and the answer's headers share it. */
    size_t connection_memory_bytes;
    MHD_AccessHandlerCallback handler;
    MHD_RequestCompletedCallback completed;
    MHD_NotifyConnectionCallback connection_notify;
    /* Asked of each accepted connection; MHD_NO closes it (the server is stopping). */
    MHD_AcceptPolicyCallback accept_policy;
    /* Called with the raw request target, before MHD decodes it; its result becomes *con_cls. */
    void *(*uri_logger)(void *context, const char *uri, struct MHD_Connection *connection);
    void *context;
    /* HTTPS: the certificate chain and private key, PEM, NUL-terminated, alive until
     * the daemon stops; both NULL for plain HTTP. */
    const char *tls_certificate;
    const char *tls_key;
    /* How the daemon waits on its sockets: ACCORD_EVENT_LOOP_AUTO, _EPOLL or _POLL. */
    int event_loop;
};

/* The platform's best (epoll on Linux, poll elsewhere), epoll, or poll. */
#define ACCORD_EVENT_LOOP_AUTO 0
#define ACCORD_EVENT_LOOP_EPOLL 1
#define ACCORD_EVENT_LOOP_POLL 2

/* GnuTLS's priorities for the HTTPS daemon: its defaults, TLS 1.2 and 1.3 only. */
#define ACCORD_TLS_PRIORITIES "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

/* Whether this libmicrohttpd was built with TLS (Debian's links GnuTLS). */
static inline int
accord_tls_supported(void)
{
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

/* Starts a daemon with a worker pool on an IPv4 address ("127.0.0.1"), waiting on its
 * sockets with the settings' event loop.
 * Returns NULL if the address does not parse or the daemon cannot start. */
static inline struct MHD_Daemon *
accord_start_daemon(const struct accord_daemon_settings *settings)
{
    struct sockaddr_in address;
    memset(&address, 0, sizeof(address));
    address.sin_family = AF_INET;
    address.sin_port = htons(settings->port);
    if (inet_pton(AF_INET, settings->ipv4, &address.sin_addr) != 1) {
        return NULL;
    }
    const unsigned int loop = settings->event_loop == ACCORD_EVENT_LOOP_EPOLL ? MHD_USE_EPOLL_INTERNAL_THREAD
        : settings->event_loop == ACCORD_EVENT_LOOP_POLL ? MHD_USE_POLL_INTERNAL_THREAD
        : MHD_USE_AUTO_INTERNAL_THREAD;
    unsigned int flags = loop | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_TURBO | MHD_USE_ERROR_LOG;
    struct MHD_OptionItem tls[] = {
        { MHD_OPTION_HTTPS_MEM_CERT, 0, (void *) settings->tls_certificate },
        { MHD_OPTION_HTTPS_MEM_KEY, 0, (void *) settings->tls_key },
        { MHD_OPTION_HTTPS_PRIORITIES, 0, (void *) ACCORD_TLS_PRIORITIES },
        { MHD_OPTION_END, 0, NULL },
    };
    struct MHD_OptionItem none[] = { { MHD_OPTION_END, 0, NULL } };
    const int uses_tls = settings->tls_certificate != NULL && settings->tls_key != NULL;
    if (uses_tls) {
        flags |= MHD_USE_TLS;
    }
    return MHD_start_daemon(
        flags,
        settings->port, settings->accept_policy, settings->context, settings->handler, settings->context,
        /* First, so that MHD's messages about the options below reach it too. */
        MHD_OPTION_EXTERNAL_LOGGER, accord_mhd_logger, settings->context,
        MHD_OPTION_NOTIFY_COMPLETED, settings->completed, settings->context,
        MHD_OPTION_NOTIFY_CONNECTION, settings->connection_notify, settings->context,
        MHD_OPTION_URI_LOG_CALLBACK, settings->uri_logger, settings->context,
        /* One thread is the polling thread itself; MHD warns about a pool of one. */
        MHD_OPTION_THREAD_POOL_SIZE, settings->threads > 1 ? settings->threads : 0u,
        MHD_OPTION_CONNECTION_TIMEOUT, settings->connection_timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, settings->connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, settings->per_ip_connection_limit,
        /* Refuse header lines with whitespace before the colon and other laxities a
         * proxy in front could read differently (request smuggling). */
        MHD_OPTION_STRICT_FOR_CLIENT, (int) 1,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *) &address,
        MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int) 1,
        /* The request head and the answer's headers; bodies go to the handler's buffer. */
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, settings->connection_memory_bytes,
        MHD_OPTION_ARRAY, uses_tls ? tls : none,
        MHD_OPTION_END);
}

/* Whether libmicrohttpd read this header from one plain line, `name:OWS value CRLF`.
 * MHD 0.9.75 parses the head in place: the colon becomes the name's NUL, the value
 * follows after optional whitespace, and CR LF become two NULs. Three things it lets
 * through break that layout, and this sees each:
 * - a folded line (obs-fold): MHD appends the continuation to the *name*, which then
 *   grows past its value or moves elsewhere in the pool;
 * - a NUL inside a value: the value's C string ends early, and what follows its NUL
 *   is the rest of the value, not the NUL of a LF;
 * - a bare LF line end: one NUL where CR LF leave two.
 * Only bytes between the name and its value, and the two after the value, are read:
 * all inside the head MHD holds. */
static inline int
accord_header_line_is_plain(const char *key, size_t key_size, const char *value, size_t value_size);

/* What a header line breaks, checked in one pass over its bytes (every header of every
 * request meets it): ACCORD_HEADER_PLAIN, or the first problem found. */
enum accord_header_check {
    ACCORD_HEADER_PLAIN = 0,
    /* The name holds a byte that is no tchar (RFC 9110 §5.6.2), such as whitespace before the colon. */
    ACCORD_HEADER_NAME_NOT_TOKEN = 1,
    /* The value holds a control byte other than HTAB, or DEL (RFC 9110 §5.5). */
    ACCORD_HEADER_CONTROL_IN_VALUE = 2,
    /* The line was folded, holds a NUL, or ends in a bare LF (see accord_header_line_is_plain). */
    ACCORD_HEADER_NOT_ONE_LINE = 3,
};

static inline enum accord_header_check
accord_check_header(const char *key, size_t key_size, const char *value, size_t value_size)
{
    /* tchar as two masks over ASCII: ! # $ % & ' * + - . 0-9 below 64; A-Z ^ _ ` a-z | ~ above. */
    const uint64_t low = 0x03FF6CFA00000000ull, high = 0x57FFFFFFC7FFFFFEull;
    for (size_t i = 0; i < key_size; i++) {
        const unsigned char byte = (unsigned char) key[i];
        const int token = byte < 64 ? (int) ((low >> byte) & 1) : byte < 128 ? (int) ((high >> (byte - 64)) & 1) : 0;
        if (!token) {
            return ACCORD_HEADER_NAME_NOT_TOKEN;
        }
    }
    /* Eight bytes at a time while none is below 0x20 or DEL (most values hold none), then
     * byte by byte from the word that has one: a tab is allowed, so it is looked at alone. */
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    size_t i = 0;
    for (; i + 8 <= value_size; i += 8) {
        uint64_t word;
        memcpy(&word, value + i, 8);
        const uint64_t below_space = (word - ones * 0x20) & ~word & highs;
        const uint64_t del = word ^ (ones * 0x7F);
        if (below_space | ((del - ones) & ~del & highs)) {
            break;
        }
    }
    for (; i < value_size; i++) {
        const unsigned char byte = (unsigned char) value[i];
        if ((byte < 0x20 && byte != 0x09) || byte == 0x7F) {
            return ACCORD_HEADER_CONTROL_IN_VALUE;
        }
    }
    return accord_header_line_is_plain(key, key_size, value, value_size) ? ACCORD_HEADER_PLAIN : ACCORD_HEADER_NOT_ONE_LINE;
}

static inline int
accord_header_line_is_plain(const char *key, size_t key_size, const char *value, size_t value_size)
{
    const char *name_end = key + key_size;
    if (value <= name_end || value - name_end > 1024 || *name_end != '\0') {
        return 0;
    }
    for (const char *p = name_end + 1; p < value; p++) {
        if (*p != ' ' && *p != '\t') {
            return 0;
        }
    }
    return value[value_size] == '\0' && value[value_size + 1] == '\0';
}

/* The socket of a connection, or -1. */
static inline int
accord_connection_fd(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/* The socket context set when the connection was accepted, or NULL. */
static inline void *
accord_connection_socket_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
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

/* MHD_CONTENT_READER_END_WITH_ERROR, likewise: the body is cut short and the
 * connection closed (a chunked body then lacks its last chunk). */
static inline ssize_t
accord_end_with_error(void)
{
    return MHD_CONTENT_READER_END_WITH_ERROR;
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
    int fd = accord_connection_fd(connection);
    if (fd < 0) {
        return;
    }
    struct linger linger = { 1, 0 };
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, sizeof(linger));
}

/* send(2) that never raises SIGPIPE on a peer that went away: MSG_NOSIGNAL on Linux,
 * the socket's SO_NOSIGPIPE on Darwin, which has no such flag. */
static inline ssize_t
accord_send_without_signal(int fd, const void *bytes, size_t count)
{
#if defined(MSG_NOSIGNAL)
    return send(fd, bytes, count, MSG_NOSIGNAL);
#else
    int on = 1;
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof(on));
    return send(fd, bytes, count, 0);
#endif
}

/* Fixes glibc's mmap threshold at `bytes` (it otherwise rises each time a large block
 * is freed), so that blocks over it keep their own mapping and go back to the system
 * when freed. Nothing elsewhere. */
static inline void
accord_fix_mmap_threshold(int bytes)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, bytes);
#else
    (void) bytes;
#endif
}

/* The poll(2) event of a peer that closed its side: POLLRDHUP on Linux (a macro
 * Swift's Glibc module leaves out, as it needs _GNU_SOURCE), POLLHUP elsewhere. */
static inline short
accord_poll_hang_up(void)
{
#if defined(POLLRDHUP)
    return POLLRDHUP;
#elif defined(__linux__)
    return 0x2000; /* POLLRDHUP in <poll.h> with _GNU_SOURCE */
#else
    return POLLHUP;
#endif
}
