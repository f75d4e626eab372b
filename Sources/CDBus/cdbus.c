// cdbus.c — finds libsystemd (else libelogind or libbasu, which carry the same sd-bus) with dlopen on first use and resolves the sd-bus functions the recorder's D-Bus layer calls (types as in sd-bus.h, which is not needed to build).
#include "cdbus.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
    int (*open_user)(cdbus_bus **);
    int (*open_system)(cdbus_bus **);
    int (*bus_new)(cdbus_bus **);
    int (*set_address)(cdbus_bus *, const char *);
    int (*set_bus_client)(cdbus_bus *, int);
    int (*start)(cdbus_bus *);
    cdbus_bus *(*flush_close_unref)(cdbus_bus *);
    cdbus_bus *(*bus_unref)(cdbus_bus *);
    int (*get_fd)(cdbus_bus *);
    int (*get_events)(cdbus_bus *);
    int (*get_timeout)(cdbus_bus *, uint64_t *);
    int (*process)(cdbus_bus *, cdbus_message **);
    int (*flush)(cdbus_bus *);
    int (*get_unique_name)(cdbus_bus *, const char **);
    int (*request_name)(cdbus_bus *, const char *, uint64_t);
    int (*new_method_call)(cdbus_bus *, cdbus_message **, const char *, const char *, const char *, const char *);
    int (*new_method_return)(cdbus_message *, cdbus_message **);
    int (*new_method_error)(cdbus_message *, cdbus_message **, const cdbus_error *);
    int (*send)(cdbus_bus *, cdbus_message *, uint64_t *);
    int (*call)(cdbus_bus *, cdbus_message *, uint64_t, cdbus_error *, cdbus_message **);
    int (*call_async)(cdbus_bus *, cdbus_slot **, cdbus_message *, cdbus_handler, void *, uint64_t);
    void (*error_free)(cdbus_error *);
    const cdbus_error *(*message_get_error)(cdbus_message *);
    cdbus_message *(*message_unref)(cdbus_message *);
    int (*add_match)(cdbus_bus *, cdbus_slot **, const char *, cdbus_handler, void *);
    int (*add_object)(cdbus_bus *, cdbus_slot **, const char *, cdbus_handler, void *);
    cdbus_slot *(*slot_unref)(cdbus_slot *);
    const char *(*get_sender)(cdbus_message *);
    const char *(*get_path)(cdbus_message *);
    const char *(*get_interface)(cdbus_message *);
    const char *(*get_member)(cdbus_message *);
    int (*append_basic)(cdbus_message *, char, const void *);
    int (*open_container)(cdbus_message *, char, const char *);
    int (*close_container)(cdbus_message *);
    int (*peek_type)(cdbus_message *, char *, const char **);
    int (*read_basic)(cdbus_message *, char, void *);
    int (*enter_container)(cdbus_message *, char, const char *);
    int (*exit_container)(cdbus_message *);
    int (*skip)(cdbus_message *, const char *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

static void load(void) {
    // libsystemd's sd-bus; else the same API as elogind (systems without systemd) and basu ship it.
    static const char *const names[] = {"libsystemd.so.0", "libelogind.so.0", "libbasu.so.0"};
    void *library = NULL;
    const char *name = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !library; i++) {
        library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!library && i == 0) snprintf(load_error, sizeof load_error, "%s (nor libelogind.so.0 or libbasu.so.0)", dlerror());
        name = names[i];
    }
    if (!library) return;
#define FIND(field, symbol)                                                                   \
    if (!(*(void **)&api.field = dlsym(library, symbol))) {                                   \
        snprintf(load_error, sizeof load_error, "%s has no %s", name, symbol);                \
        return;                                                                               \
    }
    FIND(open_user, "sd_bus_open_user");
    FIND(open_system, "sd_bus_open_system");
    FIND(bus_new, "sd_bus_new");
    FIND(set_address, "sd_bus_set_address");
    FIND(set_bus_client, "sd_bus_set_bus_client");
    FIND(start, "sd_bus_start");
    FIND(flush_close_unref, "sd_bus_flush_close_unref");
    FIND(bus_unref, "sd_bus_unref");
    FIND(get_fd, "sd_bus_get_fd");
    FIND(get_events, "sd_bus_get_events");
    FIND(get_timeout, "sd_bus_get_timeout");
    FIND(process, "sd_bus_process");
    FIND(flush, "sd_bus_flush");
    FIND(get_unique_name, "sd_bus_get_unique_name");
    FIND(request_name, "sd_bus_request_name");
    FIND(new_method_call, "sd_bus_message_new_method_call");
    FIND(new_method_return, "sd_bus_message_new_method_return");
    FIND(new_method_error, "sd_bus_message_new_method_error");
    FIND(send, "sd_bus_send");
    FIND(call, "sd_bus_call");
    FIND(call_async, "sd_bus_call_async");
    FIND(error_free, "sd_bus_error_free");
    FIND(message_get_error, "sd_bus_message_get_error");
    FIND(message_unref, "sd_bus_message_unref");
    FIND(add_match, "sd_bus_add_match");
    FIND(add_object, "sd_bus_add_object");
    FIND(slot_unref, "sd_bus_slot_unref");
    FIND(get_sender, "sd_bus_message_get_sender");
    FIND(get_path, "sd_bus_message_get_path");
    FIND(get_interface, "sd_bus_message_get_interface");
    FIND(get_member, "sd_bus_message_get_member");
    FIND(append_basic, "sd_bus_message_append_basic");
    FIND(open_container, "sd_bus_message_open_container");
    FIND(close_container, "sd_bus_message_close_container");
    FIND(peek_type, "sd_bus_message_peek_type");
    FIND(read_basic, "sd_bus_message_read_basic");
    FIND(enter_container, "sd_bus_message_enter_container");
    FIND(exit_container, "sd_bus_message_exit_container");
    FIND(skip, "sd_bus_message_skip");
