#!/usr/bin/env bash
# Runs the libFuzzer targets of the fuzz preset, FUZZ_JOBS at a time, each for FUZZ_SECONDS (45 by
# default), on its seed corpus and its regressions (tests/fuzz/README.md). New inputs go to a
# scratch directory, never into the repository. Exits 1 if any target crashed, hung or ran out of
# memory, after printing its report and where the input that did it was kept.
#   tests/fuzz/run.sh [TARGET...]     (default: every target with a corpus; TARGET as strace_line)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${FUZZ_SECONDS:-45}"
# A fixed seed by default: CI mutates the same way each run, so a failure it reports is found again
# by the same command; FUZZ_SEED=0 lets libFuzzer pick one (longer campaigns by hand).
seed="${FUZZ_SEED:-1}"
build="${FUZZ_BUILD:-build-fuzz}"
out="${FUZZ_OUT:-$build/fuzz-runs}"
if (($# > 0)); then
    targets=("$@")
else
    mapfile -t targets < <(ls tests/fuzz/corpus)
fi

# Runs one target; its verdict and report go to its work directory, read once all have finished.
fuzz_one() {
    local target=$1 binary="$build/tests/fuzz/fuzz_$1" work="$out/$1"
    rm -rf "$work" && mkdir -p "$work/corpus" "$work/artifacts"
    local inputs=("tests/fuzz/corpus/$target")
    [[ -d "tests/fuzz/regressions/$target" ]] && inputs+=("tests/fuzz/regressions/$target")
    local options=()
    [[ -f "tests/fuzz/dict/$target.dict" ]] && options+=("-dict=tests/fuzz/dict/$target.dict")
    # -timeout: one input may take 10 s before it counts as a hang; -rss_limit_mb: 2 GB is a leak of
    # memory bounded by nothing in the input (issue 22's "memory stays bounded").
    if "$binary" -max_total_time="$seconds" -seed="$seed" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
        "${options[@]}" -artifact_prefix="$work/artifacts/" "$work/corpus" "${inputs[@]}" >"$work/log" 2>&1; then
        echo ok >"$work/status"
    else
        echo FAILED >"$work/status"
    fi
}

# FUZZ_JOBS targets at a time (1 by default; CI runs 2, one per core).
parallel="${FUZZ_JOBS:-1}"
running=0
for target in "${targets[@]}"; do
    if ((running >= parallel)); then
        wait -n || true
        running=$((running - 1))
    fi
    fuzz_one "$target" &
    running=$((running + 1))
done
wait

failed=()
for target in "${targets[@]}"; do
    work="$out/$target"
    status=$(cat "$work/status" 2>/dev/null || echo FAILED)
    [[ $status == ok ]] || failed+=("$target")
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" 2>/dev/null | grep -o '[0-9]*$' || echo "?")
    echo "fuzz_$target: $status, $runs executions in ${seconds}s"
    if [[ $status == FAILED ]]; then
        grep -v '^#[0-9]' "$work/log" | tail -n 60
        echo "fuzz_$target: the input is in $work/artifacts/ ($(ls "$work/artifacts" | head -n 3 | tr '\n' ' '))"
        echo "fuzz_$target: once fixed, copy it to tests/fuzz/regressions/$target/ (a ctest replays it)"
    fi
done
((${#failed[@]} == 0)) || { echo "fuzz targets that failed: ${failed[*]}"; exit 1; }
