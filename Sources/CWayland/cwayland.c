// cwayland.c — finds libwayland-client with dlopen on first use and resolves what the glue and this file call; connects, binds the foreign-toplevel manager, a seat and an idle notification (or the idle notification alone, for a backend that reads focus elsewhere), and turns their events into the queue cwayland.h describes (titles are dropped as they come).
#include "cwayland.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cwayland-core.h"
#include "generated/ext-idle-notify-v1-client-protocol.h"
#include "generated/kde-idle-client-protocol.h"
#include "generated/wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"

struct cwayland_api cwayland_api;

// The core interfaces, copied from libwayland-client's own at load: the generated glue names
// the first three (scripts/gen-wayland's CORE_INTERFACES), this file the registry. libwayland
// tells interfaces apart by name, so a copy is the same interface to it.
struct wl_interface cwayland_wl_seat_interface, cwayland_wl_output_interface, cwayland_wl_surface_interface;
static struct wl_interface registry_interface;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

// libwayland's own messages (a protocol error, a lost connection) would go to stderr in the
// middle of the recorder's lines: the backend says what happened in its own words instead.
static void quiet(const char *format, va_list arguments) {}

static void load(void) {
    const char *name = "libwayland-client.so.0";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
#define FIND_INTO(variable, symbol)                                                                               \
    if (!(*(void **)&(variable) = dlsym(library, symbol))) {                                                      \
        snprintf(load_error, sizeof load_error, "%s has no %s (libwayland 1.20 or later is needed)", name, symbol); \
        return;                                                                                                   \
    }
#define FIND(field, symbol) FIND_INTO(cwayland_api.field, symbol)
    FIND(proxy_marshal_flags, "wl_proxy_marshal_flags");
    FIND(proxy_add_listener, "wl_proxy_add_listener");
    FIND(proxy_set_user_data, "wl_proxy_set_user_data");
    FIND(proxy_get_user_data, "wl_proxy_get_user_data");
    FIND(proxy_get_version, "wl_proxy_get_version");
    FIND(proxy_destroy, "wl_proxy_destroy");
    FIND(display_connect, "wl_display_connect");
    FIND(display_disconnect, "wl_display_disconnect");
    FIND(display_get_fd, "wl_display_get_fd");
    FIND(display_prepare_read, "wl_display_prepare_read");
    FIND(display_read_events, "wl_display_read_events");
    FIND(display_dispatch_pending, "wl_display_dispatch_pending");
    FIND(display_flush, "wl_display_flush");
    FIND(display_roundtrip, "wl_display_roundtrip");
    FIND(display_get_error, "wl_display_get_error");
    void (*set_log_handler)(void (*)(const char *, va_list));
    FIND_INTO(set_log_handler, "wl_log_set_handler_client");
#undef FIND
#undef FIND_INTO
#define COPY(copy, symbol)                                                                     \
    {                                                                                          \
        const struct wl_interface *found = dlsym(library, symbol);                             \
        if (!found) {                                                                          \
            snprintf(load_error, sizeof load_error, "%s has no %s", name, symbol);             \
            return;                                                                            \
        }                                                                                      \
        copy = *found;                                                                         \
    }
    COPY(cwayland_wl_seat_interface, "wl_seat_interface");
    COPY(cwayland_wl_output_interface, "wl_output_interface");
    COPY(cwayland_wl_surface_interface, "wl_surface_interface");
    COPY(registry_interface, "wl_registry_interface");
#undef COPY
    set_log_handler(quiet);
    loaded = 1;
}

int cwayland_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cwayland_load_error(void) { return load_error; }

// wl_display.get_registry and wl_registry.bind, the two core requests used (opcodes of the
// core protocol, which never change).
#define DISPLAY_GET_REGISTRY 1
#define REGISTRY_BIND 0

typedef struct {
    uint32_t name;
    uint32_t version;
    char *interface;
} global;

typedef struct toplevel {
    cwayland_connection *connection;
    struct zwlr_foreign_toplevel_handle_v1 *handle;
    uint32_t number;
    struct toplevel *next;
} toplevel;

