#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# What recording costs on a real PostgreSQL 15 (docs/recording.md): a cold backward index scan of a
# hash-clustered table and a cold sequential scan, each run untraced (EXPLAIN ANALYZE after a restart
# and an emptied OS cache) and recorded with strace and with the kernel tracer (lookahead record
# --cold after a restart), interleaved over ROUNDS rounds. Prints each round's execution times, the
# medians and the ratios to untraced, and the recording's wall time. Needs root (the kernel tracer,
# dropping the OS cache). Usage: bench/record_bench.sh [ROUNDS] (default 5), from the source tree
# after a build.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
LOOKAHEAD=${LOOKAHEAD:-build/app/lookahead}
[[ $(id -u) == 0 ]] || { echo "record_bench: run as root (the kernel tracer and drop_caches need it)" >&2; exit 2; }
. bench/temp_pg.sh
start_temp_pg
psql "CREATE TABLE t(a int8, pad text);
      INSERT INTO t SELECT g, repeat('x', 200) FROM generate_series(1, 100000) g ORDER BY hashint8(g);
      CREATE INDEX t_a ON t(a)"
psql "VACUUM ANALYZE t"
psql "CHECKPOINT"

restart() { "${AS[@]}" "$PG_BIN/pg_ctl" -D "$WORK/data" -m fast -w restart >/dev/null; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
ms() { python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Execution Time"])'; }

declare -A QUERY=(
    [index]="SELECT * FROM t WHERE a <= 20000 ORDER BY a DESC"
    [seq]="SELECT count(pad) FROM t"
)
declare -A OFF=([index]="enable_bitmapscan enable_seqscan" [seq]="enable_bitmapscan enable_indexscan enable_indexonlyscan")
for scan in index seq; do
    query=${QUERY[$scan]}
    set_args=()
    settings=""
    for name in ${OFF[$scan]}; do
        set_args+=(--set "$name=off")
        settings+="SET $name = off; "
    done
    : >"$WORK/untraced" && : >"$WORK/strace" && : >"$WORK/kernel" && : >"$WORK/wall"
    for round in $(seq "$ROUNDS"); do
        restart
        sync && echo 3 >/proc/sys/vm/drop_caches
        untraced=$(psql "$settings EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) $query" | ms)
        echo "$untraced" >>"$WORK/untraced"
        line="$scan round $round: untraced $untraced ms"
        for tracer in strace kernel; do
            restart
            start=$(date +%s%N)
            "$LOOKAHEAD" record --conninfo "host=$WORK dbname=postgres user=postgres" --query "$query" \
                "${set_args[@]}" --cold --tracer "$tracer" --summary-json "$WORK/r.json" >/dev/null 2>&1
            end=$(date +%s%N)
            traced=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["recorded"]["plan"]["traced"][0]["Execution Time"])' "$WORK/r.json")
            echo "$traced" >>"$WORK/$tracer"
            [[ $tracer == strace ]] && echo "$(( (end - start) / 1000000 ))" >>"$WORK/wall"
            line+=", $tracer $traced ms"
        done
        echo "$line"
    done
    u=$(median <"$WORK/untraced") s=$(median <"$WORK/strace") k=$(median <"$WORK/kernel") w=$(median <"$WORK/wall")
    printf '%s: median untraced %.1f ms, strace %.1f ms (%.2fx), kernel %.1f ms (%.2fx); a recording takes %s ms\n' \
        "$scan" "$u" "$s" "$(echo "$s / $u" | bc -l)" "$k" "$(echo "$k / $u" | bc -l)" "$w"
done
