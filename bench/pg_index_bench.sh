#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Index parse speed and peak memory on a >= 1 GB btree (figures, not a test). Builds the index with a
# throwaway PostgreSQL 15 in a temporary directory (socket only, removed at exit), CHECKPOINTs, then
# runs lookahead-pg-index-bench on the index's files: the first pass reads them from the device or
# the page cache as it finds them, later passes from the page cache.
#
# Usage: bench/pg_index_bench.sh [BENCH_BINARY]
# Environment: ROWS (default 50000000: a 1.1 GB int8 index, two segment files), REPEAT (default 3),
# PG_BIN (default /usr/lib/postgresql/15/bin).
set -euo pipefail
cd "$(dirname "$0")/.."

BENCH=$(realpath "${1:-build/bench/lookahead-pg-index-bench}")
ROWS=${ROWS:-50000000}
REPEAT=${REPEAT:-3}
[[ -x $BENCH ]] || { echo "no bench binary at $BENCH (build it, or pass its path)" >&2; exit 2; }
. bench/temp_pg.sh
start_temp_pg "maintenance_work_mem = 1GB"
cd "$WORK"
echo "building a $ROWS-row int8 index..." >&2
psql "CREATE TABLE t(a int8); INSERT INTO t SELECT g FROM generate_series(1, $ROWS) g;"
psql "CREATE INDEX t_a ON t(a);"
psql "CHECKPOINT;"
INDEX="$WORK/data/$(psql "SELECT pg_relation_filepath('t_a')")"
echo "index $(psql "SELECT pg_size_pretty(pg_relation_size('t_a'))") in $(ls "$INDEX"* | wc -l) segment file(s)" >&2
"$BENCH" "$INDEX" "$REPEAT"
# A narrow range at the far end of the keys: the descent reaches it without walking the leaves.
"$BENCH" "$INDEX" 1 "$((ROWS - 1000)):$ROWS"
