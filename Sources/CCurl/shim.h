#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are C-variadic; Swift cannot call them.
 * One wrapper per argument type keeps each call type-checked. */

static inline CURLcode accord_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode accord_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode accord_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*accord_curl_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode accord_curl_set_callback(CURL *handle, CURLoption option, accord_curl_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode accord_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
