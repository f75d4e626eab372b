// cpostgres.c — finds libpq with dlopen on first use and resolves the functions the PostgreSQL store calls.
#include "cpostgres.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// As in libpq-fe.h: PQconninfoOption.
typedef struct {
    char *keyword;
    char *envvar;
    char *compiled;
    char *val;
    char *label;
    char *dispchar;
    int dispsize;
} option;

static struct {
    int (*libVersion)(void);
    cpq_conn *(*connectdbParams)(const char *const *, const char *const *, int);
    int (*status)(const cpq_conn *);
    char *(*errorMessage)(const cpq_conn *);
    char *(*user)(const cpq_conn *);
    int (*connectionNeedsPassword)(const cpq_conn *);
    int (*serverVersion)(const cpq_conn *);
    int (*transactionStatus)(const cpq_conn *);
    void *(*setNoticeProcessor)(cpq_conn *, void (*)(void *, const char *), void *);
    void (*finish)(cpq_conn *);
    cpq_result *(*execParams)(cpq_conn *, const char *, int, const unsigned *, const char *const *, const int *, const int *, int);
    cpq_result *(*exec)(cpq_conn *, const char *);
    cpq_result *(*getResult)(cpq_conn *);
    int (*resultStatus)(const cpq_result *);
    char *(*resultErrorField)(const cpq_result *, int);
    char *(*resultErrorMessage)(const cpq_result *);
    int (*ntuples)(const cpq_result *);
    int (*nfields)(const cpq_result *);
    char *(*fname)(const cpq_result *, int);
    unsigned (*ftype)(const cpq_result *, int);
    char *(*getvalue)(const cpq_result *, int, int);
    int (*getlength)(const cpq_result *, int, int);
    int (*getisnull)(const cpq_result *, int, int);
    char *(*cmdTuples)(cpq_result *);
    void (*clear)(cpq_result *);
    int (*putCopyData)(cpq_conn *, const char *, int);
    int (*putCopyEnd)(cpq_conn *, const char *);
    int (*getCopyData)(cpq_conn *, char **, int);
    option *(*conninfoParse)(const char *, char **);
    void (*conninfoFree)(option *);
    void (*freemem)(void *);
    cpq_cancel *(*getCancel)(cpq_conn *);
    int (*cancel)(cpq_cancel *, char *, int);
    void (*freeCancel)(cpq_cancel *);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

static void load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
#define FIND(field, symbol)                                                                  \
    if (!(*(void **)&api.field = dlsym(library, symbol))) {                                  \
        snprintf(load_error, sizeof load_error, "libpq.so.5 has no %s", symbol);             \
        return;                                                                              \
    }
    FIND(libVersion, "PQlibVersion");
    FIND(connectdbParams, "PQconnectdbParams");
    FIND(status, "PQstatus");
    FIND(errorMessage, "PQerrorMessage");
    FIND(user, "PQuser");
    FIND(connectionNeedsPassword, "PQconnectionNeedsPassword");
    FIND(serverVersion, "PQserverVersion");
    FIND(transactionStatus, "PQtransactionStatus");
    FIND(setNoticeProcessor, "PQsetNoticeProcessor");
    FIND(finish, "PQfinish");
    FIND(execParams, "PQexecParams");
    FIND(exec, "PQexec");
    FIND(getResult, "PQgetResult");
    FIND(resultStatus, "PQresultStatus");
    FIND(resultErrorField, "PQresultErrorField");
    FIND(resultErrorMessage, "PQresultErrorMessage");
    FIND(ntuples, "PQntuples");
    FIND(nfields, "PQnfields");
    FIND(fname, "PQfname");
    FIND(ftype, "PQftype");
    FIND(getvalue, "PQgetvalue");
    FIND(getlength, "PQgetlength");
    FIND(getisnull, "PQgetisnull");
    FIND(cmdTuples, "PQcmdTuples");
    FIND(clear, "PQclear");
    FIND(putCopyData, "PQputCopyData");
    FIND(putCopyEnd, "PQputCopyEnd");
    FIND(getCopyData, "PQgetCopyData");
    FIND(conninfoParse, "PQconninfoParse");
    FIND(conninfoFree, "PQconninfoFree");
    FIND(freemem, "PQfreemem");
    FIND(getCancel, "PQgetCancel");
    FIND(cancel, "PQcancel");
    FIND(freeCancel, "PQfreeCancel");
#undef FIND
    if (api.libVersion() < 100000) {
        snprintf(load_error, sizeof load_error, "libpq %d is older than 10", api.libVersion());
        return;
    }
    loaded = 1;
}

