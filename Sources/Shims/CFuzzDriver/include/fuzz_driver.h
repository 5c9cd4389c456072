#ifndef IMAGE_FEED_FUZZ_DRIVER_H
#define IMAGE_FEED_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry for programs with their own main (in libclang_rt.fuzzer_no_main).
/// Referenced only by fuzzing builds, so ordinary builds need no libFuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
