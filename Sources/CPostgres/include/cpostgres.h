// cpostgres.h — the part of libpq the PostgreSQL store uses, loaded at run time (dlopen "libpq.so.5") so nothing links libpq and the program starts without it; plain wrappers Swift can call.
#ifndef CPOSTGRES_H
#define CPOSTGRES_H

#include <stddef.h>

// No libpq header is needed to build: these numbers are libpq's stable ABI (libpq-fe.h,
// postgres_ext.h); a test compares them with the real header where it is installed.

// ConnStatusType
#define CPQ_CONNECTION_OK 0
#define CPQ_CONNECTION_BAD 1
// ExecStatusType
#define CPQ_PGRES_EMPTY_QUERY 0
#define CPQ_PGRES_COMMAND_OK 1
#define CPQ_PGRES_TUPLES_OK 2
#define CPQ_PGRES_COPY_OUT 3
#define CPQ_PGRES_COPY_IN 4
#define CPQ_PGRES_BAD_RESPONSE 5
#define CPQ_PGRES_NONFATAL_ERROR 6
#define CPQ_PGRES_FATAL_ERROR 7
// PGTransactionStatusType
#define CPQ_TRANS_IDLE 0
#define CPQ_TRANS_ACTIVE 1
#define CPQ_TRANS_INTRANS 2
#define CPQ_TRANS_INERROR 3
#define CPQ_TRANS_UNKNOWN 4
// PQresultErrorField codes
#define CPQ_DIAG_SQLSTATE 'C'
#define CPQ_DIAG_MESSAGE_PRIMARY 'M'
#define CPQ_DIAG_MESSAGE_DETAIL 'D'
#define CPQ_DIAG_CONSTRAINT_NAME 'n'

typedef struct cpq_conn cpq_conn;        // PGconn
typedef struct cpq_result cpq_result;    // PGresult
typedef struct cpq_options cpq_options;  // PQconninfoOption[]
typedef struct cpq_cancel cpq_cancel;    // PGcancel

/// Loads libpq.so.5 once per process: 1 when usable, 0 when missing or older than 10 (no SCRAM).
int cpq_load(void);
/// Why the load failed (dlerror()'s text, or the symbol missing), for the one line said.
const char *cpq_load_error(void);
/// PQlibVersion (150018 for 15.18).
int cpq_lib_version(void);

/// PQconnectdbParams: NULL-terminated keys and values; `expand_dbname` 1 reads a `dbname`
/// value that is a URI or a key=value string as one (later entries override earlier ones).
cpq_conn *cpq_connect(const char *const *keys, const char *const *values, int expand_dbname);
int cpq_status(const cpq_conn *connection);
const char *cpq_error_message(const cpq_conn *connection);
/// PQuser: the role the connection logged in as.
const char *cpq_user(const cpq_conn *connection);
int cpq_needs_password(const cpq_conn *connection);
int cpq_server_version(const cpq_conn *connection);
int cpq_transaction_status(const cpq_conn *connection);
/// Notices (a `WARNING` the server sends) go nowhere instead of standard error.
void cpq_silence_notices(cpq_conn *connection);
void cpq_finish(cpq_conn *connection);

/// PQexecParams with text parameters (NULL values are SQL NULL); results in text (0) or binary (1).
cpq_result *cpq_exec(cpq_conn *connection, const char *sql, int count, const char *const *values, int result_format);
/// PQexec: several statements separated by `;`, no parameters (a schema's DDL).
cpq_result *cpq_exec_script(cpq_conn *connection, const char *sql);
cpq_result *cpq_get_result(cpq_conn *connection);
int cpq_result_status(const cpq_result *result);
/// A field of the error (SQLSTATE, message…), NULL when absent.
const char *cpq_result_error_field(const cpq_result *result, int field);
const char *cpq_result_error_message(const cpq_result *result);
int cpq_ntuples(const cpq_result *result);
int cpq_nfields(const cpq_result *result);
const char *cpq_fname(const cpq_result *result, int column);
/// The column's type OID (20 int8, 21 int2, 23 int4, 25 text, 1043 varchar, 701 float8, 1700 numeric, 16 bool).
unsigned cpq_ftype(const cpq_result *result, int column);
const char *cpq_get_value(const cpq_result *result, int row, int column);
int cpq_get_length(const cpq_result *result, int row, int column);
int cpq_get_is_null(const cpq_result *result, int row, int column);
/// How many rows the statement changed ("" for a query), as text.
const char *cpq_cmd_tuples(cpq_result *result);
void cpq_clear(cpq_result *result);

/// COPY … FROM STDIN: 1 sent, -1 failed.
int cpq_put_copy_data(cpq_conn *connection, const char *buffer, int count);
/// Ends the COPY (`error` non-NULL aborts it).
int cpq_put_copy_end(cpq_conn *connection, const char *error);
/// COPY … TO STDOUT: the next message's length, its bytes in `*buffer` (free with cpq_freemem);
/// -1 when the COPY is done (then cpq_get_result), -2 on failure. Waits for the message.
int cpq_get_copy_data(cpq_conn *connection, char **buffer);

/// PQconninfoParse: the options a URI or key=value string sets, or NULL with `*error` set
/// (free it with cpq_freemem).
cpq_options *cpq_conninfo_parse(const char *conninfo, char **error);
/// The keyword and value of option `index` (NULL keyword: past the end; NULL value: not set).
const char *cpq_option_keyword(const cpq_options *options, int index);
const char *cpq_option_value(const cpq_options *options, int index);
void cpq_conninfo_free(cpq_options *options);
void cpq_freemem(void *pointer);

/// PQgetCancel: what cancels the statement a connection runs, from any thread (NULL: none).
cpq_cancel *cpq_get_cancel(cpq_conn *connection);
/// PQcancel: asks the server to cancel the statement under way (1 asked, 0 not); safe from any
/// thread while the connection's owner waits for its result.
int cpq_cancel_now(cpq_cancel *cancel);
void cpq_free_cancel(cpq_cancel *cancel);

#endif
