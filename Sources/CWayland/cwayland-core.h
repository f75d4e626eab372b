// cwayland-core.h — what the wayland-scanner glue (generated/, by scripts/gen-wayland) takes from wayland-client.h and wayland-util.h, without them: the types of libwayland-client's ABI, and its functions as calls through the pointers cwayland.c finds with dlsym (nothing links libwayland-client).
#ifndef CWAYLAND_CORE_H
#define CWAYLAND_CORE_H

#include <stddef.h>
#include <stdint.h>

// As in wayland-util.h and wayland-client-core.h (1.20 and later: wl_proxy_marshal_flags);
// these layouts are libwayland's stable ABI. (The scanner's code defines WL_PRIVATE itself.)
#define WL_MARSHAL_FLAG_DESTROY (1 << 0)

struct wl_proxy;
struct wl_display;
struct wl_interface;

struct wl_message {
    const char *name;
    const char *signature;
    const struct wl_interface **types;
};

struct wl_interface {
    const char *name;
    int version;
    int method_count;
    const struct wl_message *methods;
    int event_count;
    const struct wl_message *events;
};

struct wl_array {
    size_t size;
    size_t alloc;
    void *data;
};

typedef int32_t wl_fixed_t;

/// libwayland-client's functions the glue and cwayland.c call, found by cwayland_load.
struct cwayland_api {
    struct wl_proxy *(*proxy_marshal_flags)(struct wl_proxy *proxy, uint32_t opcode, const struct wl_interface *interface, uint32_t version,
                                            uint32_t flags, ...);
    int (*proxy_add_listener)(struct wl_proxy *proxy, void (**implementation)(void), void *data);
    void (*proxy_set_user_data)(struct wl_proxy *proxy, void *user_data);
    void *(*proxy_get_user_data)(struct wl_proxy *proxy);
    uint32_t (*proxy_get_version)(struct wl_proxy *proxy);
    void (*proxy_destroy)(struct wl_proxy *proxy);
    struct wl_display *(*display_connect)(const char *name);
    void (*display_disconnect)(struct wl_display *display);
    int (*display_get_fd)(struct wl_display *display);
    int (*display_prepare_read)(struct wl_display *display);
    int (*display_read_events)(struct wl_display *display);
    int (*display_dispatch_pending)(struct wl_display *display);
    int (*display_flush)(struct wl_display *display);
    int (*display_roundtrip)(struct wl_display *display);
    int (*display_get_error)(struct wl_display *display);
};

extern struct cwayland_api cwayland_api;

#define wl_proxy_marshal_flags (*cwayland_api.proxy_marshal_flags)
#define wl_proxy_add_listener (*cwayland_api.proxy_add_listener)
#define wl_proxy_set_user_data (*cwayland_api.proxy_set_user_data)
#define wl_proxy_get_user_data (*cwayland_api.proxy_get_user_data)
#define wl_proxy_get_version (*cwayland_api.proxy_get_version)
#define wl_proxy_destroy (*cwayland_api.proxy_destroy)

#endif
