#ifndef IMAGEFEED_CHTTPTRANSFER_H
#define IMAGEFEED_CHTTPTRANSFER_H
#include <stddef.h>
#include <stdint.h>

// One HTTP request through libcurl, its body handed over a chunk at a time as it arrives. libcurl reads
// from the socket only as fast as the chunks are taken, so a body that never ends costs no more memory
// than its limit; the limit, the deadlines and cancellation are all checked on the transferring thread.

typedef struct ifh_request {
    const char *url;
    const char *method;            // "GET", "POST" or "DELETE"
    const char *const *headers;    // "Name: value" lines
    size_t header_count;
    const uint8_t *body;           // POST's body, or NULL
    size_t body_length;
    long connect_timeout_ms;       // to connect (and finish TLS)
    long idle_timeout_s;           // no byte at all for this long: a timeout
    long total_timeout_ms;         // the whole transfer, however the bytes trickle
    int64_t body_limit;            // the most body bytes taken (a larger declared length is refused at once)
} ifh_request;

typedef struct ifh_callbacks {
    void *context;
    // Each header line of the answer, the status line first (and again after an interim 1xx answer).
    void (*header)(void *context, const char *line, size_t length);
    // A chunk of the body: returns 0 to go on, anything else to stop the transfer (IFH_STOPPED).
    int (*data)(void *context, const uint8_t *bytes, size_t length);
    // Polled while the transfer runs (several times a second): non-zero stops it (IFH_CANCELLED).
    int (*cancelled)(void *context);
} ifh_callbacks;

enum {
    IFH_OK = 0,
    IFH_TIMEOUT = 1,
    IFH_TOO_LARGE = 2,
    IFH_CANCELLED = 3,
    IFH_STOPPED = 4,
    IFH_CANNOT_CONNECT = 5,
    IFH_CANNOT_RESOLVE = 6,
    IFH_INSECURE = 7,
    IFH_BROKEN = 8,
    IFH_FAILED = 9,
    // The answer's head was more than libcurl reads (a header line of megabytes): libcurl says "out of memory".
    IFH_HEAD_TOO_LARGE = 10,
};

// Performs the request; *status gets the HTTP status (0 if none came). message gets libcurl's own words
// for a failure (for the log, not for people).
int ifh_perform(const ifh_request *request, const ifh_callbacks *callbacks, long *status,
                char *message, size_t message_capacity);

#endif
