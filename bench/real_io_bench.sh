#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Real-I/O benchmark (figures, not a test). On a 1 GiB dataset file it runs Lookahead's io_uring
# backend and, if fio is installed, fio with the same pattern and queue depth, side by side, and
# prints the ratios the real-I/O issue asks for:
#   forward sequential: fixed:<max_pinned>, uring, O_DIRECT  vs  fio rw=read bs=128k iodepth=<eic>
#   random, 1-block reads: same policy                        vs  fio rw=randread bs=8k iodepth=<eic>
#   backward vs forward wall time, with and without --backward-combining (and fio replaying the
#   same 128 kB reads backward and forward, for the device's own cost of reading backwards)
#   pg18 vs adaptive on sparse-miss:16
# Each figure is the median of REPEAT runs, interleaved so machine noise hits both sides alike.
#
# Usage: bench/real_io_bench.sh [LOOKAHEAD_BINARY]
# Environment: REPEAT (default 5), EIC (default 16), CACHE_DIR (default: a directory under
# ${XDG_CACHE_HOME:-~/.cache}/lookahead; the 1 GiB file is written there once and reused).
set -euo pipefail
cd "$(dirname "$0")/.."

LOOKAHEAD=${1:-build/app/lookahead}
REPEAT=${REPEAT:-5}
EIC=${EIC:-16}
CACHE_DIR=${CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/lookahead/bench}
BLOCKS=131072                     # 1 GiB of 8 kB blocks
MAX_PINNED=$(((EIC + 1) * 16))    # PostgreSQL 18's (max_ios + 1) * io_combine_limit
FILE=$CACHE_DIR/synthetic-1-0-$BLOCKS.heap # every pattern of one size shares its file
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

[[ -x $LOOKAHEAD ]] || { echo "no Lookahead binary at $LOOKAHEAD (build it, or pass its path)" >&2; exit 2; }
HAVE_FIO=0
command -v fio >/dev/null && HAVE_FIO=1

# Runs Lookahead headless on the 1 GiB pattern file; prints the scan's wall time in seconds.
lookahead() {
    local json=$WORK/summary.json
    "$LOOKAHEAD" --headless --io uring --cache-dir "$CACHE_DIR" --pattern-blocks $BLOCKS --eic "$EIC" \
        --summary-json "$json" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" ||
        { cat "$WORK/out.txt" "$WORK/err.txt" >&2; exit 1; }
    if grep -q '"error"' "$json" || grep -q '"fallback_reason": "[^"]' "$json"; then
        echo "lookahead $*: error or fallback, figures would not compare:" >&2
        cat "$WORK/out.txt" "$WORK/err.txt" >&2
        exit 1
    fi
    grep -o '"runtime_ns": [0-9]*' "$json" | head -1 | awk '{ printf "%.4f\n", $2 / 1e9 }'
}

# Runs fio with io_uring and O_DIRECT on the same file; prints its read time in seconds.
fio_read() {
    fio --name=bench --filename="$FILE" --readonly --size=1G --direct=1 --ioengine=io_uring \
        --iodepth="$EIC" --rw="$1" --bs="$2" --output-format=terse --terse-version=3 |
        awk -F';' '{ printf "%.4f\n", $9 / 1000 }'
}

# fio replaying 128 kB reads of the whole file in ascending or descending order (fio has no
# backward mode): the device's own cost of reading backwards, to judge Lookahead's against.
fio_replay() {
    local log=$WORK/$1.iolog
    {
        echo "fio version 2 iolog"
        echo "$FILE add"
        echo "$FILE open"
        if [[ $1 == forward ]]; then seq 0 $((BLOCKS / 16 - 1)); else seq $((BLOCKS / 16 - 1)) -1 0; fi |
            awk -v f="$FILE" '{ print f " read " $1 * 131072 " 131072" }'
        echo "$FILE close"
    } >"$log"
    fio --name=replay --read_iolog="$log" --readonly --direct=1 --ioengine=io_uring --iodepth="$EIC" \
        --replay_no_stall=1 --output-format=terse --terse-version=3 | awk -F';' '{ printf "%.4f\n", $9 / 1000 }'
}

median() { tr ' ' '\n' <<<"$*" | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "Lookahead $("$LOOKAHEAD" --version | awk '{ print $2 }'), eic $EIC, max_pinned $MAX_PINNED, $REPEAT runs each"
echo "dataset file: $FILE (1 GiB, written on first use)"
lookahead --dataset seq --policy pg18 >/dev/null # write (or check) the file before timing anything

fixed=(--policy "fixed:$MAX_PINNED" --max-pinned "$MAX_PINNED" --consumer-ns 0 --direct)
declare -A t
for ((i = 0; i < REPEAT; ++i)); do
    t[seq]+=" $(lookahead --dataset seq "${fixed[@]}")"
    t[rnd]+=" $(lookahead --dataset random "${fixed[@]}")"
    t[back]+=" $(lookahead --dataset seq --direction backward "${fixed[@]}")"
    t[backc]+=" $(lookahead --dataset seq --direction backward --backward-combining "${fixed[@]}")"
    t[pg18]+=" $(lookahead --dataset sparse-miss:16 --policy pg18 --direct)"
    t[adaptive]+=" $(lookahead --dataset sparse-miss:16 --policy adaptive --direct)"
    if ((HAVE_FIO)); then
        t[fseq]+=" $(fio_read read 128k)"
        t[frnd]+=" $(fio_read randread 8k)"
        t[ffwd]+=" $(fio_replay forward)"
        t[fback]+=" $(fio_replay backward)"
    fi
done
declare -A m
for key in "${!t[@]}"; do m[$key]=$(median ${t[$key]}); done

echo
printf '%-58s %10s %10s %8s  %s\n' "comparison" "Lookahead" "other" "ratio" "goal"
# A row: its label, the keys in m of Lookahead's and the other's seconds, of the ratio's numerator and
# denominator, and the goal.
row() {
    printf '%-58s %9ss %9ss %7sx  %s\n' "$1" "${m[$2]}" "${m[$3]}" "$(ratio "${m[$4]}" "${m[$5]}")" "$6"
}
if ((HAVE_FIO)); then
    row "forward seq, uring direct vs fio read bs=128k qd=$EIC" seq fseq fseq seq ">= 0.9 (fio time / ours)"
    row "random 1-block, uring direct vs fio randread bs=8k qd=$EIC" rnd frnd frnd rnd ">= 0.9 (fio time / ours)"
else
    echo "fio is not installed: no fio comparison (Lookahead forward ${m[seq]} s, random ${m[rnd]} s)"
fi
row "backward vs forward, no combining" back seq back seq "(1-block reads)"
row "backward vs forward, --backward-combining" backc seq backc seq "<= 1.1"
if ((HAVE_FIO)); then
    row "fio replay: 128 kB reads backward vs forward, qd=$EIC" fback ffwd fback ffwd \
        "(the device's own cost; both fio)"
fi
row "sparse-miss:16: adaptive vs pg18" adaptive pg18 adaptive pg18 "(adaptive time / pg18)"
echo
echo "raw seconds:"
for key in seq fseq rnd frnd back backc ffwd fback pg18 adaptive; do
    [[ -n ${t[$key]:-} ]] && printf '  %-9s%s\n' "$key" "${t[$key]}"
done
