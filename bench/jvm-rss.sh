#!/usr/bin/env bash
# Resident memory of Sluice's JVM (PgBouncer's for reference) at idle and with 500 clients, for
# the JVM settings the packages ship in /etc/default/sluice. One throwaway PostgreSQL; Sluice with
# each JAVA_OPTS in turn, then PgBouncer; per run: RSS 5 s after start (idle), the highest RSS
# sampled each 0.5 s while 500 pgbench clients run select-only on a pool of 20 in transaction
# mode for SECONDS, and RSS 3 s after they left. Loopback only, every run bounded by -T.
#
#   bench/jvm-rss.sh [seconds] ['JAVA_OPTS 1' 'JAVA_OPTS 2' ...]
# Without options it compares the JVM's own defaults with packaging/common/sluice.default.
secs=${1:-20}
shift || true
. "$(dirname "$0")/lib.sh"
defaults_file="$here/packaging/common/sluice.default"
if [ $# -eq 0 ]; then
  shipped=$(. "$defaults_file"; echo "$JAVA_OPTS")
  set -- "" "$shipped"
fi
pg_port=$(free_port)
pooler=
stop_pooler() { [ -n "$pooler" ] && { kill -INT "$pooler" 2>/dev/null || true; wait "$pooler" 2>/dev/null || true; }; pooler=; }
trap 'stop_pooler; bench_cleanup' EXIT

start_postgres "$pg_port" <<CONF
max_connections = 100
CONF
"$pgbin/psql" -X -qAt -h 127.0.0.1 -p "$pg_port" -U postgres -c "create database bench" postgres
"$pgbin/pgbench" -q -i -s 1 -h 127.0.0.1 -p "$pg_port" -U postgres bench >/dev/null 2>&1
printf '"postgres" ""\n' > "$work/userlist.txt"

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

measure() { # $1 label, $2 pid whose RSS counts, $3 port
  sleep 5
  local idle; idle=$(rss_kb "$2")
  "$pgbin/pgbench" -n -S -c 500 -j 2 -T "$secs" -h 127.0.0.1 -p "$3" -U postgres bench > "$work/pgbench.out" 2>&1 &
  local load=$! peak=0 r
  while kill -0 "$load" 2>/dev/null; do
    r=$(rss_kb "$2"); [ "$r" -gt "$peak" ] && peak=$r
    sleep 0.5
  done
  wait "$load" || { echo "pgbench failed:" >&2; tail -5 "$work/pgbench.out" >&2; }
  sleep 3
  printf '%-60s idle %4d MiB  500 clients peak %4d MiB  after %4d MiB  tps %s\n' "$1" $((idle / 1024)) \
    $((peak / 1024)) $(($(rss_kb "$2") / 1024)) "$(awk '/^tps/ {printf "%.0f", $3}' "$work/pgbench.out")"
}

run() { # $1 kind, $2 JAVA_OPTS
  local port; port=$(free_port)
  cat > "$work/p.ini" <<INI
[databases]
bench = host=127.0.0.1 port=$pg_port dbname=bench pool_size=20
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir = $work
auth_type = trust
auth_file = $work/userlist.txt
pool_mode = transaction
max_client_conn = 600
log_connections = 0
log_disconnections = 0
INI
  is_root && chown postgres: "$work/p.ini" "$work/userlist.txt"
  if [ "$1" = pgbouncer ]; then
    (run_pgbouncer -q "$work/p.ini") & pooler=$!
    wait_port "$port" || exit 1
    measure "PgBouncer $("$pgbouncer" -V | head -1 | awk '{print $2}')" "$pooler" "$port"
  else
    JAVA_OPTS="$2" SLUICE_JAR="$jar" "$here/server/src/main/dist/bin/sluice" -q "$work/p.ini" & pooler=$!
    wait_port "$port" || exit 1
    local jvm; jvm=$(pgrep -P "$pooler" java)
    measure "Sluice JAVA_OPTS='${2:-<JVM defaults>}'" "$jvm" "$port"
  fi
  stop_pooler
}

echo "RSS of the pooler process, $(nproc) cores, $(awk '/MemTotal/ {printf "%d MiB", $2/1024}' /proc/meminfo) RAM, $(java -version 2>&1 | head -1)"
for opts in "$@"; do run sluice "$opts"; done
run pgbouncer