struct cwayland_connection {
    struct wl_display *display;
    struct wl_proxy *registry;
    global *globals;
    size_t global_count;
    struct wl_proxy *seat;
    struct zwlr_foreign_toplevel_manager_v1 *manager;
    struct ext_idle_notifier_v1 *ext_notifier;
    struct ext_idle_notification_v1 *ext_notification;
    struct org_kde_kwin_idle *kde_idle;
    struct org_kde_kwin_idle_timeout *kde_timeout;
    int idle_kind;
    toplevel *toplevels;
    uint32_t next_toplevel;
    int failed;
    // The queue: events in order; `taken` is the text of the event handed out last.
    cwayland_event *events;
    size_t head, count, capacity;
    char *taken;
};

static void push(cwayland_connection *c, int kind, uint32_t number, int activated, const char *text, size_t length) {
    if (c->head + c->count == c->capacity) {
        if (c->head > 0) {
            memmove(c->events, c->events + c->head, c->count * sizeof *c->events);
            c->head = 0;
        } else {
            size_t capacity = c->capacity ? c->capacity * 2 : 64;
            cwayland_event *grown = realloc(c->events, capacity * sizeof *grown);
            if (!grown) {
                c->failed = 1;
                return;
            }
            c->events = grown;
            c->capacity = capacity;
        }
    }
    char *copy = NULL;
    if (text) {
        copy = malloc(length + 1);
        if (!copy) {
            c->failed = 1;
            return;
        }
        memcpy(copy, text, length);
        copy[length] = 0;
    }
    c->events[c->head + c->count++] = (cwayland_event){kind, number, activated, copy, length};
}

int cwayland_next(cwayland_connection *c, cwayland_event *out) {
    free(c->taken);
    c->taken = NULL;
    if (c->count == 0) return 0;
    *out = c->events[c->head++];
    c->count--;
    if (c->count == 0) c->head = 0;
    c->taken = (char *)out->text;
    return 1;
}

// The registry: every global noted (name, interface, version); nothing bound here.
static void registry_global(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version) {
    cwayland_connection *c = data;
    global *grown = realloc(c->globals, (c->global_count + 1) * sizeof *grown);
    char *copy = strdup(interface);
    if (!grown || !copy) {
        free(copy);
        if (grown) c->globals = grown;
        c->failed = 1;
        return;
    }
    c->globals = grown;
    c->globals[c->global_count++] = (global){name, version, copy};
}

static void registry_global_remove(void *data, struct wl_proxy *registry, uint32_t name) {
    cwayland_connection *c = data;
    for (size_t i = 0; i < c->global_count; i++) {
        if (c->globals[i].name == name) {
            free(c->globals[i].interface);
            c->globals[i] = c->globals[--c->global_count];
            return;
        }
    }
}

static const struct {
    void (*global)(void *, struct wl_proxy *, uint32_t, const char *, uint32_t);
    void (*global_remove)(void *, struct wl_proxy *, uint32_t);
} registry_listener = {registry_global, registry_global_remove};

static const global *find(cwayland_connection *c, const char *interface) {
    for (size_t i = 0; i < c->global_count; i++) {
        if (strcmp(c->globals[i].interface, interface) == 0) return &c->globals[i];
    }
    return NULL;
}

uint32_t cwayland_global_version(cwayland_connection *c, const char *name) {
    const global *g = find(c, name);
    return g ? g->version : 0;
}

static void *bind_global(cwayland_connection *c, const global *g, const struct wl_interface *interface, uint32_t highest) {
    uint32_t version = g->version < highest ? g->version : highest;
    return wl_proxy_marshal_flags(c->registry, REGISTRY_BIND, interface, version, 0, g->name, interface->name, version, NULL);
}

cwayland_connection *cwayland_connect(const char *name) {
    if (!cwayland_load()) return NULL;
    cwayland_connection *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->display = cwayland_api.display_connect(name);
    if (!c->display) {
        free(c);
        return NULL;
    }
    c->registry = wl_proxy_marshal_flags((struct wl_proxy *)c->display, DISPLAY_GET_REGISTRY, &registry_interface,
                                         wl_proxy_get_version((struct wl_proxy *)c->display), 0, NULL);
    if (!c->registry || wl_proxy_add_listener(c->registry, (void (**)(void)) & registry_listener, c) != 0 ||
        cwayland_api.display_roundtrip(c->display) < 0 || c->failed) {
        cwayland_disconnect(c);
        return NULL;
    }
    return c;
}

// A toplevel's events, queued; its title is never copied.
static void toplevel_title(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, const char *title) {}

