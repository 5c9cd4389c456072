#!/usr/bin/env bash
# Builds image-feed-fuzz with libFuzzer coverage and AddressSanitizer, then fuzzes targets.
#
#   scripts/fuzz.sh                      every target, 600 s each
#   scripts/fuzz.sh jpeg png             those targets
#   FUZZ_SECONDS=60 scripts/fuzz.sh ...  another duration
#   FUZZ_JOBS=2 scripts/fuzz.sh          targets run this many at a time
#
# The seeds (and every input that once made a target fail) are in Tests/FuzzTargetsTests/Inputs/<target>;
# the growing corpus is kept in .build/fuzz-corpus/<target>, findings go to .build/fuzz-findings/<target>,
# and each run's log to .build/fuzz-logs/<target>.log. A finding is copied into Inputs/<target> (the tests
# then replay it) once the bug is fixed.
#
# Why not `swift build -Xswiftc -sanitize=fuzzer` alone: linking with it brings libFuzzer's own main,
# which collides with the main SwiftPM gives every executable. So the compiler instruments with
# `-sanitize=fuzzer` (frontend only), links libFuzzer without its main, and image-feed-fuzz's main hands
# the arguments to libFuzzer's LLVMFuzzerRunDriver.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${FUZZ_SECONDS:-600}
JOBS=${FUZZ_JOBS:-1}
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then TARGETS=(api-json imgur-json jpeg png gif webp bmp tiff animation video oauth-redirect config input terminal-replies layout store-restore); fi

SWIFT_BIN=$(dirname "$(readlink -f "$(command -v swift)")")
RUNTIME=$(ls -d "$SWIFT_BIN"/../lib/clang/*/lib/linux | head -1)
LIBFUZZER="$RUNTIME/libclang_rt.fuzzer_no_main-x86_64.a"
[ -f "$LIBFUZZER" ] || { echo "libFuzzer (libclang_rt.fuzzer_no_main) not found in the Swift toolchain" >&2; exit 1; }

swift build --scratch-path .build/fuzz --product image-feed-fuzz \
    -Xswiftc -sanitize=address -Xswiftc -Xfrontend -Xswiftc -sanitize=fuzzer,address \
    -Xswiftc -DIMAGE_FEED_FUZZ \
    -Xcc -fsanitize=fuzzer-no-link,address \
    -Xlinker "$LIBFUZZER" -Xlinker -lstdc++
BINARY=.build/fuzz/debug/image-feed-fuzz

# Swift's crash backtracer would hold each crash for seconds; ASan reports them.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}

run_one() {
    local target=$1
    mkdir -p ".build/fuzz-corpus/$target" ".build/fuzz-findings/$target" .build/fuzz-logs
    local extra=()
    if [ -f "Tests/FuzzTargetsTests/$target.dict" ]; then extra+=("-dict=Tests/FuzzTargetsTests/$target.dict"); fi
    local started=$SECONDS
    set +e
    "$BINARY" "$target" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=3072 -max_len=65536 \
        -print_final_stats=1 "${extra[@]}" \
        -artifact_prefix=".build/fuzz-findings/$target/" \
        ".build/fuzz-corpus/$target" "Tests/FuzzTargetsTests/Inputs/$target" \
        > ".build/fuzz-logs/$target.log" 2>&1
    local status=$?
    set -e
    local runs
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' ".build/fuzz-logs/$target.log" | grep -o '[0-9]*$' || echo "?")
    local findings
    findings=$(find ".build/fuzz-findings/$target" -type f | wc -l)
    echo "$target: exit $status, $runs executions in $((SECONDS - started)) s, $findings finding(s) (log .build/fuzz-logs/$target.log)"
}

running=0
for target in "${TARGETS[@]}"; do
    run_one "$target" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait
