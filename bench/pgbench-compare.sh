#!/usr/bin/env bash
# Side-by-side pgbench (select-only unless BUILTIN is set) through PgBouncer and through Sluice
# (and, to compare two builds, a second Sluice from another jar), on one throwaway PostgreSQL, same
# pgbouncer.ini (only the port differs). Loopback only; every run is bounded by -T.
#
# One run is noise: for each client count the poolers take turns, ROUNDS times (the order
# rotates each round, so none always runs first), and the summary gives per pooler the median
# TPS, median average latency and median pooler CPU time per transaction (user + system of the
# listening process over the run, divided by the transactions pgbench counted) of its runs, and
# of that CPU time the user part (the pooler's own code; the rest is the kernel's socket work),
# then the ratios Sluice/PgBouncer and Sluice/base (medians; > 1 means more TPS or more
# latency). Each pooler first gets one unmeasured warm-up run of WARMUP seconds (30 by default),
# so a cold JVM is not what gets measured: with -S at 50 clients Sluice's C2 compiler thread
# spent 2.3 s of CPU in the first 10 s of load, 0.34 s in the next 10 and 0.13 s in the 10 after
# (0.03 s and less after that); with the earlier default of 5 s the first measured round carried
# a few per cent of compiling in its CPU per transaction, and a pooler's first round in the
# rotation was its slowest.
#
# MODE=simple runs pgbench's simple protocol instead of extended. FLOOR=1 adds bench/NettyFloor.java,
# a bare Netty relay with one server connection per client that reads no protocol message: the
# least any pooler built on Netty can cost. Compare it with POOL_MODE=session POOL_SIZE=<clients>,
# so that every pooler keeps one server connection per client as the floor does. Idle session
# servers stay open between runs, so the poolers hold up to 3 x clients of the cluster's 300
# connections: keep clients at 90 or fewer there. FLOOR=login adds bench/LoginFloor.java as the
# floor instead: a Netty server that answers trust logins and every query itself, with no server
# behind it, so that with CONNECT=1 its CPU per login is the least any pooler on Netty can spend
# on one (its TPS is not comparable: no query reaches PostgreSQL). FLOOR=pooled adds
# bench/PooledFloor.java: logins answered the same way, each transaction relayed to PostgreSQL
# through a pool of POOL_SIZE servers as a transaction pooler relays it, so that with CONNECT=1
# it is the least a transaction pooler on Netty can spend on a login and its query (with
# CLIENT_AUTH=scram-sha-256 its clients log in with SCRAM against the auth file's secret).
# FLOOR_JAVA_OPTS=... adds JVM options to the floor's (e.g. -Dsluice.io=epoll for the other transport).
#
# BASE_JAVA_OPTS=... runs the base Sluice (SLUICE_JAR_BASE, or this build's jar when that is unset)
# with those JVM options instead of the launcher's, to compare a JVM or Netty setting side by side.
# BASE_JAVA=/path/to/bin/java runs it on that JVM instead (the launcher's SLUICE_JAVA), to compare
# JDKs; SLUICE_JAVA in the environment sets the JVM of the Sluice under test.
#
# CONNECT=1 adds pgbench -C: a new connection for every transaction (issue 21's logins), so the
# CPU figure is per login and transaction. CONNECT=only logs in and out with no query at all (a
# pgbench script of one \set): the login alone, without the server checkout and the relay of a
# first query that CONNECT=1 adds to each.
#
# CLIENT_AUTH=scram-sha-256 has the clients log in with SCRAM (issue 21's logins "with SCRAM"):
# userlist.txt holds PostgreSQL's own SCRAM secret of the password pgbench sends, as a
# userlist copied from pg_authid does. CLIENT_AUTH=plain-secret keeps that password in plain text
# there instead, so each pooler derives the SCRAM keys from it. Logins to PostgreSQL stay trust.
# SCRAM logins come about ten times slower than trust ones (libpq derives the key for each), so
# Sluice's JIT takes about a minute to settle: at one client its compiler threads spent 1,451 µs
# per login in the first 10 s, 294-326 µs in the next 20 s and 4 µs after 60 s. Give SCRAM runs
# WARMUP=60 or more, or the CPU figures are the compiler's.
#
# BUILTIN=tpcb-like runs that pgbench script instead of -S (select-only): pgbench's default, a
# transaction of seven statements (three UPDATEs, a SELECT, an INSERT between BEGIN and END), so
# each transaction makes seven round trips through the pooler on one server.
#
# ROWS=n runs one SELECT of n consecutive pgbench_accounts rows a transaction instead (about 100
# bytes a row): a result of many DataRows, where a pooler's cost per relayed message shows.
#
# PIPELINE=n runs n one-row SELECTs in one pipeline a transaction instead (pgbench's
# \startpipeline; extended protocol): many small messages each way per round trip, as a driver's
# batch sends them, where a pooler's cost per message shows.
#
# RATE=n holds each measured run to n transactions a second in all (pgbench -R; the warm-up runs at
# full speed): TPS is then the rate, and CPU per transaction and latency are what compare. With
# CONNECT=1 it shows what a login costs when logins come slowly and the pooler idles between a
# login's messages.
#
# SERVER_TLS=1 turns TLS on in PostgreSQL (an RSA-2048 certificate made here with openssl) and sets
# server_tls_sslmode = require for every pooler, so each pooler encrypts what it relays to the
# server and decrypts the answers, as with a database in the cloud. The clients stay on plain TCP.
#
#   [ROUNDS=3] [WARMUP=30] [MODE=simple] [BUILTIN=tpcb-like] [ROWS=n] [PIPELINE=n] [CONNECT=1|only] [RATE=n] [CLIENT_AUTH=scram-sha-256|plain-secret] [SERVER_TLS=1] [FLOOR=1|login|pooled] [FLOOR_JAVA_OPTS=...] [SLUICE_JAR_BASE=old.jar] [BASE_JAVA_OPTS=...] [BASE_JAVA=...] bench/pgbench-compare.sh [seconds-per-run] [client counts...]
#   e.g. bench/pgbench-compare.sh 15 1 50 200
#        SLUICE_JAR_BASE=/path/sluice-before.jar bench/pgbench-compare.sh 15 1 50 200
#
# Needs: server/target/sluice.jar (mvn -q package -DskipTests), pgbouncer, PostgreSQL binaries.
secs=${1:-15}; shift || true
clients=("$@"); [ ${#clients[@]} -gt 0 ] || clients=(1 50 200)
export LC_NUMERIC=C   # pgbench prints and printf reads decimal points
rounds=${ROUNDS:-3}
warmup=${WARMUP:-30}
base_jar=${SLUICE_JAR_BASE:-}
mode=${MODE:-extended}
connect=(); [ -z "${CONNECT:-}" ] || connect=(-C)
workload=(-S); [ -z "${BUILTIN:-}" ] || workload=(-b "$BUILTIN")
rate=(); [ -z "${RATE:-}" ] || rate=(-R "$RATE")
. "$(dirname "$0")/lib.sh"
[ "$rounds" -ge 1 ] 2>/dev/null || { echo "ROUNDS must be a positive number" >&2; exit 2; }
[ -z "${RATE:-}" ] || [ "$RATE" -ge 1 ] 2>/dev/null || { echo "RATE must be a positive number" >&2; exit 2; }
[ -z "$base_jar" ] || [ -f "$base_jar" ] || { echo "SLUICE_JAR_BASE: no such jar: $base_jar" >&2; exit 2; }
[ -z "${BASE_JAVA_OPTS:-}${BASE_JAVA:-}" ] || [ -n "$base_jar" ] || base_jar=$jar
pgbench_cluster
if [ "${CONNECT:-}" = only ]; then
  printf '\\set a 1\n' > "$work/login-only.sql"
  chmod 644 "$work/login-only.sql"
  workload=(-f "$work/login-only.sql")
fi
if [ -n "${ROWS:-}" ]; then
  [ "$ROWS" -ge 1 ] 2>/dev/null || { echo "ROWS must be a positive number" >&2; exit 2; }
  printf '\\set a random(1, %d)\nSELECT * FROM pgbench_accounts WHERE aid BETWEEN :a AND :a + %d;\n' \
    $((1000000 - ROWS + 1)) $((ROWS - 1)) > "$work/rows.sql"
  chmod 644 "$work/rows.sql"
  workload=(-f "$work/rows.sql")
fi
if [ -n "${PIPELINE:-}" ]; then
  [ "$PIPELINE" -ge 1 ] 2>/dev/null || { echo "PIPELINE must be a positive number" >&2; exit 2; }
  [ "$mode" = extended ] || { echo "PIPELINE needs the extended protocol" >&2; exit 2; }
  { echo '\set a random(1, 1000000)'; echo '\startpipeline'
    for _ in $(seq 1 "$PIPELINE"); do echo 'SELECT abalance FROM pgbench_accounts WHERE aid = :a;'; done
    echo '\endpipeline'; } > "$work/pipeline.sql"
  chmod 644 "$work/pipeline.sql"
  workload=(-f "$work/pipeline.sql")
fi
pgb_port=$(free_port); sl_port=$(free_port)
server_tls=
if [ -n "${SERVER_TLS:-}" ]; then
  tls_conf=$(postgres_tls_conf) || exit 2
  echo "$tls_conf" >> "$work/data/postgresql.conf"
  as_pg "$pgbin/pg_ctl" -D "$work/data" reload >/dev/null
  server_tls="server_tls_sslmode = require"
fi
ini() { pgbench_ini "$1" "$server_tls"; }
case "${CLIENT_AUTH:-trust}" in
  trust) echo '"postgres" ""' > "$work/userlist.txt" ;;
  scram-sha-256|plain-secret)
    export AUTH_TYPE=scram-sha-256 PGPASSWORD=bench-pw
    secret=$PGPASSWORD
    if [ "$CLIENT_AUTH" = scram-sha-256 ]; then
      # -q: only the SELECT's row is printed
      secret=$("$pgbin/psql" -X -qAt -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres \
        -c "set password_encryption = 'scram-sha-256'" -c "alter role postgres password '$PGPASSWORD'" \
        -c "select rolpassword from pg_authid where rolname = 'postgres'")
    fi
    printf '"postgres" "%s"\n' "$secret" > "$work/userlist.txt" ;;
  *) echo "CLIENT_AUTH: trust, scram-sha-256 or plain-secret" >&2; exit 2 ;;
