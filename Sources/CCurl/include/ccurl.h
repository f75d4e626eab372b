// ccurl.h — the part of libcurl's easy and multi API that HTTPClient uses, loaded at run time (dlopen) so nothing links libcurl; non-variadic wrappers Swift can call.
#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>
#include <stdint.h>

// No curl header is needed to build: these numbers are libcurl's stable ABI (curl/curl.h, curl/multi.h).

// Options (CURLOPT_*): LONG + n, OBJECTPOINT 10000 + n, FUNCTIONPOINT 20000 + n.
#define CCURLOPT_WRITEDATA 10001
#define CCURLOPT_URL 10002
#define CCURLOPT_ERRORBUFFER 10010
#define CCURLOPT_WRITEFUNCTION 20011
#define CCURLOPT_USERAGENT 10018
#define CCURLOPT_HEADERDATA 10029
#define CCURLOPT_NOPROGRESS 43
#define CCURLOPT_FOLLOWLOCATION 52
#define CCURLOPT_MAXREDIRS 68
#define CCURLOPT_HEADERFUNCTION 20079
#define CCURLOPT_HTTPGET 80
#define CCURLOPT_NOSIGNAL 99
#define CCURLOPT_ACCEPT_ENCODING 10102
#define CCURLOPT_CONNECTTIMEOUT_MS 156
/// Deprecated since 7.85 for the `_STR` forms, which older versions lack.
#define CCURLOPT_PROTOCOLS 181
#define CCURLOPT_REDIR_PROTOCOLS 182
#define CCURLOPT_PROTOCOLS_STR 10318
#define CCURLOPT_REDIR_PROTOCOLS_STR 10319
/// 7.87: do not wait for a resolver thread when a handle is cleaned up mid-lookup.
#define CCURLOPT_QUICK_EXIT 322
#define CCURLPROTO_HTTP 1
#define CCURLPROTO_HTTPS 2

// Information (CURLINFO_*): STRING 0x100000 + n, LONG 0x200000 + n, OFF_T 0x600000 + n.
#define CCURLINFO_RESPONSE_CODE 0x200002
#define CCURLINFO_OS_ERRNO 0x200019
#define CCURLINFO_CONTENT_LENGTH_DOWNLOAD_T 0x60000F

// Results (CURLcode).
#define CCURLE_OK 0
#define CCURLE_UNSUPPORTED_PROTOCOL 1
#define CCURLE_URL_MALFORMAT 3
#define CCURLE_COULDNT_RESOLVE_PROXY 5
#define CCURLE_COULDNT_RESOLVE_HOST 6
#define CCURLE_COULDNT_CONNECT 7
#define CCURLE_WEIRD_SERVER_REPLY 8
#define CCURLE_PARTIAL_FILE 18
#define CCURLE_WRITE_ERROR 23
#define CCURLE_OUT_OF_MEMORY 27
#define CCURLE_OPERATION_TIMEDOUT 28
#define CCURLE_SSL_CONNECT_ERROR 35
#define CCURLE_ABORTED_BY_CALLBACK 42
#define CCURLE_TOO_MANY_REDIRECTS 47
#define CCURLE_UNKNOWN_OPTION 48
#define CCURLE_GOT_NOTHING 52
#define CCURLE_SEND_ERROR 55
#define CCURLE_RECV_ERROR 56
#define CCURLE_PEER_FAILED_VERIFICATION 60
#define CCURLE_BAD_CONTENT_ENCODING 61
#define CCURLE_SSL_CACERT_BADFILE 77
#define CCURLE_PROXY 97

/// The size of the buffer CURLOPT_ERRORBUFFER writes (CURL_ERROR_SIZE).
#define CCURL_ERROR_SIZE 256

/// A CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION: returning other than `size * count` aborts
/// the transfer (CURLE_WRITE_ERROR).
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);

/// Loads libcurl (libcurl.so.4, else libcurl-gnutls.so.4) and initialises it, once per process
/// whichever thread asks first; 1 if it is usable, 0 if it is missing or too old. Every other
/// function needs a prior 1 from this one.
int ccurl_load(void);

/// curl_easy_init; NULL on failure.
void *ccurl_easy_init(void);
void ccurl_easy_cleanup(void *easy);
/// curl_easy_setopt with a `long` argument.
int ccurl_setopt_long(void *easy, int option, long value);
/// curl_easy_setopt with a string (copied by libcurl) or data pointer.
int ccurl_setopt_pointer(void *easy, int option, const void *value);
/// curl_easy_setopt with a write or header function.
int ccurl_setopt_data_callback(void *easy, int option, ccurl_data_callback callback);
/// curl_easy_getinfo of a `long` or of a 64-bit `curl_off_t`.
int ccurl_getinfo_long(void *easy, int info, long *value);
int ccurl_getinfo_int64(void *easy, int info, int64_t *value);
/// curl_easy_strerror: a static message, never NULL.
const char *ccurl_easy_strerror(int code);

/// curl_multi_init; NULL on failure.
void *ccurl_multi_init(void);
int ccurl_multi_add_handle(void *multi, void *easy);
int ccurl_multi_remove_handle(void *multi, void *easy);
int ccurl_multi_cleanup(void *multi);
/// curl_multi_perform: runs what is ready without blocking; `*running` is the transfers left.
int ccurl_multi_perform(void *multi, int *running);
/// Waits up to `timeout_ms` for activity (curl_multi_poll; curl_multi_wait before 7.66).
int ccurl_multi_poll(void *multi, int timeout_ms);
/// Reads the multi handle's messages: 1 with `*result` set once `easy` finished, else 0.
int ccurl_multi_finished(void *multi, void *easy, int *result);

#endif