#undef FIND
    loaded = 1;
}

int cdbus_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cdbus_load_error(void) { return load_error; }

int cdbus_open_user(cdbus_bus **ret) { return api.open_user(ret); }
int cdbus_open_system(cdbus_bus **ret) { return api.open_system(ret); }

int cdbus_open_address(const char *address, cdbus_bus **ret) {
    cdbus_bus *bus = NULL;
    int r = api.bus_new(&bus);
    if (r < 0) return r;
    if ((r = api.set_address(bus, address)) < 0 || (r = api.set_bus_client(bus, 1)) < 0 || (r = api.start(bus)) < 0) {
        api.bus_unref(bus);
        return r;
    }
    *ret = bus;
    return 0;
}

void cdbus_close(cdbus_bus *bus) {
    if (bus) api.flush_close_unref(bus);
}

int cdbus_get_fd(cdbus_bus *bus) { return api.get_fd(bus); }
int cdbus_get_events(cdbus_bus *bus) { return api.get_events(bus); }

int cdbus_get_timeout(cdbus_bus *bus, uint64_t *usec) {
    int r = api.get_timeout(bus, usec);
    if (r < 0) return r;
    return *usec != UINT64_MAX;
}

int cdbus_process(cdbus_bus *bus, cdbus_message **unhandled) {
    // Without `unhandled`, sd-bus itself answers a method call nothing handled (UnknownObject,
    // UnknownMethod); asked for the message back, it would answer nothing and the caller wait.
    if (!unhandled) return api.process(bus, NULL);
    cdbus_message *m = NULL;
    int r = api.process(bus, &m);
    if (unhandled) *unhandled = m;
    else if (m) api.message_unref(m);
    return r;
}

int cdbus_flush(cdbus_bus *bus) { return api.flush(bus); }
int cdbus_get_unique_name(cdbus_bus *bus, const char **name) { return api.get_unique_name(bus, name); }
int cdbus_request_name(cdbus_bus *bus, const char *name, uint64_t flags) { return api.request_name(bus, name, flags); }

int cdbus_new_method_call(cdbus_bus *bus, cdbus_message **m, const char *destination, const char *path, const char *interface, const char *member) {
    return api.new_method_call(bus, m, destination, path, interface, member);
}

int cdbus_new_method_return(cdbus_message *call, cdbus_message **m) { return api.new_method_return(call, m); }

int cdbus_new_method_error(cdbus_message *call, cdbus_message **m, const char *name, const char *text) {
    cdbus_error error = {name, text, 0};
    return api.new_method_error(call, m, &error);
}

int cdbus_send(cdbus_bus *bus, cdbus_message *m) { return api.send(bus, m, NULL); }

int cdbus_call(cdbus_bus *bus, cdbus_message *m, uint64_t usec, cdbus_error *error, cdbus_message **reply) {
    return api.call(bus, m, usec, error, reply);
}

int cdbus_call_async(cdbus_bus *bus, cdbus_slot **slot, cdbus_message *m, cdbus_handler callback, void *userdata, uint64_t usec) {
    return api.call_async(bus, slot, m, callback, userdata, usec);
}

void cdbus_error_free(cdbus_error *error) { api.error_free(error); }

const cdbus_error *cdbus_message_error(cdbus_message *m) {
    const cdbus_error *error = api.message_get_error(m);
    return error && error->name ? error : NULL;
}

void cdbus_message_unref(cdbus_message *m) {
    if (m) api.message_unref(m);
}

int cdbus_add_match(cdbus_bus *bus, cdbus_slot **slot, const char *rule, cdbus_handler callback, void *userdata) {
    return api.add_match(bus, slot, rule, callback, userdata);
}

int cdbus_add_object(cdbus_bus *bus, cdbus_slot **slot, const char *path, cdbus_handler callback, void *userdata) {
    return api.add_object(bus, slot, path, callback, userdata);
}

void cdbus_slot_unref(cdbus_slot *slot) {
    if (slot) api.slot_unref(slot);
}

const char *cdbus_message_sender(cdbus_message *m) { return api.get_sender(m); }
const char *cdbus_message_path(cdbus_message *m) { return api.get_path(m); }
const char *cdbus_message_interface(cdbus_message *m) { return api.get_interface(m); }
const char *cdbus_message_member(cdbus_message *m) { return api.get_member(m); }

int cdbus_append_basic(cdbus_message *m, char type, const void *value) { return api.append_basic(m, type, value); }
int cdbus_open_container(cdbus_message *m, char type, const char *contents) { return api.open_container(m, type, contents); }
int cdbus_close_container(cdbus_message *m) { return api.close_container(m); }
int cdbus_peek_type(cdbus_message *m, char *type, const char **contents) { return api.peek_type(m, type, contents); }
int cdbus_read_basic(cdbus_message *m, char type, void *value) { return api.read_basic(m, type, value); }
int cdbus_enter_container(cdbus_message *m, char type, const char *contents) { return api.enter_container(m, type, contents); }
int cdbus_exit_container(cdbus_message *m) { return api.exit_container(m); }
int cdbus_skip(cdbus_message *m, const char *types) { return api.skip(m, types); }
