#!/usr/bin/env bash
# Records the traces of this folder from a real PostgreSQL 15 server (Debian's), as README.md says:
# strace and perf of a backend's sequential scan, strace of a backward index scan, and a kernel capture
# of a sequential scan by `lookahead capture --tracer kernel`. Run as root (the server runs as
# postgres; perf and the kernel tracer need root), with the built binary:
#
#     tests/data/traces/record.sh build/app/lookahead
#
# then write their expected summaries (LOOKAHEAD_UPDATE_GOLDEN=1 tests/.../tst_recorded_traces) and
# review both. The traces are written here, over the old ones.
set -euo pipefail
lookahead=$(realpath "$1")
out=$(cd "$(dirname "$0")" && pwd)
bin=/usr/lib/postgresql/15/bin
work=$(mktemp -d /var/tmp/lookahead-record.XXXXXX) # on a disk: the kernel tracer maps extents
trap 'runuser -u postgres -- "$bin/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
chown postgres: "$work"
runuser -u postgres -- "$bin/initdb" -D "$work/data" -A trust -U postgres --no-sync --no-instructions >/dev/null
cat >>"$work/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$work'
port = 5499
autovacuum = off
max_parallel_workers_per_gather = 0
shared_buffers = 128MB
CONF
runuser -u postgres -- "$bin/pg_ctl" -D "$work/data" -w -l "$work/log" start >/dev/null
psql=("$bin/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$work" -p 5499 -U postgres -d postgres)
# s: 600 pages in order, for the sequential scans; t: 20,000 rows in hash order (each key on another
# page than the last) with an index, for the backward index scan. Both small: the traces stay small.
"${psql[@]}" -c "CREATE TABLE s(a int8, pad text);
    INSERT INTO s SELECT i, repeat('s', 200) FROM generate_series(1, 18000) i;
    CREATE TABLE t(a int8, pad text);
    INSERT INTO t SELECT i, repeat('t', 200) FROM generate_series(1, 20000) i ORDER BY hashint8(i);
    CREATE INDEX t_a ON t(a);"
"${psql[@]}" -c "VACUUM (FREEZE, ANALYZE) s" -c "VACUUM (FREEZE, ANALYZE) t" -c CHECKPOINT
heap_s="$work/data/$("${psql[@]}" -c "SELECT pg_relation_filepath('s')")"

# Each recording: a fresh server (empty shared buffers), the table's file out of the OS cache, one
# psql session whose backend is traced while it runs QUERY. The tracer is attached after the session
# has planned the query once, so the trace holds the execution's reads; it ends with the backend.
# record NAME SETTINGS QUERY TRACER...   (TRACER's arguments; @PID@ stands for the backend's pid)
record() {
    local name=$1 settings=$2 query=$3
    shift 3
    runuser -u postgres -- "$bin/pg_ctl" -D "$work/data" -w -l "$work/log" restart >/dev/null
    sync && echo 3 >/proc/sys/vm/drop_caches
    coproc session { "${psql[@]}" 2>&1; }
    echo "$settings EXPLAIN $query; SELECT 'planned', pg_backend_pid();" >&"${session[1]}"
    local line pid=""
    while read -r line <&"${session[0]}"; do
        echo "  $line" >&2
        [[ $line == planned\|* ]] && { pid=${line#planned|}; break; }
    done
    local args=("${@//@PID@/$pid}")
    : >"$work/tracer.err"
    "${args[@]}" 2>"$work/tracer.err" &
    local tracer=$!
    # Until the tracer says it is attached (strace, lookahead capture); perf trace says nothing.
    for _ in $(seq 50); do
        grep -q -e attached -e capturing "$work/tracer.err" && break
        sleep 0.1
    done
    echo "$query; SELECT 'done';" >&"${session[1]}"
    while read -r line <&"${session[0]}"; do [[ $line == done ]] && break; done
    echo '\q' >&"${session[1]}"
    wait "$session_PID" || true
    for _ in $(seq 100); do kill -0 "$tracer" 2>/dev/null || break; sleep 0.1; done
    kill -INT "$tracer" 2>/dev/null || true
    wait "$tracer" || true
    cat "$work/tracer.err" >&2
    echo "$name: $(wc -c <"$out/$name") bytes" >&2
}

seq_scan="SELECT count(*) FROM s"
backward="SELECT * FROM t WHERE a <= 1500 ORDER BY a DESC"
index_only="SET enable_seqscan = off; SET enable_bitmapscan = off;"
record pg15-seq-scan.strace "" "$seq_scan" \
    strace -f -ttt -T -yy -e trace=pread64,preadv,preadv2 -o "$out/pg15-seq-scan.strace" -p @PID@
record pg15-seq-scan.perf "" "$seq_scan" \
    perf trace -e pread64,preadv -o "$out/pg15-seq-scan.perf" -p @PID@
record pg15-backward-index-scan.strace "$index_only" "$backward" \
    strace -f -ttt -T -yy -e trace=pread64,preadv,preadv2 -o "$out/pg15-backward-index-scan.strace" -p @PID@
record pg15-seq-scan.kernel "" "$seq_scan" \
    "$lookahead" capture --tracer kernel --pid @PID@ --files "$heap_s" --out "$out/pg15-seq-scan.kernel"
