#include "CHTTPTransfer.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

// libcurl is loaded at the first request, not linked: with TLS, LDAP, SSH and their own libraries it is thirty
// libraries, whose loading was a third of every start (and all of it for `render` of a file, which asks nothing of
// the network). Below, curl's names become the functions found in it once it is loaded.
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <dlfcn.h>

#define IFH_CURL_FUNCTIONS(X) \
    X(curl_global_init) X(curl_share_init) X(curl_share_setopt) X(curl_easy_init) X(curl_easy_setopt) \
    X(curl_easy_perform) X(curl_easy_getinfo) X(curl_easy_cleanup) X(curl_easy_strerror) X(curl_slist_append) \
    X(curl_slist_free_all)

static struct {
#define IFH_CURL_POINTER(name) __typeof__(&name) name;
    IFH_CURL_FUNCTIONS(IFH_CURL_POINTER)
#undef IFH_CURL_POINTER
} ifh_curl;

// Why libcurl could not be loaded; empty when it was.
static char ifh_curl_failure[160];

static int ifh_curl_load(void) {
    // libcurl.so.4: the soname of every libcurl since 7.16 (its ABI has not changed since).
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(ifh_curl_failure, sizeof ifh_curl_failure,
                 "the network needs libcurl (libcurl.so.4), which is not installed (Debian: libcurl4)");
        return 0;
    }
#define IFH_CURL_FIND(name) \
    *(void **)&ifh_curl.name = dlsym(library, #name); \
    if (!ifh_curl.name) { \
        snprintf(ifh_curl_failure, sizeof ifh_curl_failure, "the installed libcurl has no %s", #name); \
        return 0; \
    }
    IFH_CURL_FUNCTIONS(IFH_CURL_FIND)
#undef IFH_CURL_FIND
    return 1;
}

#define curl_global_init (ifh_curl.curl_global_init)
#define curl_share_init (ifh_curl.curl_share_init)
#define curl_share_setopt (ifh_curl.curl_share_setopt)
#define curl_easy_init (ifh_curl.curl_easy_init)
#define curl_easy_setopt (ifh_curl.curl_easy_setopt)
#define curl_easy_perform (ifh_curl.curl_easy_perform)
#define curl_easy_getinfo (ifh_curl.curl_easy_getinfo)
#define curl_easy_cleanup (ifh_curl.curl_easy_cleanup)
#define curl_easy_strerror (ifh_curl.curl_easy_strerror)
#define curl_slist_append (ifh_curl.curl_slist_append)
#define curl_slist_free_all (ifh_curl.curl_slist_free_all)

// One share for every transfer: connections, TLS sessions and DNS answers are reused across requests and
// threads (a far link pays its round trips for a new TLS connection once, not per request).
static CURLSH *ifh_share;
static pthread_mutex_t ifh_locks[CURL_LOCK_DATA_LAST];
static pthread_once_t ifh_once = PTHREAD_ONCE_INIT;

static void ifh_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *user) {
    (void)handle; (void)access; (void)user;
    if (data < CURL_LOCK_DATA_LAST) pthread_mutex_lock(&ifh_locks[data]);
}

static void ifh_unlock(CURL *handle, curl_lock_data data, void *user) {
    (void)handle; (void)user;
    if (data < CURL_LOCK_DATA_LAST) pthread_mutex_unlock(&ifh_locks[data]);
}

