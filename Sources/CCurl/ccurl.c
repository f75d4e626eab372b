// ccurl.c — finds libcurl with dlopen on first use, resolves the functions HTTPClient needs, and wraps the variadic ones.
#define _POSIX_C_SOURCE 200809L  // nanosleep under a strict -std=c11

#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <time.h>

// Layouts and signatures as in curl/curl.h and curl/multi.h (an enum is an int there).
struct ccurl_msg {
    int msg;  // CURLMSG_DONE is 1
    void *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
};
struct ccurl_waitfd;

static struct {
    int (*global_init)(long flags);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *);
    int (*easy_setopt)(void *, int, ...);
    int (*easy_getinfo)(void *, int, ...);
    const char *(*easy_strerror)(int);
    void *(*multi_init)(void);
    int (*multi_add_handle)(void *, void *);
    int (*multi_remove_handle)(void *, void *);
    int (*multi_cleanup)(void *);
    int (*multi_perform)(void *, int *);
    int (*multi_poll)(void *, struct ccurl_waitfd *, unsigned, int, int *);
    int (*multi_wait)(void *, struct ccurl_waitfd *, unsigned, int, int *);
    struct ccurl_msg *(*multi_info_read)(void *, int *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static void *library;
static int loaded;

static void load(void) {
#if defined(__APPLE__)
    static const char *const names[] = {"libcurl.4.dylib", "/usr/lib/libcurl.4.dylib"};
#else
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4"};
#endif
    for (size_t i = 0; i < sizeof names / sizeof *names && !library; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (!library) return;

#define FIND(field, symbol) *(void **)&api.field = dlsym(library, symbol)
    FIND(global_init, "curl_global_init");
    FIND(easy_init, "curl_easy_init");
    FIND(easy_cleanup, "curl_easy_cleanup");
    FIND(easy_setopt, "curl_easy_setopt");
    FIND(easy_getinfo, "curl_easy_getinfo");
    FIND(easy_strerror, "curl_easy_strerror");
    FIND(multi_init, "curl_multi_init");
    FIND(multi_add_handle, "curl_multi_add_handle");
    FIND(multi_remove_handle, "curl_multi_remove_handle");
    FIND(multi_cleanup, "curl_multi_cleanup");
    FIND(multi_perform, "curl_multi_perform");
    FIND(multi_poll, "curl_multi_poll");  // 7.66
    FIND(multi_wait, "curl_multi_wait");  // 7.28
    FIND(multi_info_read, "curl_multi_info_read");
#undef FIND
    if (!api.global_init || !api.easy_init || !api.easy_cleanup || !api.easy_setopt || !api.easy_getinfo
        || !api.easy_strerror || !api.multi_init || !api.multi_add_handle || !api.multi_remove_handle
        || !api.multi_cleanup || !api.multi_perform || !(api.multi_poll || api.multi_wait) || !api.multi_info_read) {
        return;
    }
    // CURL_GLOBAL_DEFAULT; before 7.84 this is not thread-safe, hence once, before any handle.
    loaded = api.global_init(3) == 0;
}

int ccurl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

void *ccurl_easy_init(void) { return api.easy_init(); }

void ccurl_easy_cleanup(void *easy) { api.easy_cleanup(easy); }

int ccurl_setopt_long(void *easy, int option, long value) { return api.easy_setopt(easy, option, value); }

int ccurl_setopt_pointer(void *easy, int option, const void *value) { return api.easy_setopt(easy, option, value); }

int ccurl_setopt_data_callback(void *easy, int option, ccurl_data_callback callback) {
    return api.easy_setopt(easy, option, callback);
}

int ccurl_getinfo_long(void *easy, int info, long *value) { return api.easy_getinfo(easy, info, value); }

int ccurl_getinfo_int64(void *easy, int info, int64_t *value) {
    long long wide = -1;  // curl_off_t: 64 bits on every platform curl supports
    int result = api.easy_getinfo(easy, info, &wide);
    *value = (int64_t)wide;
    return result;
}

const char *ccurl_easy_strerror(int code) {
    const char *message = api.easy_strerror(code);
    return message ? message : "";
}

void *ccurl_multi_init(void) { return api.multi_init(); }

int ccurl_multi_add_handle(void *multi, void *easy) { return api.multi_add_handle(multi, easy); }

int ccurl_multi_remove_handle(void *multi, void *easy) { return api.multi_remove_handle(multi, easy); }

int ccurl_multi_cleanup(void *multi) { return api.multi_cleanup(multi); }

int ccurl_multi_perform(void *multi, int *running) { return api.multi_perform(multi, running); }

int ccurl_multi_poll(void *multi, int timeout_ms) {
    int ready = 0;
    if (api.multi_poll) return api.multi_poll(multi, NULL, 0, timeout_ms, &ready);
    // curl_multi_wait returns at once when it has no socket to wait on (resolving, say): nap.
    int result = api.multi_wait(multi, NULL, 0, timeout_ms, &ready);
    if (result == 0 && ready == 0) {
        struct timespec nap = {0, 10 * 1000 * 1000};
        nanosleep(&nap, NULL);
    }
    return result;
}

int ccurl_multi_finished(void *multi, void *easy, int *result) {
    int queued = 0;
    struct ccurl_msg *message;
    while ((message = api.multi_info_read(multi, &queued))) {
        if (message->msg == 1 && message->easy_handle == easy) {
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}
