# Shared set-up for the side-by-side benchmarks: a throwaway PostgreSQL in a temp dir (run as
# the postgres user when we are root, since PostgreSQL refuses root), free loopback ports, and
# cleanup of everything started. Source it; it sets here, jar, pgbouncer, pgbin, work, pids.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jar="${SLUICE_JAR:-$here/server/target/sluice.jar}"
[ -f "$jar" ] || { echo "missing $jar: run 'mvn -q package -DskipTests' first" >&2; exit 2; }
pgbouncer=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
[ -x "$pgbouncer" ] || { echo "pgbouncer not installed (apt-get install -y pgbouncer)" >&2; exit 2; }
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
# the JVM options Sluice's launcher uses when JAVA_OPTS is unset, read from the launcher, for a
# bench that sets JAVA_OPTS itself or runs another JVM beside Sluice on the same footing
launcher_java_opts=$(sed -n 's/^JAVA_OPTS=\${JAVA_OPTS-"\(.*\)"}$/\1/p' "$here/server/src/main/dist/bin/sluice")
[ -n "$launcher_java_opts" ] || { echo "cannot read the default JAVA_OPTS from server/src/main/dist/bin/sluice" >&2; exit 2; }

work=$(mktemp -d "/tmp/sluice-$(basename "$0" .sh).XXXXXX"); chmod 755 "$work"
is_root() { [ "$(id -u)" = 0 ]; }
as_pg() { if is_root; then setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; else "$@"; fi; }
# exec form for background servers, so that $! is the server's own pid
exec_as_pg() { if is_root; then exec setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; else exec "$@"; fi; }
is_root && chown postgres: "$work"
# PgBouncer in its own session, as Sluice's launcher puts itself (setsid) and as systemd gives each
# service its own cgroup: with the kernel's autogroup scheduling, a pooler that shares the bench
# script's session shares a CPU group with pgbench, which favours it whenever the machine is busy
# (PgBouncer went from 6k to 11-17k TPS on a loaded 2-core machine by that alone)
run_pgbouncer() { exec_as_pg setsid "$pgbouncer" "$@"; }
# a free port below 32768: above it, the kernel hands out the ephemeral ports of outgoing
# connections, and one of those could take the port between this check and the listen
free_port() {
  python3 -c '
import random, socket
for _ in range(200):
    p = random.randint(20000, 32767); s = socket.socket()
    try:
        s.bind(("127.0.0.1", p)); print(p); break
    except OSError:
        pass
    finally:
        s.close()'
}
pids=()

bench_cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  as_pg "$pgbin/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap bench_cleanup EXIT

# start_postgres PORT: initdb + start; extra postgresql.conf lines come on stdin.
start_postgres() {
  as_pg "$pgbin/initdb" -D "$work/data" -U postgres -A trust >/dev/null
  { printf "listen_addresses = '127.0.0.1'\nport = %s\nunix_socket_directories = '%s'\nfsync = off\nsynchronous_commit = off\n" "$1" "$work"; cat; } \
    >> "$work/data/postgresql.conf"
  as_pg "$pgbin/pg_ctl" -D "$work/data" -l "$work/pg.log" -w start >/dev/null
}

# listening_pid PORT: the pid of the process listening on PORT (the JVM, not Sluice's launcher)
listening_pid() { ss -Hltnp "sport = :$1" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1; }

