// cx11.h — the part of Xlib, libXss and libXext's XSync the recorder uses, loaded at run time (dlopen "libX11.so.6", "libXss.so.1", "libXext.so.6") so nothing links them and the program starts on a machine without X; plain wrappers Swift can call.
#ifndef CX11_H
#define CX11_H

#include <stddef.h>

/// An open display with its root window and the atoms the recorder reads.
typedef struct cx11_display cx11_display;

/// Loads libX11 (once): 1 when it is there, else 0 and `cx11_load_error` says why.
int cx11_load(void);
const char *cx11_load_error(void);
/// Whether libXss (MIT-SCREEN-SAVER's client) was loaded as well.
int cx11_has_xss_library(void);

/// Opens `name` (NULL: $DISPLAY); NULL when it cannot. Errors of requests (a window gone
/// between two calls) are ignored from then on; a lost connection calls `on_lost` and exits.
cx11_display *cx11_open(const char *name, void (*on_lost)(void));
void cx11_close(cx11_display *d);
/// The connection's file descriptor, for poll().
int cx11_fd(cx11_display *d);
/// Whether an EWMH window manager runs (_NET_SUPPORTING_WM_CHECK set on the root window).
int cx11_has_ewmh(cx11_display *d);
/// Asks for PropertyNotify on the root window.
void cx11_watch_root(cx11_display *d);
/// What `cx11_drain` saw: _NET_ACTIVE_WINDOW changed, the idle alarm fired, the input alarm fired.
#define CX11_FOCUS 1
#define CX11_IDLE_ALARM 2
#define CX11_INPUT_ALARM 4
/// Reads every queued event without blocking: the CX11_ bits of what happened among them.
int cx11_drain(cx11_display *d);
/// Whether the server has XSync's IDLETIME counter (and libXext was found).
int cx11_has_idle_counter(cx11_display *d);
/// IDLETIME: milliseconds since the last input, or -1 without it.
long cx11_idle_counter_ms(cx11_display *d);
/// Two alarms on IDLETIME: one as it rises through `threshold_ms` (CX11_IDLE_ALARM), one as
/// input resets it (CX11_INPUT_ALARM, told only while switched on); 1 when both were made.
int cx11_idle_alarms(cx11_display *d, long threshold_ms);
/// Switches the input alarm's events on (while idle) or off (while active: every key would wake).
void cx11_input_alarm(cx11_display *d, int on);
/// IDLETIME's value when the idle alarm last fired (ms).
long cx11_alarm_value(cx11_display *d);
/// _NET_ACTIVE_WINDOW (0: none).
unsigned long cx11_active_window(cx11_display *d);
/// The window's WM_CLASS class (else its instance name) copied into `buffer` (at most
/// `capacity` bytes, not terminated); returns its length, or -1 when it has none.
int cx11_window_class(cx11_display *d, unsigned long window, char *buffer, int capacity);
/// _NET_WM_PID of the window, or -1.
long cx11_window_pid(cx11_display *d, unsigned long window);
/// Milliseconds since the last input (MIT-SCREEN-SAVER), or -1 without the extension.
long cx11_idle_ms(cx11_display *d);
/// A STRING property of the root window (I3_SOCKET_PATH) into `buffer`; its length, or -1.
int cx11_root_string(cx11_display *d, const char *atom, char *buffer, int capacity);

#endif
