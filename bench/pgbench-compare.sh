#!/usr/bin/env bash
# Side-by-side pgbench select-only through PgBouncer and through Sluice, on one throwaway
# PostgreSQL, same pgbouncer.ini (only the port differs). Prints TPS and latency for each
# client count and the Sluice/PgBouncer ratios. Loopback only; every run is bounded by -T.
#
#   bench/pgbench-compare.sh [seconds-per-run] [client counts...]
#   e.g. bench/pgbench-compare.sh 15 1 50 200
#
# Needs: server/target/sluice.jar (mvn -q package -DskipTests), pgbouncer, PostgreSQL binaries.
secs=${1:-15}; shift || true
clients=("$@"); [ ${#clients[@]} -gt 0 ] || clients=(1 50 200)
. "$(dirname "$0")/lib.sh"
pg_port=$(free_port); pgb_port=$(free_port); sl_port=$(free_port)
start_postgres "$pg_port" <<<"max_connections = 300"
"$pgbin/pgbench" -q -i -s 10 -h 127.0.0.1 -p "$pg_port" -U postgres postgres >/dev/null 2>&1

ini() { # $1 = listen port
  cat <<INI
[databases]
postgres = host=127.0.0.1 port=$pg_port dbname=postgres
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $1
unix_socket_dir = $work
auth_type = trust
auth_file = $work/userlist.txt
pool_mode = transaction
default_pool_size = 20
max_client_conn = 600
log_connections = 0
log_disconnections = 0
INI
}
echo '"postgres" ""' > "$work/userlist.txt"
ini "$pgb_port" > "$work/pgbouncer.ini"
ini "$sl_port" > "$work/sluice.ini"
[ "$(id -u)" = 0 ] && chown postgres: "$work"/*.ini "$work/userlist.txt"
(exec_as_pg "$pgbouncer" -q "$work/pgbouncer.ini") & pids+=($!)
SLUICE_JAR="$jar" "$here/server/src/main/dist/bin/sluice" -q "$work/sluice.ini" & pids+=($!)
wait_port "$pgb_port"; wait_port "$sl_port"

run() { # $1 port, $2 clients -> "tps lat_ms"
  local out
  out=$("$pgbin/pgbench" -n -S -M extended -c "$2" -j 2 -T "$secs" -h 127.0.0.1 -p "$1" -U postgres postgres 2>&1)
  local tps lat
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")
  lat=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$out")
  echo "${tps:-0} ${lat:-0}"
}

printf '%-8s %14s %14s %14s %14s %8s\n' clients pgb_tps pgb_lat_ms sluice_tps sluice_lat_ms ratio
for c in "${clients[@]}"; do
  read -r pt pl < <(run "$pgb_port" "$c")
  read -r st sl < <(run "$sl_port" "$c")
  ratio=$(python3 -c "print(f'{$st/$pt:.2f}' if $pt else 'n/a')")
  printf '%-8s %14s %14s %14s %14s %8s\n' "$c" "$pt" "$pl" "$st" "$sl" "$ratio"
done
