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
if [[ ${IMAGE_FEED_TEST_GROUPS:-2} == 1 ]]; then
    "$swift" test --skip-build --disable-swift-testing
    exit $?
fi

# The real terminals' classes (RealTerminalTests, RealTerminalPathTests), two classes that wait on processes of their
# own, and one tmux class: on two busy cores the two groups then take about as long.
slow='RealTerminalTests|RealTerminalPathTests|MachineFaultTests|RenderStopTests|WhatAUserMeetsTests'
# Each group is the built test program run directly with the classes it runs (XCTest takes them comma-separated), as
# `swift test` runs it: no SwiftPM starting twice (on two busy cores a minute or more before the first test), and no
# build database two of them could find locked.
tests=$(ls -d .build/debug/*PackageTests.xctest 2>/dev/null | head -n 1)
if [[ -z $tests ]]; then
    echo "run-tests.sh: the tests are not built (make test builds them)" >&2
    exit 1
fi
classes=$("$tests" --list-tests | grep '/' | cut -d/ -f1 | sort -u)
terminal_classes=$(grep -E "\.($slow)\$" <<<"$classes" | paste -sd, -)
other_classes=$(grep -vE "\.($slow)\$" <<<"$classes" | paste -sd, -)
if [[ -z $terminal_classes || -z $other_classes ]]; then
    echo "run-tests.sh: no tests listed by $tests" >&2
    exit 1
fi
# What `swift test` adds to the tests' environment.
export NO_COLOR=1
start=$(date +%s)
"$tests" "$terminal_classes" >"$logs/terminals.log" 2>&1 &
terminals=$!
"$tests" "$other_classes" >"$logs/others.log" 2>&1 &
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
for group in others terminals; do
    grep -h "^[[:space:]]*Executed [0-9]* tests" "$logs/$group.log" | tail -n 1 || true
done
[[ $others_status == 0 && $terminals_status == 0 ]]