static void ifh_setup(void) {
    if (!ifh_curl_load()) return;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    for (int index = 0; index < CURL_LOCK_DATA_LAST; index++) pthread_mutex_init(&ifh_locks[index], NULL);
    ifh_share = curl_share_init();
    if (!ifh_share) return;
    curl_share_setopt(ifh_share, CURLSHOPT_LOCKFUNC, ifh_lock);
    curl_share_setopt(ifh_share, CURLSHOPT_UNLOCKFUNC, ifh_unlock);
    curl_share_setopt(ifh_share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
    curl_share_setopt(ifh_share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
    curl_share_setopt(ifh_share, CURLSHOPT_SHARE, CURL_LOCK_DATA_CONNECT);
}

typedef struct ifh_transfer {
    const ifh_callbacks *callbacks;
    int64_t limit;
    int64_t received;
    int too_large;
    int stopped;
    int cancelled;
} ifh_transfer;

static size_t ifh_on_body(char *bytes, size_t size, size_t count, void *user) {
    ifh_transfer *transfer = (ifh_transfer *)user;
    size_t length = size * count;
    if (length == 0) return 0;
    transfer->received += (int64_t)length;
    if (transfer->received > transfer->limit) {
        transfer->too_large = 1;
        return 0; // anything but `length` ends the transfer
    }
    if (transfer->callbacks->data(transfer->callbacks->context, (const uint8_t *)bytes, length) != 0) {
        transfer->stopped = 1;
        return 0;
    }
    return length;
}

static size_t ifh_on_header(char *bytes, size_t size, size_t count, void *user) {
    ifh_transfer *transfer = (ifh_transfer *)user;
    size_t length = size * count;
    transfer->callbacks->header(transfer->callbacks->context, bytes, length);
    return length;
}

static int ifh_on_progress(void *user, curl_off_t total_down, curl_off_t now_down, curl_off_t total_up, curl_off_t now_up) {
    (void)total_down; (void)now_down; (void)total_up; (void)now_up;
    ifh_transfer *transfer = (ifh_transfer *)user;
    if (transfer->callbacks->cancelled(transfer->callbacks->context)) {
        transfer->cancelled = 1;
        return 1;
    }
    return 0;
}

static int ifh_outcome(CURLcode code, const ifh_transfer *transfer) {
    if (code == CURLE_OK) return IFH_OK;
    if (transfer->too_large || code == CURLE_FILESIZE_EXCEEDED) return IFH_TOO_LARGE;
    if (transfer->cancelled) return IFH_CANCELLED;
    if (transfer->stopped) return IFH_STOPPED;
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT: return IFH_TIMEOUT;
    // libcurl refuses a head past its limit (CURL_MAX_HTTP_HEADER) with this code: no allocation failed.
    case CURLE_OUT_OF_MEMORY: return IFH_HEAD_TOO_LARGE;
    case CURLE_COULDNT_RESOLVE_HOST: case CURLE_COULDNT_RESOLVE_PROXY: return IFH_CANNOT_RESOLVE;
    case CURLE_COULDNT_CONNECT: return IFH_CANNOT_CONNECT;
    case CURLE_SSL_CONNECT_ERROR: case CURLE_PEER_FAILED_VERIFICATION: case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER: case CURLE_SSL_CACERT_BADFILE: case CURLE_SSL_ISSUER_ERROR:
        return IFH_INSECURE;
    case CURLE_RECV_ERROR: case CURLE_SEND_ERROR: case CURLE_PARTIAL_FILE: case CURLE_GOT_NOTHING:
    case CURLE_HTTP2: case CURLE_HTTP2_STREAM: case CURLE_WEIRD_SERVER_REPLY: case CURLE_BAD_CONTENT_ENCODING:
        return IFH_BROKEN;
    default: return IFH_FAILED;
    }
}

int ifh_perform(const ifh_request *request, const ifh_callbacks *callbacks, long *status,
                char *message, size_t message_capacity) {
    *status = 0;
    if (message && message_capacity > 0) message[0] = 0;
    pthread_once(&ifh_once, ifh_setup);
    if (ifh_curl_failure[0]) {
        if (message && message_capacity > 0) snprintf(message, message_capacity, "%s", ifh_curl_failure);
        return IFH_FAILED;
    }
    CURL *handle = curl_easy_init();
    if (!handle) {
        if (message && message_capacity > 0) snprintf(message, message_capacity, "curl_easy_init failed");
        return IFH_FAILED;
    }
    ifh_transfer transfer = { callbacks, request->body_limit, 0, 0, 0, 0 };
    char error[CURL_ERROR_SIZE] = { 0 };
    struct curl_slist *headers = NULL;
    for (size_t index = 0; index < request->header_count; index++) headers = curl_slist_append(headers, request->headers[index]);

    curl_easy_setopt(handle, CURLOPT_URL, request->url);
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    if (ifh_share) curl_easy_setopt(handle, CURLOPT_SHARE, ifh_share);
    // Only http and https, and no redirects: the caller decides where a redirect may go.
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 0L);
    // Compressed answers (Unsplash's JSON shrinks to a fifth) are unpacked before the limit counts them,
    // so a compression bomb meets the same limit as any body.
    curl_easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, request->total_timeout_ms);
    curl_easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(handle, CURLOPT_LOW_SPEED_TIME, request->idle_timeout_s);
    curl_easy_setopt(handle, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)request->body_limit);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, ifh_on_body);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &transfer);
    curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, ifh_on_header);
    curl_easy_setopt(handle, CURLOPT_HEADERDATA, &transfer);
    curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, ifh_on_progress);
    curl_easy_setopt(handle, CURLOPT_XFERINFODATA, &transfer);
    if (strcmp(request->method, "POST") == 0) {
        curl_easy_setopt(handle, CURLOPT_POST, 1L);
        curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
        curl_easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, request->body ? (const char *)request->body : "");
    } else if (strcmp(request->method, "GET") != 0) {
        curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request->method);
    }

    CURLcode code = curl_easy_perform(handle);
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, status);
    int outcome = ifh_outcome(code, &transfer);
    if (code != CURLE_OK && message && message_capacity > 0) {
        snprintf(message, message_capacity, "%s", error[0] ? error : curl_easy_strerror(code));
    }
    curl_easy_cleanup(handle);
    curl_slist_free_all(headers);
    return outcome;
}
