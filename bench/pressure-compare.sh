#!/usr/bin/env bash
# Pool-pressure benchmark, Sluice vs PgBouncer on one throwaway PostgreSQL, same pgbouncer.ini
# (only the port differs), trust and SCRAM logins:
#   herd     200 clients start together on a pool of 40, each runs one 10 ms query; cold pool
#            (no server yet) and warm pool (right after): time until all are answered, backends
#            created, peak of concurrent connection startups (from PostgreSQL's log), and how long
#            the 200 logins took before that (pgbench's "initial connection time").
#   fifo-500 500 clients on a pool of 40 running short transactions, measured after the pool has
#            filled up under the same load: TPS, p50, p99, p99.9, p99/p50, and local_p99: the p99
#            of each transaction's latency over the median of those that started in the same
#            10 ms, which shows queue fairness apart from slow swings of the machine's throughput.
# Both poolers get the same warm-up first, so a JVM's cold code is not what gets measured (a
# pooler in production has run these paths many times): select-only load on one pool and herds
# on three others (cold, then warm). Loopback only; every run is bounded (-t 1 or -T).
#
#   bench/pressure-compare.sh [fifo-seconds]
secs=${1:-15}
. "$(dirname "$0")/lib.sh"
pg_port=$(free_port)
poolers=()
stop_poolers() { for p in "${poolers[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; poolers=(); }
trap 'stop_poolers; bench_cleanup' EXIT

start_postgres "$pg_port" <<CONF
max_connections = 300
log_connections = on
password_encryption = 'scram-sha-256'
CONF
cat > "$work/data/pg_hba.conf" <<HBA
local all all trust
host all postgres 127.0.0.1/32 trust
host all all 127.0.0.1/32 scram-sha-256
HBA
as_pg "$pgbin/pg_ctl" -D "$work/data" reload >/dev/null
psql_pg() { "$pgbin/psql" -X -qAt -h 127.0.0.1 -p "$pg_port" -U postgres "$@"; }
psql_pg -c "create role bench_scram login password 'bench-pw'" postgres
psql_pg -c "create database bench" postgres
psql_pg -c "grant all on database bench to bench_scram" postgres
"$pgbin/pgbench" -q -i -s 10 -h 127.0.0.1 -p "$pg_port" -U postgres bench >/dev/null 2>&1
psql_pg -c "grant select on all tables in schema public to bench_scram" bench
scram_secret=$(psql_pg -c "select rolpassword from pg_authid where rolname = 'bench_scram'" postgres)
printf '"postgres" ""\n"bench_scram" "%s"\n' "$scram_secret" > "$work/userlist.txt"
echo 'select pg_sleep(0.01);' > "$work/herd.sql"

write_ini() { # $1 file, $2 port, $3 auth_type
  cat > "$1" <<INI
[databases]
bench = host=127.0.0.1 port=$pg_port dbname=bench pool_size=40
warmup = host=127.0.0.1 port=$pg_port dbname=bench pool_size=10
warmherd1 = host=127.0.0.1 port=$pg_port dbname=bench pool_size=40
warmherd2 = host=127.0.0.1 port=$pg_port dbname=bench pool_size=40
warmherd3 = host=127.0.0.1 port=$pg_port dbname=bench pool_size=40
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $2
unix_socket_dir = $work
auth_type = $3
auth_file = $work/userlist.txt
pool_mode = transaction
max_client_conn = 700
log_connections = 0
log_disconnections = 0
log_pooler_errors = 0
INI
  is_root && chown postgres: "$1" "$work/userlist.txt"
  true
}

start_pooler() { # $1 kind, $2 auth -> sets port
  port=$(free_port)
  write_ini "$work/$1.ini" "$port" "$2"
  if [ "$1" = pgbouncer ]; then
    (exec_as_pg "$pgbouncer" -q "$work/$1.ini") & poolers+=($!)
  else
    SLUICE_JAR="$jar" "$here/server/src/main/dist/bin/sluice" -q "$work/$1.ini" & poolers+=($!)
  fi
  wait_port "$port" || exit 1
  # Same warm-up for both poolers on pools other than the measured one, so that pool is cold
  # but the process is not.
  PGPASSWORD=bench-pw "$pgbin/pgbench" -n -S -M extended -c 20 -j 2 -T 4 -h 127.0.0.1 -p "$port" -U "$3" warmup >/dev/null 2>&1 || true
  for i in 1 2 3 1 2 3 1 2 3; do # the first three herds find cold pools (connect paths), the rest warm ones
    PGPASSWORD=bench-pw "$pgbin/pgbench" -n -c 200 -j 2 -t 1 -f "$work/herd.sql" -h 127.0.0.1 -p "$port" -U "$3" "warmherd$i" >/dev/null 2>&1 || true
  done
}

log_mark() { wc -c < "$work/pg.log"; }
startups() { # $1 = byte offset in pg.log -> "created peak"
  tail -c +"$(( $1 + 1 ))" "$work/pg.log" | python3 -c '
import re, sys
ev, ours = [], set()
for line in sys.stdin:
    m = re.search(r"\[(\d+)\] LOG:  connection received", line)
    if m: ev.append((m.group(1), 1)); continue
    m = re.search(r"\[(\d+)\] LOG:  connection authorized: user=\S+ database=bench", line)
    if m: ev.append((m.group(1), -1)); ours.add(m.group(1))
cur = peak = 0; open_ = set()
for pid, d in ev:
    if pid not in ours: continue
    if d == 1: open_.add(pid); cur += 1; peak = max(peak, cur)
    elif pid in open_: open_.discard(pid); cur -= 1
print(len(ours), peak)'
}

herd() { # $1 user -> "ms created peak failed login_ms"
  local mark out tps failed login
  mark=$(log_mark)
  out=$(PGPASSWORD=bench-pw "$pgbin/pgbench" -n -c 200 -j 2 -t 1 -f "$work/herd.sql" -h 127.0.0.1 -p "$port" -U "$1" bench 2>&1 || true)
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")
  failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' <<<"$out")
  login=$(sed -n 's/^initial connection time = \([0-9]*\).*/\1/p' <<<"$out")
  sleep 0.5 # let the log catch up before reading it (observation only, no test depends on it)
  echo "$(python3 -c "print(f'{200/$tps*1000:.0f}' if ${tps:-0} else 'n/a')") $(startups "$mark") ${failed:-?} ${login:-?}"
}

fifo() { # $1 user -> "tps p50 p99 p999 ratio local_p99"
  # the same load first, until the measured pool has filled up (the herd rows cover a cold pool)
  PGPASSWORD=bench-pw "$pgbin/pgbench" -n -S -M extended -c 500 -j 2 -T 5 -h 127.0.0.1 -p "$port" -U "$1" bench >/dev/null 2>&1 || true
  rm -rf "$work/fifo"; mkdir "$work/fifo"
  PGPASSWORD=bench-pw "$pgbin/pgbench" -n -S -M extended -c 500 -j 2 -T "$secs" -l --log-prefix="$work/fifo/log" \
      -h 127.0.0.1 -p "$port" -U "$1" bench > "$work/fifo.out" 2>&1 || true
  python3 - "$work/fifo.out" "$work"/fifo/log.* <<'PY'
import re, sys, statistics
m = re.search(r'tps = ([0-9.]+)', open(sys.argv[1]).read())
rows = []  # (start time in us, latency in us); pgbench logs the end time: epoch s, us
for name in sys.argv[2:]:
    for line in open(name):
        f = line.split()
        if len(f) >= 6 and f[2].isdigit():
            lat = int(f[2]); rows.append((int(f[4]) * 1_000_000 + int(f[5]) - lat, lat))
if not rows:
    print('0 0 0 0 n/a n/a'); sys.exit()
lat = sorted(l for _, l in rows)
q = lambda v, p: v[min(len(v) - 1, int(p * len(v)))]
windows = {}
for start, l in rows:
    windows.setdefault(start // 10_000, []).append(l)
med = {k: statistics.median(v) for k, v in windows.items()}
local = sorted(l / med[start // 10_000] for start, l in rows)
print(f"{float(m.group(1)) if m else 0:.0f} {q(lat, .5) / 1000:.2f} {q(lat, .99) / 1000:.2f} "
      f"{q(lat, .999) / 1000:.2f} {q(lat, .99) / q(lat, .5):.2f} {q(local, .99):.2f}")
PY
}

# How fast this PostgreSQL can start backends at all (new connection per transaction, two at a
# time like the burst gate), and what that means for a herd on a cold pool: with backends
# arriving at that rate, each running 10 ms queries back to back, when are 200 done?
echo 'select 1;' > "$work/one.sql"
conn_tps=$("$pgbin/pgbench" -n -C -c 2 -j 2 -T 3 -f "$work/one.sql" -h 127.0.0.1 -p "$pg_port" -U postgres bench 2>&1 \
    | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
python3 - "${conn_tps:-0}" <<'PY'
import sys
rate = float(sys.argv[1])
if rate <= 0:
    print("could not measure PostgreSQL's connection rate"); sys.exit()
step = 1000 / rate
free = [0.0] + [step * k for k in range(1, 40)]  # one backend exists from the first login
for _ in range(200):
    i = min(range(40), key=lambda j: free[j]); free[i] += 10
print(f"PostgreSQL here: {rate:.0f} new connections/s (one per {step:.1f} ms); no pooler can answer "
      f"a herd of 200 x 10 ms on a cold pool of 40 in less than ~{max(free):.0f} ms")
PY
printf '\n%-10s %-6s %-6s %10s %9s %12s %7s %9s\n' pooler auth pool herd_ms backends peak_startups failed login_ms
for auth in trust scram-sha-256; do
  user=postgres; [ "$auth" = trust ] || user=bench_scram
  for kind in pgbouncer sluice; do
    start_pooler "$kind" "$auth" "$user"
    read -r ms created peak failed login < <(herd "$user")
    printf '%-10s %-6s %-6s %10s %9s %12s %7s %9s\n' "$kind" "${auth%%-*}" cold "$ms" "$created" "$peak" "$failed" "$login"
    read -r ms created peak failed login < <(herd "$user")
    printf '%-10s %-6s %-6s %10s %9s %12s %7s %9s\n' "$kind" "${auth%%-*}" warm "$ms" "$created" "$peak" "$failed" "$login"
    stop_poolers
  done
done

printf '\n%-10s %-6s %8s %8s %8s %8s %8s %9s\n' pooler auth tps p50_ms p99_ms p999_ms p99/p50 local_p99
for auth in trust scram-sha-256; do
  user=postgres; [ "$auth" = trust ] || user=bench_scram
  for kind in pgbouncer sluice; do
    start_pooler "$kind" "$auth" "$user"
    read -r tps p50 p99 p999 ratio local < <(fifo "$user")
    printf '%-10s %-6s %8s %8s %8s %8s %8s %9s\n' "$kind" "${auth%%-*}" "$tps" "$p50" "$p99" "$p999" "$ratio" "$local"
    stop_poolers
  done
done
