// One budget of pixels for every decode in flight in the process, whatever the number of cores: a decoder
// reserves what a picture's header claims (in ifc_over_budget, before it takes memory for the pixels) and
// the reservation is given back when the decode ends (ifc_end_decode). A decode that would pass the budget
// waits until others end, or until it is no longer wanted (its stop flag), so memory stays bounded however
// many pictures are asked for at once.
#include "CImageCodec.h"
#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

static pthread_mutex_t ifc_budget_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ifc_budget_changed = PTHREAD_COND_INITIALIZER;
static uint64_t ifc_budget_total = 50ULL * 1000ULL * 1000ULL;
static uint64_t ifc_budget_in_use = 0;
static uint64_t ifc_budget_peak = 0;
// What this thread's decode holds, and its stop flag (set by another thread when nobody waits for it).
static __thread uint64_t ifc_thread_reserved = 0;
static __thread const volatile int *ifc_thread_stop = NULL;

void ifc_set_decode_budget(uint64_t pixels) {
    pthread_mutex_lock(&ifc_budget_lock);
    ifc_budget_total = pixels == 0 ? 1 : pixels;
    pthread_cond_broadcast(&ifc_budget_changed);
    pthread_mutex_unlock(&ifc_budget_lock);
}

void ifc_begin_decode(const volatile int *stop) {
    // Whatever an earlier decode on this thread left held (one that never reached ifc_end_decode) is given back.
    if (ifc_thread_reserved > 0) ifc_end_decode();
    ifc_thread_stop = stop;
}

void ifc_end_decode(void) {
    pthread_mutex_lock(&ifc_budget_lock);
    ifc_budget_in_use -= ifc_thread_reserved;
    pthread_cond_broadcast(&ifc_budget_changed);
    pthread_mutex_unlock(&ifc_budget_lock);
    ifc_thread_reserved = 0;
    ifc_thread_stop = NULL;
}

int ifc_decode_stopped(void) {
    return ifc_thread_stop != NULL && *ifc_thread_stop != 0;
}

uint64_t ifc_decode_budget_peak(int reset) {
    pthread_mutex_lock(&ifc_budget_lock);
    uint64_t peak = ifc_budget_peak;
    if (reset) ifc_budget_peak = ifc_budget_in_use;
    pthread_mutex_unlock(&ifc_budget_lock);
    return peak;
}

int ifc_reserve_pixels(uint64_t pixels, char *message, size_t capacity) {
    // A decode holds the largest of what it asks for (a GIF's canvas, then frames inside it), not their sum.
    if (pixels <= ifc_thread_reserved) return 0;
    pixels -= ifc_thread_reserved;
    pthread_mutex_lock(&ifc_budget_lock);
    // A decode that already holds a part of the budget (a GIF's canvas, then its frames) never waits: it would
    // wait on itself.
    while (ifc_thread_reserved == 0 && ifc_budget_in_use > 0 && ifc_budget_in_use + pixels > ifc_budget_total) {
        if (ifc_decode_stopped()) {
            pthread_mutex_unlock(&ifc_budget_lock);
            ifc_set_message(message, capacity, IFC_STOPPED_MESSAGE);
            return 1;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50L * 1000L * 1000L;
        if (until.tv_nsec >= 1000000000L) { until.tv_sec += 1; until.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&ifc_budget_changed, &ifc_budget_lock, &until);
    }
    ifc_budget_in_use += pixels;
    if (ifc_budget_in_use > ifc_budget_peak) ifc_budget_peak = ifc_budget_in_use;
    pthread_mutex_unlock(&ifc_budget_lock);
    ifc_thread_reserved += pixels;
    return 0;
}
