#!/usr/bin/env bash
# Runs the whole built suite (make test builds it first) as two groups at once: the tests that photograph real
# terminals under Xvfb, which mostly wait on a terminal drawing in software, with the machine's faults and render's
# stops (which wait on processes of their own), beside all the others; the two take about as long. Each group is
# one XCTest process with its own log; both logs are printed whole when both have ended, and the run fails if
# either group did. IMAGE_FEED_TEST_GROUPS=1 runs the suite as one group, as `swift test` would.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
swift=${SWIFT:-swift}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
# --skip-build writes nothing in .build, so the two groups need not wait for each other's lock on it (SwiftPM's
# lock would run them one after the other).
run() { "$swift" test --skip-build --disable-swift-testing --ignore-lock "$@"; }

if [[ ${IMAGE_FEED_TEST_GROUPS:-2} == 1 ]]; then
    run
    exit $?
fi

# The real terminals' classes (RealTerminalTests, RealTerminalPathTests), two classes that wait on processes of their
# own, and one tmux class: on two busy cores the two groups then take about as long (about 460 s each).
slow='RealTerminalTests|RealTerminalPathTests|MachineFaultTests|RenderStopTests|WhatAUserMeetsTests'
start=$(date +%s)
run --filter "$slow" >"$logs/terminals.log" 2>&1 &
terminals=$!
# SwiftPM reads its build database as it starts, even with --skip-build, and two starting at once can find it locked
# ("unable to attach DB"): the second group starts once the first has begun running its tests (or has ended).
for _ in $(seq 1200); do
    grep -q "^Test Suite .* started at" "$logs/terminals.log" 2>/dev/null && break
    kill -0 "$terminals" 2>/dev/null || break
    sleep 0.1
done
run --skip "$slow" >"$logs/others.log" 2>&1 &
others=$!
# Whichever ends first, each group's own time is kept.
others_end=; terminals_end=
while [[ -z $others_end || -z $terminals_end ]]; do
    if [[ -z $others_end ]] && ! kill -0 "$others" 2>/dev/null; then wait "$others"; others_status=$?; others_end=$(date +%s); fi
    if [[ -z $terminals_end ]] && ! kill -0 "$terminals" 2>/dev/null; then wait "$terminals"; terminals_status=$?; terminals_end=$(date +%s); fi
    sleep 1
done

for group in others terminals; do
    echo "=== $group ==="
    cat "$logs/$group.log"
done
echo "=== the suite: the others in $((others_end - start)) s (status $others_status), the real terminals and the processes in $((terminals_end - start)) s (status $terminals_status) ==="
# Every test failed or passed is counted once: what XCTest said of each group.
grep -h "^[[:space:]]*Executed [0-9]* tests" "$logs/others.log" "$logs/terminals.log" | tail -n 2 || true
[[ $others_status == 0 && $terminals_status == 0 ]]