static void toplevel_app_id(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, const char *app_id) {
    toplevel *t = data;
    push(t->connection, CWAYLAND_APP_ID, t->number, 0, app_id, strlen(app_id));
}

static void toplevel_output(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_output *output) {}

static void toplevel_state(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct wl_array *state) {
    toplevel *t = data;
    int activated = 0;
    const uint32_t *values = state->data;
    for (size_t i = 0; i < state->size / sizeof *values; i++) {
        if (values[i] == ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED) activated = 1;
    }
    push(t->connection, CWAYLAND_STATE, t->number, activated, NULL, 0);
}

static void toplevel_done(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle) {
    toplevel *t = data;
    push(t->connection, CWAYLAND_DONE, t->number, 0, NULL, 0);
}

static void toplevel_closed(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle) {
    toplevel *t = data;
    cwayland_connection *c = t->connection;
    push(c, CWAYLAND_CLOSED, t->number, 0, NULL, 0);
    for (toplevel **link = &c->toplevels; *link; link = &(*link)->next) {
        if (*link == t) {
            *link = t->next;
            break;
        }
    }
    zwlr_foreign_toplevel_handle_v1_destroy(handle);
    free(t);
}

static void toplevel_parent(void *data, struct zwlr_foreign_toplevel_handle_v1 *handle, struct zwlr_foreign_toplevel_handle_v1 *parent) {}

static const struct zwlr_foreign_toplevel_handle_v1_listener toplevel_listener = {
    .title = toplevel_title,
    .app_id = toplevel_app_id,
    .output_enter = toplevel_output,
    .output_leave = toplevel_output,
    .state = toplevel_state,
    .done = toplevel_done,
    .closed = toplevel_closed,
    .parent = toplevel_parent,
};

static void manager_toplevel(void *data, struct zwlr_foreign_toplevel_manager_v1 *manager, struct zwlr_foreign_toplevel_handle_v1 *handle) {
    cwayland_connection *c = data;
    toplevel *t = malloc(sizeof *t);
    if (!t) {
        c->failed = 1;
        return;
    }
    *t = (toplevel){c, handle, ++c->next_toplevel, c->toplevels};
    c->toplevels = t;
    zwlr_foreign_toplevel_handle_v1_add_listener(handle, &toplevel_listener, t);
    push(c, CWAYLAND_TOPLEVEL, t->number, 0, NULL, 0);
}

static void manager_finished(void *data, struct zwlr_foreign_toplevel_manager_v1 *manager) {
    cwayland_connection *c = data;
    push(c, CWAYLAND_FINISHED, 0, 0, NULL, 0);
    // The compositor destroyed its side; ours goes too (stop is not sent again).
    wl_proxy_destroy((struct wl_proxy *)manager);
    c->manager = NULL;
}

static const struct zwlr_foreign_toplevel_manager_v1_listener manager_listener = {
    .toplevel = manager_toplevel,
    .finished = manager_finished,
};

static void ext_idled(void *data, struct ext_idle_notification_v1 *notification) { push(data, CWAYLAND_IDLED, 0, 0, NULL, 0); }
static void ext_resumed(void *data, struct ext_idle_notification_v1 *notification) { push(data, CWAYLAND_RESUMED, 0, 0, NULL, 0); }
static const struct ext_idle_notification_v1_listener ext_listener = {.idled = ext_idled, .resumed = ext_resumed};

static void kde_idled(void *data, struct org_kde_kwin_idle_timeout *timeout) { push(data, CWAYLAND_IDLED, 0, 0, NULL, 0); }
static void kde_resumed(void *data, struct org_kde_kwin_idle_timeout *timeout) { push(data, CWAYLAND_RESUMED, 0, 0, NULL, 0); }
static const struct org_kde_kwin_idle_timeout_listener kde_listener = {.idle = kde_idled, .resumed = kde_resumed};

