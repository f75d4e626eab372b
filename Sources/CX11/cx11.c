// cx11.c — finds libX11 and libXss with dlopen on first use and resolves the functions the recorder's X11 backend calls (layouts as in the X headers, LP64).
#include "cx11.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The X types used, without the headers: Display and Window are opaque, an XEvent is 24 longs
// (XPropertyEvent: window at offset 32, atom at 40), XClassHint two pointers,
// XScreenSaverInfo 40 bytes with `idle` (ms) at 24. Format-32 property items are C longs.
typedef unsigned long XID;
typedef struct { long pad[24]; } xevent;
typedef struct { char *res_name; char *res_class; } xclasshint;
typedef struct { XID window; int state; int kind; unsigned long til_or_since; unsigned long idle; unsigned long event_mask; } xssinfo;

#define PropertyChangeMask (1L << 22)
#define PropertyNotify 28
#define XA_WINDOW 33
#define XA_CARDINAL 6
#define XA_STRING 31
#define AnyPropertyType 0L

static struct {
    void *(*openDisplay)(const char *);
    int (*closeDisplay)(void *);
    int (*connectionNumber)(void *);
    XID (*defaultRootWindow)(void *);
    XID (*internAtom)(void *, const char *, int);
    int (*selectInput)(void *, XID, long);
    int (*pending)(void *);
    int (*nextEvent)(void *, xevent *);
    int (*getWindowProperty)(void *, XID, XID, long, long, int, XID, XID *, int *, unsigned long *, unsigned long *, unsigned char **);
    int (*getClassHint)(void *, XID, xclasshint *);
    int (*xfree)(void *);
    void *(*setErrorHandler)(int (*)(void *, void *));
    void *(*setIOErrorHandler)(int (*)(void *));
    int (*ssQueryExtension)(void *, int *, int *);
    int (*ssQueryInfo)(void *, XID, xssinfo *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded, xss_loaded;
static char load_error[512];
static void (*lost_handler)(void);

struct cx11_display {
    void *dpy;
    XID root;
    XID net_active_window, net_wm_pid, net_supporting_wm_check;
    int has_saver;
};

static void load(void) {
    void *x11 = dlopen("libX11.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!x11) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
#define FIND(library, name, field, symbol)                                                   \
    if (!(*(void **)&api.field = dlsym(library, symbol))) {                                  \
        snprintf(load_error, sizeof load_error, "%s has no %s", name, symbol);               \
        return;                                                                              \
    }
    FIND(x11, "libX11.so.6", openDisplay, "XOpenDisplay");
    FIND(x11, "libX11.so.6", closeDisplay, "XCloseDisplay");
    FIND(x11, "libX11.so.6", connectionNumber, "XConnectionNumber");
    FIND(x11, "libX11.so.6", defaultRootWindow, "XDefaultRootWindow");
    FIND(x11, "libX11.so.6", internAtom, "XInternAtom");
    FIND(x11, "libX11.so.6", selectInput, "XSelectInput");
    FIND(x11, "libX11.so.6", pending, "XPending");
    FIND(x11, "libX11.so.6", nextEvent, "XNextEvent");
    FIND(x11, "libX11.so.6", getWindowProperty, "XGetWindowProperty");
    FIND(x11, "libX11.so.6", getClassHint, "XGetClassHint");
    FIND(x11, "libX11.so.6", xfree, "XFree");
    FIND(x11, "libX11.so.6", setErrorHandler, "XSetErrorHandler");
    FIND(x11, "libX11.so.6", setIOErrorHandler, "XSetIOErrorHandler");
    loaded = 1;
    void *xss = dlopen("libXss.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!xss) return;
    FIND(xss, "libXss.so.1", ssQueryExtension, "XScreenSaverQueryExtension");
    FIND(xss, "libXss.so.1", ssQueryInfo, "XScreenSaverQueryInfo");
#undef FIND
    xss_loaded = 1;
}

int cx11_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cx11_load_error(void) { return load_error; }
int cx11_has_xss_library(void) { return xss_loaded; }

// A request about a window that is gone (BadWindow) is no reason to stop.
static int ignore_error(void *display, void *event) { return 0; }

static int connection_lost(void *display) {
    if (lost_handler) lost_handler();
    return 0;  // Xlib exits after this returns
}

cx11_display *cx11_open(const char *name, void (*on_lost)(void)) {
    if (!cx11_load()) return NULL;
    void *dpy = api.openDisplay(name);
    if (!dpy) return NULL;
    lost_handler = on_lost;
    api.setErrorHandler(ignore_error);
    api.setIOErrorHandler(connection_lost);
    cx11_display *d = calloc(1, sizeof *d);
    d->dpy = dpy;
    d->root = api.defaultRootWindow(dpy);
    d->net_active_window = api.internAtom(dpy, "_NET_ACTIVE_WINDOW", 0);
    d->net_wm_pid = api.internAtom(dpy, "_NET_WM_PID", 0);
    d->net_supporting_wm_check = api.internAtom(dpy, "_NET_SUPPORTING_WM_CHECK", 0);
    int event_base, error_base;
    d->has_saver = xss_loaded && api.ssQueryExtension(dpy, &event_base, &error_base);
    return d;
}

void cx11_close(cx11_display *d) {
    if (!d) return;
    api.closeDisplay(d->dpy);
    free(d);
}

int cx11_fd(cx11_display *d) { return api.connectionNumber(d->dpy); }

// The first item of a format-32 property of `type` (a C long each on LP64), or 0.
static unsigned long first_long(cx11_display *d, XID window, XID property, XID type, int *found) {
    XID actual_type = 0;
    int actual_format = 0;
    unsigned long items = 0, after = 0;
    unsigned char *data = NULL;
    unsigned long value = 0;
    *found = 0;
    if (api.getWindowProperty(d->dpy, window, property, 0, 1, 0, type, &actual_type, &actual_format, &items, &after, &data) == 0) {
        if (data && items >= 1 && actual_format == 32) {
            value = *(unsigned long *)data;
            *found = 1;
        }
        if (data) api.xfree(data);
    }
    return value;
}

int cx11_has_ewmh(cx11_display *d) {
    int found;
    return first_long(d, d->root, d->net_supporting_wm_check, XA_WINDOW, &found) != 0;
}

void cx11_watch_root(cx11_display *d) { api.selectInput(d->dpy, d->root, PropertyChangeMask); }

int cx11_drain(cx11_display *d) {
    int changed = 0;
    xevent event;
    while (api.pending(d->dpy) > 0) {
        api.nextEvent(d->dpy, &event);
        int type = *(int *)&event;
        XID window = ((XID *)&event)[4];
        XID atom = ((XID *)&event)[5];
        if (type == PropertyNotify && window == d->root && atom == d->net_active_window) changed = 1;
    }
    return changed;
}

unsigned long cx11_active_window(cx11_display *d) {
    int found;
    return first_long(d, d->root, d->net_active_window, XA_WINDOW, &found);
}

int cx11_window_class(cx11_display *d, unsigned long window, char *buffer, int capacity) {
    xclasshint hint = {NULL, NULL};
    if (!window || !api.getClassHint(d->dpy, window, &hint)) return -1;
    const char *name = hint.res_class && hint.res_class[0] ? hint.res_class : hint.res_name;
    int length = -1;
    if (name && name[0]) {
        size_t n = strlen(name);
        length = (int)(n < (size_t)capacity ? n : (size_t)capacity);
        memcpy(buffer, name, (size_t)length);
    }
    if (hint.res_name) api.xfree(hint.res_name);
    if (hint.res_class) api.xfree(hint.res_class);
    return length;
}

long cx11_window_pid(cx11_display *d, unsigned long window) {
    int found;
    if (!window) return -1;
    unsigned long pid = first_long(d, window, d->net_wm_pid, XA_CARDINAL, &found);
    return found ? (long)pid : -1;
}

long cx11_idle_ms(cx11_display *d) {
    if (!d->has_saver) return -1;
    xssinfo info;
    memset(&info, 0, sizeof info);
    if (!api.ssQueryInfo(d->dpy, d->root, &info)) return -1;
    return (long)info.idle;
}

int cx11_root_string(cx11_display *d, const char *name, char *buffer, int capacity) {
    XID atom = api.internAtom(d->dpy, name, 1);
    if (!atom) return -1;
    XID actual_type = 0;
    int actual_format = 0;
    unsigned long items = 0, after = 0;
    unsigned char *data = NULL;
    int length = -1;
    if (api.getWindowProperty(d->dpy, d->root, atom, 0, 1024, 0, AnyPropertyType, &actual_type, &actual_format, &items, &after, &data) == 0) {
        if (data && actual_format == 8) {
            length = (int)(items < (unsigned long)capacity ? items : (unsigned long)capacity);
            memcpy(buffer, data, (size_t)length);
        }
        if (data) api.xfree(data);
    }
    return length;
}
