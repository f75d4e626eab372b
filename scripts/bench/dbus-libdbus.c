// dbus-libdbus.c — scripts/bench/dbus's libdbus-1 contender: N GetId round trips to the bus driver through libdbus-1, the reference implementation's client library (its few declarations written here, so only libdbus-1-3 is needed, not libdbus-1-dev).
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct DBusConnection DBusConnection;
typedef struct DBusMessage DBusMessage;
typedef struct {
    const char *name;
    const char *message;
    unsigned int dummy;
    void *padding1;
} DBusError;
void dbus_error_init(DBusError *error);
DBusConnection *dbus_connection_open_private(const char *address, DBusError *error);
int dbus_bus_register(DBusConnection *connection, DBusError *error);
DBusMessage *dbus_message_new_method_call(const char *destination, const char *path, const char *iface, const char *method);
DBusMessage *dbus_connection_send_with_reply_and_block(DBusConnection *connection, DBusMessage *message, int timeout_milliseconds, DBusError *error);
int dbus_message_get_args(DBusMessage *message, DBusError *error, int first_arg_type, ...);
void dbus_message_unref(DBusMessage *message);
void dbus_connection_close(DBusConnection *connection);
void dbus_connection_unref(DBusConnection *connection);

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    int n = atoi(argv[2]);
    DBusError error;
    dbus_error_init(&error);
    double wall0 = seconds(CLOCK_MONOTONIC), cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
    DBusConnection *bus = dbus_connection_open_private(argv[1], &error);
    if (!bus || !dbus_bus_register(bus, &error)) return 1;
    double wall1 = seconds(CLOCK_MONOTONIC), cpu1 = seconds(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < n; i++) {
        const char *id;
        DBusMessage *m = dbus_message_new_method_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId");
        DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, m, 5000, &error);
        if (!reply || !dbus_message_get_args(reply, &error, 's', &id, 0)) return 1;
        dbus_message_unref(m);
        dbus_message_unref(reply);
    }
    double wall2 = seconds(CLOCK_MONOTONIC), cpu2 = seconds(CLOCK_PROCESS_CPUTIME_ID);
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    // The connection's set-up (wall, CPU), then the calls' (wall, CPU), in seconds.
    printf("%.6f %.6f %.6f %.6f\n", wall1 - wall0, cpu1 - cpu0, wall2 - wall1, cpu2 - cpu1);
    return 0;
}