// Idle: ext-idle-notify-v1 (it honours idle inhibitors), else KDE's (sway 1.7 and KWin 5
// disable it while an inhibitor is active); either needs a seat.
static void bind_idle(cwayland_connection *c, uint32_t idle_ms) {
    const global *seat = find(c, cwayland_wl_seat_interface.name);
    const global *ext = find(c, ext_idle_notifier_v1_interface.name);
    const global *kde = find(c, org_kde_kwin_idle_interface.name);
    if (seat && (ext || kde)) c->seat = bind_global(c, seat, &cwayland_wl_seat_interface, 1);
    if (c->seat && ext) {
        c->ext_notifier = bind_global(c, ext, &ext_idle_notifier_v1_interface, 1);
        if (c->ext_notifier) c->ext_notification = ext_idle_notifier_v1_get_idle_notification(c->ext_notifier, idle_ms, (struct wl_seat *)c->seat);
        if (c->ext_notification) {
            ext_idle_notification_v1_add_listener(c->ext_notification, &ext_listener, c);
            c->idle_kind = CWAYLAND_IDLE_EXT;
        }
    } else if (c->seat && kde) {
        c->kde_idle = bind_global(c, kde, &org_kde_kwin_idle_interface, 1);
        if (c->kde_idle) c->kde_timeout = org_kde_kwin_idle_get_idle_timeout(c->kde_idle, (struct wl_seat *)c->seat, idle_ms);
        if (c->kde_timeout) {
            org_kde_kwin_idle_timeout_add_listener(c->kde_timeout, &kde_listener, c);
            c->idle_kind = CWAYLAND_IDLE_KDE;
        }
    }
}

int cwayland_start(cwayland_connection *c, uint32_t idle_ms) {
    const global *manager = find(c, zwlr_foreign_toplevel_manager_v1_interface.name);
    if (!manager) return 0;
    c->manager = bind_global(c, manager, &zwlr_foreign_toplevel_manager_v1_interface, 3);
    if (!c->manager) return 0;
    zwlr_foreign_toplevel_manager_v1_add_listener(c->manager, &manager_listener, c);
    bind_idle(c, idle_ms);
    // The first roundtrip binds (the manager then announces every toplevel), the second reads
    // each toplevel's first state.
    if (cwayland_roundtrip(c) < 0 || cwayland_roundtrip(c) < 0) return 0;
    return 1;
}

int cwayland_start_idle(cwayland_connection *c, uint32_t idle_ms) {
    bind_idle(c, idle_ms);
    if (cwayland_roundtrip(c) < 0) return -1;
    return c->idle_kind;
}

int cwayland_idle_kind(cwayland_connection *c) { return c->idle_kind; }
int cwayland_fd(cwayland_connection *c) { return cwayland_api.display_get_fd(c->display); }
void cwayland_flush(cwayland_connection *c) { cwayland_api.display_flush(c->display); }

static int status(cwayland_connection *c, int result) {
    return result < 0 || c->failed || cwayland_api.display_get_error(c->display) != 0 ? -1 : 0;
}

int cwayland_dispatch_pending(cwayland_connection *c) { return status(c, cwayland_api.display_dispatch_pending(c->display)); }

int cwayland_read(cwayland_connection *c) {
    // Whatever is queued already is dispatched first: prepare_read refuses while it is there.
    while (cwayland_api.display_prepare_read(c->display) != 0) {
        if (cwayland_api.display_dispatch_pending(c->display) < 0) return -1;
    }
    if (cwayland_api.display_read_events(c->display) < 0) return -1;
    return cwayland_dispatch_pending(c);
}

int cwayland_roundtrip(cwayland_connection *c) { return status(c, cwayland_api.display_roundtrip(c->display)); }

void cwayland_disconnect(cwayland_connection *c) {
    if (!c) return;
    // The proxies are freed on our side (no request: disconnecting makes the compositor drop
    // its objects), then the connection.
    while (c->toplevels) {
        toplevel *t = c->toplevels;
        c->toplevels = t->next;
        wl_proxy_destroy((struct wl_proxy *)t->handle);
        free(t);
    }
    struct wl_proxy *proxies[] = {(struct wl_proxy *)c->manager,        (struct wl_proxy *)c->ext_notification, (struct wl_proxy *)c->ext_notifier,
                                  (struct wl_proxy *)c->kde_timeout,    (struct wl_proxy *)c->kde_idle,         c->seat,
                                  c->registry};
    for (size_t i = 0; i < sizeof proxies / sizeof *proxies; i++) {
        if (proxies[i]) wl_proxy_destroy(proxies[i]);
    }
    cwayland_api.display_disconnect(c->display);
    for (size_t i = 0; i < c->global_count; i++) free(c->globals[i].interface);
    free(c->globals);
    for (size_t i = 0; i < c->count; i++) free((char *)c->events[c->head + i].text);
    free(c->events);
    free(c->taken);
    free(c);
}
