// cx11.c — finds libX11, libXss and libXext (XSync) with dlopen on first use and resolves the functions the recorder's X11 backend calls (layouts as in the X headers, LP64).
#include "cx11.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The X types used, without the headers: Display and Window are opaque, an XEvent is 24 longs
// (XPropertyEvent: window at offset 32, atom at 40), XClassHint two pointers,
// XScreenSaverInfo 40 bytes with `idle` (ms) at 24. Format-32 property items are C longs.
// XSync: a value is {int hi; unsigned lo}; XSyncSystemCounter 24 bytes (name, counter at 8);
// XSyncAlarmAttributes 40 bytes (trigger: counter 0, value_type 8, wait_value 12, test_type 20;
// delta 24, events 32, state 36); XSyncAlarmNotifyEvent: alarm at 32, counter_value at 40.
typedef unsigned long XID;
typedef struct { long pad[24]; } xevent;
typedef struct { char *res_name; char *res_class; } xclasshint;
typedef struct { XID window; int state; int kind; unsigned long til_or_since; unsigned long idle; unsigned long event_mask; } xssinfo;
typedef struct { int hi; unsigned int lo; } xsyncvalue;
typedef struct { char *name; XID counter; xsyncvalue resolution; } xsyncsystemcounter;
typedef struct {
    XID counter;
    int value_type;
    xsyncvalue wait_value;
    int test_type;
    xsyncvalue delta;
    int events;
    int state;
} xsyncalarmattributes;

