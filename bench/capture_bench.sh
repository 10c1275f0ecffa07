#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Tracer overhead benchmark (figures, not a test; docs/trace-import.md, "Capturing"). The same
# O_DIRECT sequential scan of a real file (`lookahead --headless --file F --dataset seq --direct`)
# runs untraced (twice: the second run, "again", shows the noise), under `lookahead capture --tracer kernel` (read calls and device reads), under
# `lookahead capture --tracer kernel --no-calls` (device reads only) and under `lookahead capture --tracer
# strace`, interleaved over ROUNDS rounds so that machine noise hits all three alike, for each of
# --io worker, sync and io_uring. It prints the medians side by side and each tracer's ratio to the
# untraced run, for two times:
#   scan: the scan's own runtime (runtime_ns of its summary), what an observed run measures;
#   wall: the command from start to exit (process start-up and exit included); traced, the time
#         `lookahead capture` states in its `#` line (from the command's release, the tracer's set-up
#         excluded).
# The kernel tracer needs root (or CAP_PERFMON with tracefs); without it its column says why.
#
# Usage: bench/capture_bench.sh [LOOKAHEAD_BINARY]
# Environment: ROUNDS (default 5), SIZE_MIB (default 256), DIR (default: a temporary directory on
# the file system of the current directory; the file must be on a real disk, not a tmpfs).
set -euo pipefail

LOOKAHEAD=$(realpath "${1:-build/app/lookahead}")
ROUNDS=${ROUNDS:-5}
SIZE_MIB=${SIZE_MIB:-256}
WORK=$(mktemp -d "${DIR:-$PWD}/capture-bench-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
FILE=$WORK/data.bin

[[ -x $LOOKAHEAD ]] || { echo "no Lookahead binary at $LOOKAHEAD (build it, or pass its path)" >&2; exit 2; }
[[ $ROUNDS =~ ^[1-9][0-9]*$ && $SIZE_MIB =~ ^[1-9][0-9]*$ ]] ||
    { echo "ROUNDS and SIZE_MIB must be positive integers" >&2; exit 2; }

# Random bytes, written out and synced, so that every block has its place on the disk.
head -c "$((SIZE_MIB << 20))" /dev/urandom >"$FILE"
sync "$FILE"

# The scan's command line for --io $1, into SCAN; its summary goes to $WORK/summary.json.
scan() {
    SCAN=("$LOOKAHEAD" --headless --file "$FILE" --io "$1" --direct --dataset seq --summary-json "$WORK/summary.json")
}

# The scan's runtime in seconds, checked to be the real I/O asked for (no fallback).
scan_seconds() {
    local json=$WORK/summary.json
    if ! grep -q '"fallback_reason": ""' "$json" || grep -q '"error": "[^"]' "$json"; then
        echo "the scan fell back or failed; figures would not compare:" >&2
        cat "$WORK/err.txt" >&2
        exit 1
    fi
    grep -o '"runtime_ns": [0-9]*' "$json" | head -1 | awk '{ printf "%.4f\n", $2 / 1e9 }'
}

# One untraced run: prints "scan wall" (wall by bash's own `time`, no process spawned to read a clock).
untraced() {
    local wall TIMEFORMAT=%3R
    scan "$1"
    wall=$({ time "${SCAN[@]}" >/dev/null 2>"$WORK/err.txt" || { cat "$WORK/err.txt" >&2; exit 1; }; } 2>&1) || exit 1
    echo "$(scan_seconds) $wall"
}

# One traced run with tracer $2: prints "scan wall", or "n/a" with the reason on stderr once.
traced() {
    local out=$WORK/capture-$2
    scan "$1"
    local how=(--tracer "$2")
    [[ $2 == kernel-nc ]] && how=(--tracer kernel --no-calls)
    if ! "$LOOKAHEAD" capture "${how[@]}" --out "$out" --files "$FILE" -- "${SCAN[@]}" >/dev/null 2>"$WORK/err.txt"; then
        echo "n/a"
        return
    fi
    local wall
    wall=$(grep -o '^# the command took [0-9.]* s traced' "$out" | awk '{ print $5 }')
    echo "$(scan_seconds) $wall"
    rm -f "$out"
}

median() {
    sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2];
                                       else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

ratio() {
    if [[ $1 == n/a || $2 == n/a ]]; then echo "n/a"; else awk -v a="$1" -v b="$2" 'BEGIN { printf "x%.3f", a / b }'; fi
}

# Each round's ratio of column $1 of file $2 to the untraced run of the same round, as
# "q1-q3": the middle half of the paired ratios.
paired() {
    [[ -s $2 ]] || { echo "n/a"; return; }
    paste -d' ' <(cut -d' ' -f"$1" "$2") <(cut -d' ' -f"$1" "$WORK/untraced") |
        awk '$1 != "" && $2 > 0 { print $1 / $2 }' | sort -g |
        awk '{ v[NR] = $1 } END { if (NR == 0) { print "n/a"; exit }
                                  printf "%.3f-%.3f\n", v[int((NR + 3) / 4)], v[int((3 * NR + 3) / 4)] }'
}

