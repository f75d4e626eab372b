// dbus-sdbus.c — scripts/bench/dbus's sd-bus contender: N round trips through libsystemd's sd-bus as the recorder's D-Bus layer makes them (a message built, sd_bus_call, the reply read): GetId to the bus driver, or (with "notify") Notify to the notification server. Its few declarations are written here, so only libsystemd0 is needed.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct {
    const char *name;
    const char *message;
    int need_free;
} sd_bus_error;
int sd_bus_new(sd_bus **ret);
int sd_bus_set_address(sd_bus *bus, const char *address);
int sd_bus_set_bus_client(sd_bus *bus, int b);
int sd_bus_start(sd_bus *bus);
sd_bus *sd_bus_flush_close_unref(sd_bus *bus);
int sd_bus_message_new_method_call(sd_bus *bus, sd_bus_message **m, const char *destination, const char *path, const char *interface, const char *member);
int sd_bus_message_append(sd_bus_message *m, const char *types, ...);
int sd_bus_call(sd_bus *bus, sd_bus_message *m, uint64_t usec, sd_bus_error *ret_error, sd_bus_message **reply);
int sd_bus_message_read_basic(sd_bus_message *m, char type, void *p);
sd_bus_message *sd_bus_message_unref(sd_bus_message *m);

static double seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    int n = atoi(argv[2]);
    int notify = argc > 3 && strcmp(argv[3], "notify") == 0;
    double wall0 = seconds(CLOCK_MONOTONIC), cpu0 = seconds(CLOCK_PROCESS_CPUTIME_ID);
    sd_bus *bus = NULL;
    if (sd_bus_new(&bus) < 0 || sd_bus_set_address(bus, argv[1]) < 0 || sd_bus_set_bus_client(bus, 1) < 0 || sd_bus_start(bus) < 0) return 1;
    double wall1 = seconds(CLOCK_MONOTONIC), cpu1 = seconds(CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < n; i++) {
        sd_bus_message *m = NULL, *reply = NULL;
        sd_bus_error error = {0};
        if (notify) {
            if (sd_bus_message_new_method_call(bus, &m, "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "Notify") < 0
                || sd_bus_message_append(m, "susssasa{sv}i", "usage-shell", 0, "", "Daily limit reached", "A (app): 3s today, limit 3s", 0, 1, "urgency", "y", 1, -1) < 0)
                return 1;
            uint32_t id;
            if (sd_bus_call(bus, m, 5000000, &error, &reply) < 0 || sd_bus_message_read_basic(reply, 'u', &id) < 0) return 1;
        } else {
            const char *id;
            if (sd_bus_message_new_method_call(bus, &m, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId") < 0) return 1;
            if (sd_bus_call(bus, m, 5000000, &error, &reply) < 0 || sd_bus_message_read_basic(reply, 's', &id) < 0) return 1;
        }
        sd_bus_message_unref(m);
        sd_bus_message_unref(reply);
    }
    double wall2 = seconds(CLOCK_MONOTONIC), cpu2 = seconds(CLOCK_PROCESS_CPUTIME_ID);
    sd_bus_flush_close_unref(bus);
    // The connection's set-up (wall, CPU), then the calls' (wall, CPU), in seconds.
    printf("%.6f %.6f %.6f %.6f\n", wall1 - wall0, cpu1 - cpu0, wall2 - wall1, cpu2 - cpu1);
    return 0;
}