#define PropertyChangeMask (1L << 22)
#define PropertyNotify 28
#define XA_WINDOW 33
#define XA_CARDINAL 6
#define XA_STRING 31
#define AnyPropertyType 0L
#define XSyncAlarmNotify 1
#define XSyncAbsolute 0
#define XSyncPositiveTransition 0
#define XSyncNegativeTransition 1
#define XSyncCACounter (1L << 0)
#define XSyncCAValueType (1L << 1)
#define XSyncCAValue (1L << 2)
#define XSyncCATestType (1L << 3)
#define XSyncCADelta (1L << 4)
#define XSyncCAEvents (1L << 5)

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
    int (*flush)(void *);
    int (*syncQueryExtension)(void *, int *, int *);
    int (*syncInitialize)(void *, int *, int *);
    xsyncsystemcounter *(*syncListSystemCounters)(void *, int *);
    void (*syncFreeSystemCounterList)(xsyncsystemcounter *);
    XID (*syncCreateAlarm)(void *, unsigned long, xsyncalarmattributes *);
    int (*syncChangeAlarm)(void *, XID, unsigned long, xsyncalarmattributes *);
    int (*syncQueryCounter)(void *, XID, xsyncvalue *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded, xss_loaded, xext_loaded;
static char load_error[512];
static void (*lost_handler)(void);

struct cx11_display {
    void *dpy;
    XID root;
    XID net_active_window, net_wm_pid, net_supporting_wm_check;
    int has_saver;
    // XSync: its first event number, the IDLETIME counter and the two alarms (0: none).
    int sync_event_base;
    XID idle_counter, idle_alarm, input_alarm;
    long alarm_value;
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
    FIND(x11, "libX11.so.6", flush, "XFlush");
    loaded = 1;
    // Either idle library may be missing: each only disables its own way to idle.
    void *xext = dlopen("libXext.so.6", RTLD_NOW | RTLD_LOCAL);
    if (xext) {
        xext_loaded = 1;
#define FIND_OPTIONAL(library, field, symbol, flag) \
    if (!(*(void **)&api.field = dlsym(library, symbol))) flag = 0;
        FIND_OPTIONAL(xext, syncQueryExtension, "XSyncQueryExtension", xext_loaded);
        FIND_OPTIONAL(xext, syncInitialize, "XSyncInitialize", xext_loaded);
        FIND_OPTIONAL(xext, syncListSystemCounters, "XSyncListSystemCounters", xext_loaded);
        FIND_OPTIONAL(xext, syncFreeSystemCounterList, "XSyncFreeSystemCounterList", xext_loaded);
        FIND_OPTIONAL(xext, syncCreateAlarm, "XSyncCreateAlarm", xext_loaded);
        FIND_OPTIONAL(xext, syncChangeAlarm, "XSyncChangeAlarm", xext_loaded);
        FIND_OPTIONAL(xext, syncQueryCounter, "XSyncQueryCounter", xext_loaded);
#undef FIND_OPTIONAL
    }
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
    int major, minor;
    if (xext_loaded && api.syncQueryExtension(dpy, &event_base, &error_base) && api.syncInitialize(dpy, &major, &minor)) {
        d->sync_event_base = event_base;
        int n = 0;
        xsyncsystemcounter *counters = api.syncListSystemCounters(dpy, &n);
        for (int i = 0; counters && i < n; i++)
            if (counters[i].name && strcmp(counters[i].name, "IDLETIME") == 0) d->idle_counter = counters[i].counter;
        if (counters) api.syncFreeSystemCounterList(counters);
    }
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
    int seen = 0;
    xevent event;
    while (api.pending(d->dpy) > 0) {
        api.nextEvent(d->dpy, &event);
        int type = *(int *)&event;
        XID window = ((XID *)&event)[4];
        XID atom = ((XID *)&event)[5];
        if (type == PropertyNotify && window == d->root && atom == d->net_active_window) seen |= CX11_FOCUS;
        if (d->idle_alarm && type == d->sync_event_base + XSyncAlarmNotify) {
            // XSyncAlarmNotifyEvent: the alarm at offset 32 (as a PropertyNotify's window), the counter's value at 40.
            xsyncvalue value;
            memcpy(&value, (char *)&event + 40, sizeof value);
            if (window == d->idle_alarm) {
                seen |= CX11_IDLE_ALARM;
                d->alarm_value = (long)(((unsigned long)(unsigned int)value.hi << 32) | value.lo);
            }
            if (window == d->input_alarm) seen |= CX11_INPUT_ALARM;
        }
    }
    return seen;
}

int cx11_has_idle_counter(cx11_display *d) { return d->idle_counter != 0; }

long cx11_idle_counter_ms(cx11_display *d) {
    xsyncvalue value;
    if (!d->idle_counter || !api.syncQueryCounter(d->dpy, d->idle_counter, &value)) return -1;
    return (long)(((unsigned long)(unsigned int)value.hi << 32) | value.lo);
}

static xsyncvalue sync_value(long v) {
    xsyncvalue value = {(int)(v >> 32), (unsigned int)(v & 0xffffffffL)};
    return value;
}

int cx11_idle_alarms(cx11_display *d, long threshold_ms) {
    if (!d->idle_counter || threshold_ms < 2) return 0;
    xsyncalarmattributes a;
    memset(&a, 0, sizeof a);
    unsigned long mask = XSyncCACounter | XSyncCAValueType | XSyncCAValue | XSyncCATestType | XSyncCADelta | XSyncCAEvents;
    a.counter = d->idle_counter;
    a.value_type = XSyncAbsolute;
    a.delta = sync_value(0);
    // Idle: the counter (ms since the last input) rises through the threshold.
    a.test_type = XSyncPositiveTransition;
    a.wait_value = sync_value(threshold_ms);
    a.events = 1;
    d->idle_alarm = api.syncCreateAlarm(d->dpy, mask, &a);
    // Input: the counter falls below 1 ms (it is reset to 0); its events are on only while idle.
    a.test_type = XSyncNegativeTransition;
    a.wait_value = sync_value(1);
    a.events = 0;
    d->input_alarm = api.syncCreateAlarm(d->dpy, mask, &a);
    api.flush(d->dpy);
    return d->idle_alarm && d->input_alarm;
}

void cx11_input_alarm(cx11_display *d, int on) {
    if (!d->input_alarm) return;
    xsyncalarmattributes a;
    memset(&a, 0, sizeof a);
    a.events = on;
    api.syncChangeAlarm(d->dpy, d->input_alarm, XSyncCAEvents, &a);
    api.flush(d->dpy);
}

long cx11_alarm_value(cx11_display *d) { return d->alarm_value; }

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
