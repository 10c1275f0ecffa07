#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How fast a signal stops a headless run (figures, not a test): the time from SIGINT or SIGTERM to
# the process's exit, which includes ending the scan, writing the partial summary JSON and trace
# CSV, and tearing down. Each case is started, given a moment to get going, signalled, and timed;
# REPEAT times, printing min / median / max in milliseconds. The goal is < 100 ms.
#
# Usage: bench/cancel_bench.sh [LOOKAHEAD_BINARY]     Environment: REPEAT (default 7)
set -euo pipefail
cd "$(dirname "$0")/.."

LOOKAHEAD=${1:-build/app/lookahead}
REPEAT=${REPEAT:-7}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
[[ -x $LOOKAHEAD ]] || { echo "no Lookahead binary at $LOOKAHEAD (build it, or pass its path)" >&2; exit 2; }

now_ns() { date +%s%N; }

# case NAME SIGNAL ARGS...: prints "NAME: min/median/max ms, exit codes".
measure() {
    local name=$1 signal=$2
    shift 2
    local times=() codes=()
    for _ in $(seq "$REPEAT"); do
        rm -rf "$WORK/cache" "$WORK"/out.*
        "$LOOKAHEAD" --headless --summary-json "$WORK/out.json" --trace-csv "$WORK/out.csv" \
            --cache-dir "$WORK/cache" "$@" >/dev/null 2>&1 &
        local pid=$!
        sleep 0.8
        local start
        start=$(now_ns)
        kill "-$signal" "$pid"
        local code=0
        wait "$pid" || code=$?
        times+=($((($(now_ns) - start) / 1000)))
        codes+=("$code")
        grep -q '"cancelled": true' "$WORK/out.json" || { echo "$name: no cancelled summary" >&2; exit 1; }
    done
    local sorted
    sorted=$(printf '%s\n' "${times[@]}" | sort -n)
    local min median max
    min=$(echo "$sorted" | head -1)
    max=$(echo "$sorted" | tail -1)
    median=$(echo "$sorted" | sed -n "$(((REPEAT + 1) / 2))p")
    awk -v n="$name" -v a="$min" -v m="$median" -v b="$max" -v c="$(printf '%s\n' "${codes[@]}" | sort -u | tr '\n' ' ')" \
        'BEGIN { printf "%-44s %7.1f %7.1f %7.1f ms   exit %s\n", n, a / 1000, m / 1000, b / 1000, c }'
}

printf '%-44s %7s %7s %7s\n' "signal to exit" min median max
measure "simulated, 50 M blocks, tracing, SIGINT" INT --dataset random --pattern-blocks 50000000
measure "simulated, 50 M blocks, tracing, SIGTERM" TERM --dataset random --pattern-blocks 50000000
measure "io_uring, 1 ms/block consumer, SIGINT" INT --dataset random --pattern-blocks 16384 --io uring \
    --consumer-ns 1000000
measure "worker pool, 1 ms/block consumer, SIGTERM" TERM --dataset random --pattern-blocks 16384 --io worker \
    --consumer-ns 1000000
measure "writing a 2 GiB dataset file, SIGTERM" TERM --dataset seq --pattern-blocks 262144 --io sync
