# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the bench scripts that need a throwaway PostgreSQL: start_temp_pg [EXTRA_CONF_LINE...]
# initdb's a cluster in a new temporary directory ($WORK), starts it on a socket only (no TCP),
# stops it and removes the directory at exit, and defines psql SQL (one query, unaligned output).
# Environment: PG_BIN (default /usr/lib/postgresql/15/bin).
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

start_temp_pg() {
    WORK=$(mktemp -d)
    AS=()
    if [[ $(id -u) == 0 ]]; then
        chown postgres: "$WORK"
        AS=(runuser -u postgres --)
    fi
    trap '"${AS[@]}" "$PG_BIN/pg_ctl" -D "$WORK/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
    "${AS[@]}" "$PG_BIN/initdb" -D "$WORK/data" -A trust -U postgres --no-sync --no-instructions >/dev/null
    printf "listen_addresses = ''\nunix_socket_directories = '%s'\nautovacuum = off\nfsync = off\n" "$WORK" \
        >>"$WORK/data/postgresql.conf"
    local line
    for line in "$@"; do
        echo "$line" >>"$WORK/data/postgresql.conf"
    done
    "${AS[@]}" "$PG_BIN/pg_ctl" -D "$WORK/data" -l "$WORK/server.log" -w start >/dev/null
}

psql() { "$PG_BIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -h "$WORK" -U postgres -d postgres -c "$1"; }
