#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The picture of issue 11: a real hash-clustered table scanned backward through its btree with pg18,
# the stream reset at every leaf page (the "simple" 2025 patch) beside one stream across leaf pages
# (the "complex" patch). Builds the table with a throwaway PostgreSQL 15 in a temporary directory
# (socket only, removed at exit), then exports one PNG per mode and puts them side by side.
#
# Needs postgresql-15 and ImageMagick's convert (Debian: imagemagick).
# Usage: bench/pg-batches-figure.sh OUT.png [LOOKAHEAD_BINARY]
# Environment: ROWS (default 200000), PG_BIN (default /usr/lib/postgresql/15/bin).
set -euo pipefail
OUT=$(realpath -m "$1")
BIN=$(realpath "${2:-build/app/lookahead}")
ROWS=${ROWS:-200000}
. "$(dirname "$0")/temp_pg.sh"
start_temp_pg
psql "CREATE TABLE t(a int8, pad text);
      INSERT INTO t SELECT i, repeat('x', 100) FROM generate_series(1, $ROWS) i ORDER BY hashint8(i);
      CREATE INDEX idx ON t(a); CHECKPOINT;"
HEAP=$(psql "SELECT pg_relation_filepath('t')")
INDEX=$(psql "SELECT pg_relation_filepath('idx')")
for mode in reset continue; do
    "$BIN" --pg-datadir "$WORK/data" --pg-index "$INDEX" --pg-heap "$HEAP" --direction backward \
        --index-batches "$mode" --policy pg18 --png-size 1000x900 --export-png "$WORK/$mode.png" | tail -n 1
done
convert "$WORK/reset.png" "$WORK/continue.png" +append "$OUT"
echo "wrote $OUT"
