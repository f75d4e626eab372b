// cdbus.h — the part of sd-bus (libsystemd's D-Bus client) the recorder uses, loaded at run time (dlopen "libsystemd.so.0") so nothing links it and the program starts on a machine without it; plain wrappers Swift can call, each returning sd-bus's own result (a negative errno on failure).
#ifndef CDBUS_H
#define CDBUS_H

#include <stddef.h>
#include <stdint.h>

/// sd-bus's objects, opaque here.
typedef struct cdbus_bus cdbus_bus;
typedef struct cdbus_message cdbus_message;
typedef struct cdbus_slot cdbus_slot;

/// sd_bus_error's layout: an error's D-Bus name and its text (both NULL when unset).
typedef struct {
    const char *name;
    const char *message;
    int need_free;
} cdbus_error;

/// sd_bus_message_handler_t: 0 (not handled here), 1 (handled), or a negative errno.
typedef int (*cdbus_handler)(cdbus_message *m, void *userdata, cdbus_error *ret_error);

/// Loads libsystemd (once; else libelogind or libbasu, the same sd-bus on systems without
/// systemd): 1 when it is there with every function used, else 0 and `cdbus_load_error` says why.
int cdbus_load(void);
const char *cdbus_load_error(void);

/// The user's session bus (DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus) and the system
/// bus (DBUS_SYSTEM_BUS_ADDRESS, else /run/dbus/system_bus_socket).
int cdbus_open_user(cdbus_bus **ret);
int cdbus_open_system(cdbus_bus **ret);
/// A bus at `address` (as dbus-daemon prints it), as a client (Hello sent).
int cdbus_open_address(const char *address, cdbus_bus **ret);
/// Flushes what is queued and closes; NULL is fine.
void cdbus_close(cdbus_bus *bus);

int cdbus_get_fd(cdbus_bus *bus);
/// The poll() events it waits for now (POLLIN, and POLLOUT while it has more to write).
int cdbus_get_events(cdbus_bus *bus);
/// When (CLOCK_MONOTONIC, µs) it wants to be processed again (a call's timeout): 1 and
/// `*usec` set, or 0 for never (UINT64_MAX).
int cdbus_get_timeout(cdbus_bus *bus, uint64_t *usec);
/// Handles one thing pending (a message read, a callback run): > 0 when it did, 0 when
/// nothing was left. `*unhandled` takes a message no callback handled; with NULL, sd-bus
/// answers a method call no object handled itself (UnknownObject, UnknownMethod).
int cdbus_process(cdbus_bus *bus, cdbus_message **unhandled);
int cdbus_flush(cdbus_bus *bus);
int cdbus_get_unique_name(cdbus_bus *bus, const char **name);
/// sd_bus_request_name's flags: 0 (fail when another owns it).
int cdbus_request_name(cdbus_bus *bus, const char *name, uint64_t flags);

int cdbus_new_method_call(cdbus_bus *bus, cdbus_message **m, const char *destination, const char *path, const char *interface, const char *member);
/// A method call's reply, and an error reply (`name`, `text`).
int cdbus_new_method_return(cdbus_message *call, cdbus_message **m);
int cdbus_new_method_error(cdbus_message *call, cdbus_message **m, const char *name, const char *text);
/// Sends `m` (no reply awaited).
int cdbus_send(cdbus_bus *bus, cdbus_message *m);
/// Sends `m` and waits up to `usec` (0: sd-bus's 25 s) for its reply; an error reply fills
/// `error` (free it with cdbus_error_free) and returns a negative errno.
int cdbus_call(cdbus_bus *bus, cdbus_message *m, uint64_t usec, cdbus_error *error, cdbus_message **reply);
/// Sends `m`; `callback` gets the reply (or the error reply, or a timeout's) in cdbus_process.
int cdbus_call_async(cdbus_bus *bus, cdbus_slot **slot, cdbus_message *m, cdbus_handler callback, void *userdata, uint64_t usec);
void cdbus_error_free(cdbus_error *error);
/// The error a reply message carries (NULL: it is no error).
const cdbus_error *cdbus_message_error(cdbus_message *m);
void cdbus_message_unref(cdbus_message *m);

/// Calls `callback` for every message matching `rule` (a D-Bus match rule), in cdbus_process.
int cdbus_add_match(cdbus_bus *bus, cdbus_slot **slot, const char *rule, cdbus_handler callback, void *userdata);
/// Calls `callback` for every method call to the object `path`, in cdbus_process.
int cdbus_add_object(cdbus_bus *bus, cdbus_slot **slot, const char *path, cdbus_handler callback, void *userdata);
void cdbus_slot_unref(cdbus_slot *slot);

/// A message's header fields (NULL when absent).
const char *cdbus_message_sender(cdbus_message *m);
const char *cdbus_message_path(cdbus_message *m);
const char *cdbus_message_interface(cdbus_message *m);
const char *cdbus_message_member(cdbus_message *m);

/// Writing a message's body: a basic value (`type` one of ybnqiuxtdsog; `value` points at it —
/// an int for b — or, for s, o and g, is the text itself), and containers (`type` a, v, r or e;
/// `contents` the signature inside).
int cdbus_append_basic(cdbus_message *m, char type, const void *value);
int cdbus_open_container(cdbus_message *m, char type, const char *contents);
int cdbus_close_container(cdbus_message *m);

/// Reading it: the next value's type and, for a container, the signature inside (> 0), or 0 at
/// the end of the current container.
int cdbus_peek_type(cdbus_message *m, char *type, const char **contents);
/// `value` points at the type's C value (an int for b, a const char * for s, o and g: the text
/// stays the message's).
int cdbus_read_basic(cdbus_message *m, char type, void *value);
int cdbus_enter_container(cdbus_message *m, char type, const char *contents);
int cdbus_exit_container(cdbus_message *m);
/// Skips values of signature `types` (NULL: the next one).
int cdbus_skip(cdbus_message *m, const char *types);

#endif