esac
ini "$pgb_port" > "$work/pgbouncer.ini"
ini "$sl_port" > "$work/sluice.ini"
names=(pgbouncer sluice); ports=("$pgb_port" "$sl_port")
if [ -n "$base_jar" ]; then
  base_port=$(free_port)
  ini "$base_port" > "$work/sluice-base.ini"
  names+=(sluice-base); ports+=("$base_port")
fi
if [ -n "${FLOOR:-}" ]; then
  floor_port=$(free_port)
  names+=(netty-floor); ports+=("$floor_port")
fi
[ "$(id -u)" = 0 ] && chown postgres: "$work"/*.ini "$work/userlist.txt"
# the process that listens on each port (the JVM for Sluice, not its launcher): its CPU time
# per transaction is the pooler's cost, which the machine's noise disturbs less than TPS
pooler_pids=()
for i in "${!names[@]}"; do
  [ "${names[$i]}" != netty-floor ] || continue
  start_pooler "${names[$i]}" "$work/${names[$i]}.ini" "${ports[$i]}"   # lib.sh: sluice-base too
  pooler_pids+=("$pooler_pid")
done
# the floor (last in names) gets the JVM options Sluice's launcher uses, and a session of its own
# as both poolers have (the scheduler shares the CPU between sessions, not processes)
if [ -n "${FLOOR:-}" ]; then
  case "$FLOOR" in
    login) floor_main=LoginFloor;;
    pooled) floor_main=PooledFloor;;
    *) floor_main=NettyFloor;;
  esac
  # shellcheck disable=SC2086 # a list of options
  setsid java $launcher_java_opts ${FLOOR_JAVA_OPTS:-} \
    -cp "$jar" "$here/bench/$floor_main.java" "$floor_port" "$pg_port" "${POOL_SIZE:-20}" "$work/userlist.txt" & pids+=($!)
  wait_port "$floor_port"
  pooler_pids+=("$(listening_pid "$floor_port")")
fi
tick_us=$(( 1000000 / $(getconf CLK_TCK) ))

run() { # $1 port, $2 clients, $3 seconds, $4 pooler pid [, warm: at full speed] -> "tps lat_ms cpu_us_per_xact user_us_per_xact"
  local out tps lat xacts before after user_before user_after threads=$(( $2 < 2 ? $2 : 2 )) limit=("${rate[@]}")
  [ "${5:-}" != warm ] || limit=()
  read -r before user_before < <(cpu_user_ticks "$4")
  out=$("$pgbin/pgbench" -n "${workload[@]}" -M "$mode" "${connect[@]}" "${limit[@]}" -c "$2" -j "$threads" -T "$3" -h 127.0.0.1 -p "$1" -U postgres postgres 2>&1)
  read -r after user_after < <(cpu_user_ticks "$4")
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")
  lat=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$out")
  xacts=$(pgbench_xacts "$out")
  [ -n "$tps" ] || echo "pgbench failed on port $1 with $2 clients: $(tail -3 <<<"$out")" >&2
  python3 -c "n = max(${xacts:-0}, 1); print(f'${tps:-0} ${lat:-0} {($after - $before) * $tick_us / n:.1f} {($user_after - $user_before) * $tick_us / n:.1f}')"
}

if [ "$warmup" -gt 0 ]; then
  top=$(printf '%s\n' "${clients[@]}" | sort -n | tail -1)
  for i in "${!names[@]}"; do run "${ports[$i]}" "$top" "$warmup" "${pooler_pids[$i]}" warm >/dev/null; done
fi

n=${#names[@]}
results="$work/results"; : > "$results"
echo "# pgbench ${workload[*]} -M $mode ${connect[*]}${RATE:+ -R $RATE}, client auth ${CLIENT_AUTH:-trust}, pool_mode ${POOL_MODE:-transaction}, ${server_tls:+server TLS, }${secs} s a run, $rounds rounds, order rotating: ${names[*]}"
for c in "${clients[@]}"; do
  for ((r = 0; r < rounds; r++)); do
    line="# clients $c round $((r + 1))/$rounds:"
    for ((k = 0; k < n; k++)); do
      i=$(( (r + k) % n ))
      read -r tps lat cpu user < <(run "${ports[$i]}" "$c" "$secs" "${pooler_pids[$i]}")
      echo "$c ${names[$i]} $tps $lat $cpu $user" >> "$results"
      line+=$(printf ' %s %.1f tps %.3f ms %s us/xact (user %s);' "${names[$i]}" "$tps" "$lat" "$cpu" "$user")
    done
    echo "$line"
  done
done

python3 - "$results" "${names[@]}" <<'PY'
import sys
from statistics import median
path, names = sys.argv[1], sys.argv[2:]
runs = {}
for line in open(path):
    c, name, *values = line.split()
    runs.setdefault((int(c), name), []).append(tuple(float(x) for x in values))
counts = sorted({c for c, _ in runs})
med = {k: tuple(median(r[i] for r in v) for i in range(4)) for k, v in runs.items()}
def ratio(a, b):
    return f"{a / b:.3f}" if b else "n/a"
print()
print(f"{'clients':<8} {'pooler':<12} {'runs':>4} {'median_tps':>12} {'median_lat_ms':>14} {'cpu_us/xact':>12} {'of_it_user':>11}   tps of each run")
for c in counts:
    for n in names:
        v = runs[(c, n)]
        t, l, u, us = med[(c, n)]
        print(f"{c:<8} {n:<12} {len(v):>4} {t:>12.1f} {l:>14.3f} {u:>12.1f} {us:>11.1f}   " + " ".join(f"{r[0]:.0f}" for r in v))
pairs = [("sluice", "pgbouncer")] + ([("sluice", "sluice-base")] if "sluice-base" in names else [])
if "netty-floor" in names:
    pairs += [("netty-floor", "pgbouncer"), ("sluice", "netty-floor")]
print()
print(f"{'clients':<8}" + "".join(f" {a + '/' + b + ' tps':>26} {'lat':>6} {'cpu':>6} {'user':>6}" for a, b in pairs))
for c in counts:
    cells = ""
    for a, b in pairs:
        (ta, la, ua, sa), (tb, lb, ub, sb) = med[(c, a)], med[(c, b)]
        cells += f" {ratio(ta, tb):>26} {ratio(la, lb):>6} {ratio(ua, ub):>6} {ratio(sa, sb):>6}"
    print(f"{c:<8}{cells}")
PY