int cpq_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *cpq_load_error(void) { return load_error; }
int cpq_lib_version(void) { return api.libVersion(); }

cpq_conn *cpq_connect(const char *const *keys, const char *const *values, int expand_dbname) {
    return api.connectdbParams(keys, values, expand_dbname);
}
int cpq_status(const cpq_conn *c) { return api.status(c); }
const char *cpq_error_message(const cpq_conn *c) { return api.errorMessage(c); }
const char *cpq_user(const cpq_conn *c) { return api.user(c); }
int cpq_needs_password(const cpq_conn *c) { return api.connectionNeedsPassword(c); }
int cpq_server_version(const cpq_conn *c) { return api.serverVersion(c); }
int cpq_transaction_status(const cpq_conn *c) { return api.transactionStatus(c); }

static void ignore(void *context, const char *message) {
    (void)context;
    (void)message;
}
void cpq_silence_notices(cpq_conn *c) { api.setNoticeProcessor(c, ignore, NULL); }
void cpq_finish(cpq_conn *c) { api.finish(c); }

cpq_result *cpq_exec(cpq_conn *c, const char *sql, int count, const char *const *values, int result_format) {
    return api.execParams(c, sql, count, NULL, values, NULL, NULL, result_format);
}
cpq_result *cpq_exec_script(cpq_conn *c, const char *sql) { return api.exec(c, sql); }
cpq_result *cpq_get_result(cpq_conn *c) { return api.getResult(c); }
int cpq_result_status(const cpq_result *r) { return api.resultStatus(r); }
const char *cpq_result_error_field(const cpq_result *r, int field) { return api.resultErrorField(r, field); }
const char *cpq_result_error_message(const cpq_result *r) { return api.resultErrorMessage(r); }
int cpq_ntuples(const cpq_result *r) { return api.ntuples(r); }
int cpq_nfields(const cpq_result *r) { return api.nfields(r); }
const char *cpq_fname(const cpq_result *r, int column) { return api.fname(r, column); }
unsigned cpq_ftype(const cpq_result *r, int column) { return api.ftype(r, column); }
const char *cpq_get_value(const cpq_result *r, int row, int column) { return api.getvalue(r, row, column); }
int cpq_get_length(const cpq_result *r, int row, int column) { return api.getlength(r, row, column); }
int cpq_get_is_null(const cpq_result *r, int row, int column) { return api.getisnull(r, row, column); }
const char *cpq_cmd_tuples(cpq_result *r) { return api.cmdTuples(r); }
void cpq_clear(cpq_result *r) { api.clear(r); }

int cpq_put_copy_data(cpq_conn *c, const char *buffer, int count) { return api.putCopyData(c, buffer, count); }
int cpq_put_copy_end(cpq_conn *c, const char *error) { return api.putCopyEnd(c, error); }
int cpq_get_copy_data(cpq_conn *c, char **buffer) { return api.getCopyData(c, buffer, 0); }

cpq_options *cpq_conninfo_parse(const char *conninfo, char **error) {
    *error = NULL;
    return (cpq_options *)api.conninfoParse(conninfo, error);
}
const char *cpq_option_keyword(const cpq_options *options, int index) { return ((const option *)options)[index].keyword; }
const char *cpq_option_value(const cpq_options *options, int index) { return ((const option *)options)[index].val; }
void cpq_conninfo_free(cpq_options *options) { api.conninfoFree((option *)options); }
void cpq_freemem(void *pointer) { api.freemem(pointer); }

cpq_cancel *cpq_get_cancel(cpq_conn *c) { return api.getCancel(c); }
int cpq_cancel_now(cpq_cancel *cancel) {
    char error[256];
    return api.cancel(cancel, error, sizeof error);
}
void cpq_free_cancel(cpq_cancel *cancel) { api.freeCancel(cancel); }