# cpu_ticks PID: the clock ticks (getconf CLK_TCK a second) of user + system time PID has used
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# cpu_user_ticks PID: "total user", both from one read: cpu_ticks, then its user part alone (the
# pooler's own code; system time is the kernel's work)
cpu_user_ticks() { awk '{print $14 + $15, $14}' "/proc/$1/stat"; }
# pgbench_xacts OUTPUT: the count on pgbench's "number of transactions actually processed" line
# (empty when pgbench failed before printing it)
pgbench_xacts() { sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$1"; }

# start_pooler pgbouncer|sluice|sluice-base INI PORT: starts that pooler on INI, waits until it
# listens on PORT and sets pooler_pid to the listening process. sluice-base runs SLUICE_JAR_BASE
# (this build's jar when unset) with BASE_JAVA_OPTS as its JAVA_OPTS and on the JVM BASE_JAVA names
# (the launcher's SLUICE_JAVA) when set: a second Sluice, to compare two builds, a setting or a JDK
# under the same noise
start_pooler() {
  if [ "$1" = pgbouncer ]; then
    (run_pgbouncer -q "$2") & pids+=($!)
  elif [ "$1" = sluice-base ]; then
    local base_env=(SLUICE_JAR="${SLUICE_JAR_BASE:-$jar}")
    [ -z "${BASE_JAVA_OPTS:-}" ] || base_env+=(JAVA_OPTS="$BASE_JAVA_OPTS")
    [ -z "${BASE_JAVA:-}" ] || base_env+=(SLUICE_JAVA="$BASE_JAVA")
    env "${base_env[@]}" "$here/server/src/main/dist/bin/sluice" -q "$2" & pids+=($!)
  else
    SLUICE_JAR="$jar" "$here/server/src/main/dist/bin/sluice" -q "$2" & pids+=($!)
  fi
  wait_port "$3"
  pooler_pid=$(listening_pid "$3")
}

# start_poolers [base]: PgBouncer and Sluice side by side, and with "base" sluice-base too when
# SLUICE_JAR_BASE or BASE_JAVA_OPTS is set, each on a free port with pgbench_ini's config (in
# $work/<pooler>.ini); sets the array poolers (their names) and the associative arrays
# port[pooler] and pid[pooler] (the listening process)
start_poolers() {
  declare -gA port pid
  poolers=(pgbouncer sluice)
  [ "${1:-}" != base ] || [ -z "${SLUICE_JAR_BASE:-}${BASE_JAVA_OPTS:-}${BASE_JAVA:-}" ] || poolers+=(sluice-base)
  if [ -n "${SLUICE_JAR_BASE:-}" ] && [ ! -f "$SLUICE_JAR_BASE" ]; then
    echo "SLUICE_JAR_BASE: no such jar: $SLUICE_JAR_BASE" >&2; return 2
  fi
  local pooler
  for pooler in "${poolers[@]}"; do
    port[$pooler]=$(free_port)
    pgbench_ini "${port[$pooler]}" > "$work/$pooler.ini"
    is_root && chown postgres: "$work"/*.ini "$work/userlist.txt"
    start_pooler "$pooler" "$work/$pooler.ini" "${port[$pooler]}"
    pid[$pooler]=$pooler_pid
  done
}

# wait_port PORT: until something accepts on 127.0.0.1:PORT (at most 15 s)
wait_port() {
  for _ in $(seq 1 150); do (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0; sleep 0.1; done
  echo "nothing listens on port $1" >&2; return 1
}

# pgbench_cluster: a throwaway PostgreSQL on a free port ($pg_port) with pgbench's tables (scale 10)
pgbench_cluster() {
  pg_port=$(free_port)
  start_postgres "$pg_port" <<<"max_connections = 300"
  "$pgbin/pgbench" -q -i -s 10 -h 127.0.0.1 -p "$pg_port" -U postgres postgres >/dev/null 2>&1
}

# postgres_tls_conf: an RSA-2048 certificate and key for PostgreSQL in $work/pgtls (Debian's
# snakeoil certificate is RSA-2048 too), owned by postgres; prints the postgresql.conf lines that
# turn TLS on with them
postgres_tls_conf() {
  command -v openssl >/dev/null || { echo "TLS to PostgreSQL needs openssl (apt-get install -y openssl)" >&2; return 2; }
  mkdir -p "$work/pgtls"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=bench-postgres" \
    -keyout "$work/pgtls/server.key" -out "$work/pgtls/server.crt" 2>/dev/null
  chmod 600 "$work/pgtls/server.key"; is_root && chown -R postgres: "$work/pgtls"
  printf "ssl = on\nssl_cert_file = '%s'\nssl_key_file = '%s'\n" "$work/pgtls/server.crt" "$work/pgtls/server.key"
}

# pgbench_ini PORT [EXTRA]: the pgbouncer.ini every pooler runs in the pgbench benchmarks (only the
# port differs): database postgres on $pg_port, trust, one transaction-mode pool of 20 (AUTH_TYPE,
# POOL_MODE, POOL_SIZE change them); EXTRA
# lines go under [pgbouncer]
pgbench_ini() {
  cat <<INI
[databases]
postgres = host=127.0.0.1 port=$pg_port dbname=postgres
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $1
unix_socket_dir = $work
auth_type = ${AUTH_TYPE:-trust}
auth_file = $work/userlist.txt
pool_mode = ${POOL_MODE:-transaction}
default_pool_size = ${POOL_SIZE:-20}
max_client_conn = ${MAX_CLIENT_CONN:-600}
log_connections = 0
log_disconnections = 0
${2:-}
INI
}
