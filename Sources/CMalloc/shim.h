/* glibc's malloc_trim, which the Glibc module leaves out: it gives the free pages of
 * every thread's arena back to the system. Elsewhere there is nothing to call. */
#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#endif

static inline void accord_give_free_pages_back(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