# The order of the runs within round $1: rotated, so that none is always first after the file was read.
order() {
    local runs=(untraced again kernel kernel-nc strace) i
    for ((i = 0; i < ${#runs[@]}; ++i)); do echo "${runs[(i + $1) % ${#runs[@]}]}"; done
}

echo "Tracer overhead: O_DIRECT sequential scan of a ${SIZE_MIB} MiB file, $ROUNDS interleaved rounds, medians"
echo "file: $FILE ($(df --output=source "$FILE" | tail -1)); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "'again' is the untraced scan run a second time each round: its ratio is this machine's noise, the"
echo "floor under which a tracer's cost cannot be told. Below each ratio of medians, the middle half"
echo "(quartiles) of the per-round ratios; then each tracer against the median of both untraced runs."
printf '%-9s %-5s %9s %9s %9s %9s %9s %10s %10s %10s %10s\n' "--io" "time" "untraced" "again" "kernel" \
    "kernel-nc" "strace" "again/un" "kernel/un" "k-nc/un" "strace/un"
for io in worker sync io_uring; do
    for run in untraced again kernel kernel-nc strace; do : >"$WORK/$run"; done
    for ((round = 0; round < ROUNDS; ++round)); do
        for run in $(order "$round"); do
            case $run in
            untraced | again) result=$(untraced "$io") ;;
            *) result=$(traced "$io" "$run") ;;
            esac
            if [[ $result == n/a ]]; then
                [[ -s $WORK/why-$run ]] || cp "$WORK/err.txt" "$WORK/why-$run"
                result="- -"
            fi
            echo "$result" >>"$WORK/$run"
        done
    done
    for column in 1 2; do
        name=$([[ $column == 1 ]] && echo scan || echo wall)
        declare -A m=()
        for run in untraced again kernel kernel-nc strace; do
            m[$run]=$(cut -d' ' -f$column "$WORK/$run" | grep -v '^-$' | median)
        done
        printf '%-9s %-5s %9s %9s %9s %9s %9s %10s %10s %10s %10s\n' "$io" "$name" "${m[untraced]}" "${m[again]}" \
            "${m[kernel]}" "${m[kernel-nc]}" "${m[strace]}" "$(ratio "${m[again]}" "${m[untraced]}")" \
            "$(ratio "${m[kernel]}" "${m[untraced]}")" "$(ratio "${m[kernel-nc]}" "${m[untraced]}")" \
            "$(ratio "${m[strace]}" "${m[untraced]}")"
        printf '%-9s %-5s %9s %9s %9s %9s %9s %10s %10s %10s %10s\n' "" "" "" "" "" "" "" \
            "$(paired $column "$WORK/again")" "$(paired $column "$WORK/kernel")" \
            "$(paired $column "$WORK/kernel-nc")" "$(paired $column "$WORK/strace")"
        both=$(cut -d' ' -f$column "$WORK/untraced" "$WORK/again" | grep -v '^-$' | median)
        printf '%-9s %-5s %9s %9s %9s %9s %9s %10s %10s %10s %10s\n' "" "" "both: $both" "" "" "" "" "" \
            "$(ratio "${m[kernel]}" "$both")" "$(ratio "${m[kernel-nc]}" "$both")" "$(ratio "${m[strace]}" "$both")"
    done
done
echo "(times in seconds; --io io_uring's reads are not system calls: strace does not see them, its cost there is"
echo " that of stopping the scan at its other calls)"
for tracer in kernel kernel-nc strace; do
    [[ -s $WORK/why-$tracer ]] && { echo "the $tracer tracer could not run:"; sed 's/^/  /' "$WORK/why-$tracer"; }
done
exit 0
