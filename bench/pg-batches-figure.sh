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
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
WORK=$(mktemp -d)
AS=()
if [[ $(id -u) == 0 ]]; then
    chown postgres: "$WORK"
    AS=(runuser -u postgres --)
fi
cleanup() { "${AS[@]}" "$PG_BIN/pg_ctl" -D "$WORK/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT
"${AS[@]}" "$PG_BIN/initdb" -D "$WORK/data" -A trust -U postgres --no-sync --no-instructions >/dev/null
printf "listen_addresses = ''\nunix_socket_directories = '%s'\nautovacuum = off\nfsync = off\n" "$WORK" \
    >>"$WORK/data/postgresql.conf"
"${AS[@]}" "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w start >/dev/null
psql() { "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$WORK" -U postgres -d postgres -c "$1"; }
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
