#include <hiredis/hiredis.h>

/* redisCommand is C-variadic; Swift calls the ...Argv functions instead. The reply
 * type constants are macros of read.h, which Swift imports as plain Int32 values. */

/* errstr is a char[128] in the context, which Swift sees as a tuple. */
static inline const char *accord_redis_error(const redisContext *context) {
    return context->errstr;
}
