// cwayland.h — the Wayland client the wlroots backend needs (and the KDE backend's idle), on a libwayland-client loaded at run time (dlopen "libwayland-client.so.0") so nothing links it and the program starts without it: the compositor's globals, the foreign toplevels' app ids and states, idle from ext-idle-notify-v1 or org_kde_kwin_idle, as a queue of plain events Swift reads; never a window's title.
#ifndef CWAYLAND_H
#define CWAYLAND_H

#include <stddef.h>
#include <stdint.h>

/// A connection to a compositor, with the globals it announced and what the recorder bound.
typedef struct cwayland_connection cwayland_connection;

/// Loads libwayland-client (once): 1 when it is there, else 0 and `cwayland_load_error` says why.
int cwayland_load(void);
const char *cwayland_load_error(void);

/// Connects to `name` (a WAYLAND_DISPLAY value: a socket name under XDG_RUNTIME_DIR, or a path)
/// and reads the globals it announces; NULL when it cannot.
cwayland_connection *cwayland_connect(const char *name);
void cwayland_disconnect(cwayland_connection *c);

/// The version the compositor announced of a global interface (`name`), or 0 when it has none.
uint32_t cwayland_global_version(cwayland_connection *c, const char *name);

/// What idle is read with once `cwayland_start` ran.
#define CWAYLAND_IDLE_NONE 0
#define CWAYLAND_IDLE_EXT 1
#define CWAYLAND_IDLE_KDE 2

/// Binds the toplevel manager (and a seat, and an idle notification after `idle_ms` of no
/// input when the compositor has one); reads what they say first (every toplevel's state).
/// 1 when the manager was bound, 0 when the compositor has none or the connection failed.
int cwayland_start(cwayland_connection *c, uint32_t idle_ms);
/// Binds a seat and an idle notification after `idle_ms` only (a backend that reads focus
/// another way: KDE's); the CWAYLAND_IDLE_… it bound, or -1 when the connection failed.
int cwayland_start_idle(cwayland_connection *c, uint32_t idle_ms);
/// CWAYLAND_IDLE_…: the idle protocol `cwayland_start` (or `cwayland_start_idle`) bound.
int cwayland_idle_kind(cwayland_connection *c);

/// The connection's file descriptor, for poll().
int cwayland_fd(cwayland_connection *c);
/// Sends what was asked (before a wait).
void cwayland_flush(cwayland_connection *c);
/// Reads what is ready on the descriptor and dispatches it into the queue (prepare_read,
/// read_events, dispatch_pending); 0, or -1 when the connection is lost (the compositor ended,
/// or a protocol error).
int cwayland_read(cwayland_connection *c);
/// Dispatches what libwayland already holds into the queue (before a wait); 0 or -1 as above.
int cwayland_dispatch_pending(cwayland_connection *c);
/// Waits for the compositor to answer everything sent so far, dispatching what comes; 0 or -1.
int cwayland_roundtrip(cwayland_connection *c);

/// What the compositor said, in order.
#define CWAYLAND_TOPLEVEL 1   /* a new toplevel: `toplevel` is its number from now on */
#define CWAYLAND_APP_ID 2     /* its app id: `text`, `length` bytes (any bytes: not checked as UTF-8) */
#define CWAYLAND_STATE 3      /* its states: `activated` is 1 when the activated state is among them */
#define CWAYLAND_DONE 4       /* the events since the last done on this toplevel apply together */
#define CWAYLAND_CLOSED 5     /* the toplevel is gone */
#define CWAYLAND_IDLED 6      /* no input for the idle time (inhibitors honoured) */
#define CWAYLAND_RESUMED 7    /* input again */
#define CWAYLAND_FINISHED 8   /* the compositor stopped sending toplevels */

typedef struct {
    int kind;
    uint32_t toplevel;
    int activated;
    const char *text;
    size_t length;
} cwayland_event;

/// Takes the oldest queued event into `out` (its text is valid until the next call): 1, or 0
/// when the queue is empty.
int cwayland_next(cwayland_connection *c, cwayland_event *out);

#endif
