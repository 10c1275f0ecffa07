#!/usr/bin/env bash
# The collapse-map preset's wall time on this machine: a benchmark, not a test (it prints figures).
# Usage: bench/sweep-bench.sh [LOOKAHEAD_BINARY] [JOBS]
set -euo pipefail
lookahead="${1:-build/app/lookahead}"
jobs="${2:-2}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
"$lookahead" sweep collapse-map --out "$out" --jobs "$jobs" --formats none 2>/dev/null >/dev/null
end=$(date +%s.%N)
rows=$(($(wc -l <"$out/sweep.csv") - 1))
awk -v s="$start" -v e="$end" -v rows="$rows" -v jobs="$jobs" 'BEGIN {
    t = e - s
    printf "collapse-map: %d rows (1,500 runs with the baselines, 100,000 blocks each), --jobs %d: %.1f s, %.0f runs/s, %.1f M blocks/s\n", rows, jobs, t, 1500 / t, 1500 * 0.1 / t
}'
