#!/usr/bin/env bash
# Two users on one database with max_db_connections = 10, through PgBouncer and through Sluice
# (same pgbouncer.ini; a second Sluice run adds the coordinator's own keys). User A fills the
# database and goes idle; user B then bursts. Prints, per pooler: B's client errors, B's p99
# transaction latency (which is where the wait for a server shows), backends PostgreSQL created
# for the database during B's burst, and the most backends seen at once. Loopback only; every
# pgbench run is bounded by -T and query_wait_timeout.
#
#   bench/coordinator-burst.sh [a-seconds] [b-seconds] [b-clients]
#   e.g. bench/coordinator-burst.sh 5 10 20
#
# Needs: server/target/sluice.jar (mvn -q package -DskipTests), pgbouncer, PostgreSQL binaries.
a_secs=${1:-5}; b_secs=${2:-10}; b_clients=${3:-20}
. "$(dirname "$0")/lib.sh"
pg_port=$(free_port)
start_postgres "$pg_port" <<CONF
max_connections = 100
log_connections = on
CONF
psql_pg() { "$pgbin/psql" -X -q -A -t -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -c "$1"; }
psql_pg "create role a login"; psql_pg "create role b login"; psql_pg "create database app"
echo 'select pg_sleep(0.05);' > "$work/a.sql"
echo 'select pg_sleep(0.01);' > "$work/b.sql"
printf '"a" ""\n"b" ""\n"postgres" ""\n' > "$work/userlist.txt"

ini() { # $1 = listen port, $2 = extra lines
  cat <<INI
[databases]
app = host=127.0.0.1 port=$pg_port dbname=app
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $1
unix_socket_dir = $work
auth_type = trust
auth_file = $work/userlist.txt
pool_mode = transaction
default_pool_size = 20
max_db_connections = 10
max_client_conn = 200
admin_users = postgres
query_wait_timeout = 60
log_connections = 0
log_disconnections = 0
$2
INI
}


# One scenario: A fills the database, goes idle, B bursts. Prints the row.
scenario() { # $1 label, $2 kind (pgbouncer|sluice), $3 extra ini lines
  local port; port=$(free_port)
  ini "$port" "$3" > "$work/$1.ini"
  [ "$(id -u)" = 0 ] && chown postgres: "$work"/*.ini "$work/userlist.txt"
  if [ "$2" = pgbouncer ]; then
    (run_pgbouncer -q "$work/$1.ini") & pids+=($!)
  else
    SLUICE_JAR="$jar" "$here/server/src/main/dist/bin/sluice" -q "$work/$1.ini" & pids+=($!)
  fi
  local srv=${pids[-1]}
  wait_port "$port"
  "$pgbin/pgbench" -n -c 10 -j 2 -T "$a_secs" -f "$work/a.sql" -h 127.0.0.1 -p "$port" -U a app >/dev/null 2>&1 || true
  local before; before=$(grep -c 'connection authorized: user=[ab] database=app' "$work/pg.log" || true)
  # sample the backend count of the database while B runs
  ( max=0; while [ ! -f "$work/stop" ]; do
      n=$(psql_pg "select count(*) from pg_stat_activity where datname='app' and backend_type='client backend'" || echo 0)
      [ "$n" -gt "$max" ] && max=$n; echo "$max" > "$work/max"; sleep 0.1; done ) &
  local sampler=$!
  rm -f "$work"/b_log*
  local out
  out=$("$pgbin/pgbench" -n -c "$b_clients" -j 2 -T "$b_secs" -f "$work/b.sql" -l --log-prefix="$work/b_log" \
          -h 127.0.0.1 -p "$port" -U b app 2>&1 || true)
  touch "$work/stop"; wait "$sampler" 2>/dev/null || true; rm -f "$work/stop"
  local after; after=$(grep -c 'connection authorized: user=[ab] database=app' "$work/pg.log" || true)
  local errors; errors=$( (grep -c -i 'error\|aborted' <<<"$out" || true) )
  local failed; failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' <<<"$out")
  local p99; p99=$(cat "$work"/b_log* 2>/dev/null | python3 -c '
import sys
v=sorted(int(l.split()[2]) for l in sys.stdin if l.strip())
print(f"{v[min(len(v)-1,int(len(v)*0.99))]/1000:.1f}" if v else "n/a")')
  local txns; txns=$(pgbench_xacts "$out")
  printf '%-28s %8s %8s %10s %12s %12s\n' "$1" "${errors}" "${txns:-0}" "$p99" "$((after - before))" "$(cat "$work/max")"
  if [ "$2" = sluice ]; then
    for q in "show pool_coordinator" "show pool_scaling"; do
      "$pgbin/psql" -X -A -h 127.0.0.1 -p "$port" -U postgres -d pgbouncer -c "$q" | sed 's/^/    /' >> "$work/details"
    done
  fi
  kill "$srv" 2>/dev/null || true; wait "$srv" 2>/dev/null || true
  psql_pg "select pg_terminate_backend(pid) from pg_stat_activity where datname='app'" >/dev/null
}

printf '%-28s %8s %8s %10s %12s %12s\n' pooler b_errors b_txns b_p99_ms b_backends max_backends
scenario pgbouncer pgbouncer ""
scenario sluice-same-ini sluice ""
scenario sluice-reserve2-floor1s sluice $'db_reserve_pool_size = 2\nmin_connection_lifetime = 1'
echo; echo "Sluice counters after each Sluice run (SHOW POOL_COORDINATOR, SHOW POOL_SCALING):"
cat "$work/details"
