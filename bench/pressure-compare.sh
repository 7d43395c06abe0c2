#!/usr/bin/env bash
# Pool-pressure benchmark, Sluice vs PgBouncer, same pgbouncer.ini (only the port differs), trust,
# SCRAM and SCRAM-over-TLS logins to the backend, on three stages:
#   same-host  PostgreSQL on this host, reached over 127.0.0.1
#   remote     PostgreSQL in a network namespace of its own, joined to this one by a veth pair,
#              1 ms round trip (DELAY_US = 500 each way). This kernel has no netem qdisc (tc
#              answers "Specified qdisc kind is unknown"; nor fq or etf, so no BPF/EDT delay
#              either: only pfifo, tbf, htb and clsact exist, none of which holds packets for a
#              fixed time). So the delay is made by bench/delay-relay.c, a small TCP relay inside
#              the namespace in front of PostgreSQL that holds every byte DELAY_US in each
#              direction (and a client's first bytes one round trip more, for TCP's handshake);
#              both poolers go through it alike, and so does the connection-rate measurement.
#   synthetic  the same 1 ms round trip (the relay on 127.0.0.1), in front of
#              bench/SyntheticBackend.java instead of PostgreSQL: each login is answered after
#              LOGIN_MS (default 3) and pg_sleep(s) after s seconds, as waits on a timer rather
#              than work. It stands for a database host with CPUs of its own. On the remote stage
#              PostgreSQL starts its backends on this machine's cores: on an idle machine two
#              logins in flight still come close to twice the rate of one (both rates are printed
#              per stage), but during a herd the same cores run pgbench's 200 clients, the pooler
#              and the relay, and in PostgreSQL's log each of two connects in flight then took
#              about twice as long as a lone one. Trust only (the synthetic backend has no SCRAM);
#              its fifo-500 rows measure the poolers, not a database.
# Login methods (AUTHS), client to pooler and pooler to PostgreSQL alike:
#   trust          user postgres, no password
#   scram-sha-256  user bench_scram, SCRAM both ways
#   tls            the same SCRAM, with server_tls_sslmode = require: every backend connect adds
#                  TLS 1.3's handshake (PostgreSQL's certificate is RSA 2048, made here with
#                  openssl, as Debian's snakeoil one is) to the SSLRequest and SCRAM round trips.
#                  The clients reach the poolers without TLS, so only the backend logins change.
#   The floor (below) is measured with plain trust logins for every row, so a tls row's ratio to
#   it includes what TLS adds to each connect.
#   With tls among them, PostgreSQL has ssl = on, and the trust and SCRAM rows say
#   server_tls_sslmode = disable (no SSLRequest) so that they stay plain; without it, both poolers
#   get prefer, which PostgreSQL answers N (one round trip per connect).
# Workloads, per stage and login method:
#   herd     200 clients start together on a pool of 40, each runs one 10 ms query; cold pool
#            (no server yet) and warm pool (right after): time until all are answered, backends
#            created, peak of concurrent connection startups (from PostgreSQL's log), and how long
#            the 200 logins took before that (pgbench's "initial connection time").
#   fifo-500 500 clients on a pool of 40 running short transactions, measured after the pool has
#            filled up under the same load: TPS, p50, p99, p99.9, p99/p50, and local_p99: the p99
#            of each transaction's latency over the median of those that started in the same
#            10 ms, which shows queue fairness apart from slow swings of the machine's throughput.
# The poolers take turns, ROUNDS rounds (default 3); the summary prints each pooler's medians,
# the Sluice/PgBouncer ratios and, for the cold herd, the ratio to the floor: the shortest time
# any pooler could answer it given how fast that stage's PostgreSQL accepts new connections.
# Both poolers get the same warm-up first, so a JVM's cold code is not what gets measured (a
# pooler in production has run these paths many times): select-only load on one pool for
# RELAY_WARMUP seconds (4; 20 changed nothing over TLS, where the fifo gap has another cause), a
# connection per transaction on it for LOGIN_WARMUP seconds (a JVM compiles its login path only
# after thousands of logins: with 1 s of them Sluice took 2.3 x PgBouncer's time to log in a
# herd's 200 clients, with 10 s 1.2 x), and herds on three other pools (cold, then warm;
# WARM_HERDS of them). Every run is bounded (-t 1 or -T). Needs root for the
# remote stage (ip netns, a C compiler for the relay); STAGES=same-host runs without it.
#
#   [ROUNDS=3] [STAGES="same-host remote synthetic"] [AUTHS="trust scram-sha-256 tls"] [DELAY_US=500] \
#   [LOGIN_MS=3] [WARM_HERDS=9] [LOGIN_WARMUP=10] [RELAY_WARMUP=4] [SLUICE_JAR_BASE=old.jar] \
#   [BASE_INI="key = value"] [BASE_JAVA_OPTS=...] bench/pressure-compare.sh [fifo-seconds]
# SLUICE_JAR_BASE adds a third pooler, sluice-base (that jar), to every round, and a /base row of
# Sluice over it, to compare two builds under the same noise. BASE_INI adds lines to sluice-base's
# [pgbouncer] section only, and BASE_JAVA_OPTS runs it with those JVM options instead of the
# launcher's: with SLUICE_JAR_BASE set to this build's jar, either compares a setting with the
# default.
# A smoke run: ROUNDS=1 AUTHS=trust bench/pressure-compare.sh 2
secs=${1:-15}
rounds=${ROUNDS:-3}
stages=${STAGES:-same-host remote synthetic}
auths=${AUTHS:-trust scram-sha-256 tls}
base_jar=${SLUICE_JAR_BASE:-}
[ -z "$base_jar" ] || [ -f "$base_jar" ] || { echo "SLUICE_JAR_BASE: no such jar: $base_jar" >&2; exit 2; }
[ -z "${BASE_INI:-}${BASE_JAVA_OPTS:-}" ] || [ -n "$base_jar" ] || { echo "BASE_INI and BASE_JAVA_OPTS are for sluice-base: set SLUICE_JAR_BASE too (this build's jar to compare a setting)" >&2; exit 2; }
kinds="pgbouncer sluice${base_jar:+ sluice-base}"
delay_us=${DELAY_US:-500}
login_ms=${LOGIN_MS:-3}
warm_herds=${WARM_HERDS:-9}
login_warmup=${LOGIN_WARMUP:-10}
relay_warmup=${RELAY_WARMUP:-4}
. "$(dirname "$0")/lib.sh"
pg_port=$(free_port)
poolers=()
ns=""; relay_pid=""; synth_pids=()
stop_poolers() { for p in "${poolers[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; poolers=(); }
stop_remote() {
  [ -n "$relay_pid" ] && { kill "$relay_pid" 2>/dev/null || true; wait "$relay_pid" 2>/dev/null || true; }
  [ -d "$work/rdata" ] && as_pg "$pgbin/pg_ctl" -D "$work/rdata" -m immediate stop >/dev/null 2>&1 || true
  [ -n "$ns" ] && ip netns del "$ns" 2>/dev/null || true   # takes the veth pair with it
  for p in "${synth_pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
}
trap 'stop_poolers; stop_remote; bench_cleanup' EXIT

pg_conf="max_connections = 300
log_connections = on
password_encryption = 'scram-sha-256'"
with_tls=; case " $auths " in *" tls "*) with_tls=1 ;; esac
if [ -n "$with_tls" ]; then
  tls_conf=$(postgres_tls_conf) || exit 2
  pg_conf="$pg_conf
$tls_conf"
fi
pg_hba="local all all trust
host all postgres 127.0.0.1/32 trust
host all all 127.0.0.1/32 scram-sha-256"

# prepare_db SOCKETDIR PORT [SECRET]: the bench database, pgbench's tables, role bench_scram (with
# SECRET, the SCRAM secret of the first cluster, so one userlist.txt serves both stages)
prepare_db() {
  local q=("$pgbin/psql" -X -qAt -h "$1" -p "$2" -U postgres)
  if [ -n "${3:-}" ]; then "${q[@]}" -c "create role bench_scram login password '$3'" postgres
  else "${q[@]}" -c "create role bench_scram login password 'bench-pw'" postgres; fi
  "${q[@]}" -c "create database bench" postgres
  "${q[@]}" -c "grant all on database bench to bench_scram" postgres
  "$pgbin/pgbench" -q -i -s 10 -h "$1" -p "$2" -U postgres bench >/dev/null 2>&1
  "${q[@]}" -c "grant select on all tables in schema public to bench_scram" bench
}

start_postgres "$pg_port" <<<"$pg_conf"
echo "$pg_hba" > "$work/data/pg_hba.conf"
as_pg "$pgbin/pg_ctl" -D "$work/data" reload >/dev/null
prepare_db "$work" "$pg_port"
scram_secret=$("$pgbin/psql" -X -qAt -h "$work" -p "$pg_port" -U postgres \
    -c "select rolpassword from pg_authid where rolname = 'bench_scram'" postgres)
printf '"postgres" ""\n"bench_scram" "%s"\n' "$scram_secret" > "$work/userlist.txt"
echo 'select pg_sleep(0.01);' > "$work/herd.sql"
# pgbench -S's own script, as a file: on the synthetic backend -S fails (pgbench reads PostgreSQL's
# catalogs first, which the synthetic backend does not have)
printf '\\set aid random(1, 1000000)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n' > "$work/select.sql"

# The remote stage: namespace $ns holds a second PostgreSQL (listening on its own loopback, unix
# socket in $work/rsock for set-up) and the relay on its veth address; link-local /30 addresses
# (169.254.0.0/16, never 169.254.169.x), so nothing beyond the link is ever addressed.
start_remote() {
  cc -O2 -pthread -o "$work/delay-relay" "$here/bench/delay-relay.c"
  ns="sluice-bench-$$"
  local sub=$(( $$ % 160 + 2 ))
  local host_if="sbh$(( $$ % 100000 ))"
  host_addr="169.254.$sub.1"; remote_addr="169.254.$sub.2"
  ip netns add "$ns"
  ip link add "$host_if" type veth peer name eth0 netns "$ns"
  ip addr add "$host_addr/30" dev "$host_if"; ip link set "$host_if" up
  ip -n "$ns" addr add "$remote_addr/30" dev eth0; ip -n "$ns" link set eth0 up; ip -n "$ns" link set lo up
  rpg_port=$(free_port)
  mkdir -p "$work/rsock"; is_root && chown postgres: "$work/rsock"
  as_pg "$pgbin/initdb" -D "$work/rdata" -U postgres -A trust >/dev/null
  { printf "listen_addresses = '127.0.0.1'\nport = %s\nunix_socket_directories = '%s'\nfsync = off\nsynchronous_commit = off\n" \
      "$rpg_port" "$work/rsock"; echo "$pg_conf"; } >> "$work/rdata/postgresql.conf"
  echo "$pg_hba" > "$work/rdata/pg_hba.conf"
  ip netns exec "$ns" setpriv --reuid=postgres --regid=postgres --init-groups -- \
      "$pgbin/pg_ctl" -D "$work/rdata" -l "$work/rpg.log" -w start >/dev/null
  prepare_db "$work/rsock" "$rpg_port" "$scram_secret"
  ip netns exec "$ns" "$work/delay-relay" "$remote_addr" 5432 127.0.0.1 "$rpg_port" "$delay_us" & relay_pid=$!
  for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/$remote_addr/5432") 2>/dev/null && break; sleep 0.1; done
}

# The synthetic stage: the synthetic backend on a free port, the relay in front of it on another.
start_synthetic() {
  [ -x "$work/delay-relay" ] || cc -O2 -pthread -o "$work/delay-relay" "$here/bench/delay-relay.c"
  local sport; sport=$(free_port); synth_port=$(free_port)
  java "$here/bench/SyntheticBackend.java" "$sport" "$login_ms" > "$work/synthetic.log" 2>&1 & synth_pids+=($!)
  wait_port "$sport" || exit 1
  "$work/delay-relay" 127.0.0.1 "$synth_port" 127.0.0.1 "$sport" "$delay_us" & synth_pids+=($!)
  wait_port "$synth_port" || exit 1
}

# use_stage NAME: where the poolers (and the floor measurement) find PostgreSQL, and its log
use_stage() {
  stage=$1
  sel=(-S)
  case $stage in
    remote) db_host=$remote_addr; db_port=5432; pglog="$work/rpg.log" ;;
    synthetic) db_host=127.0.0.1; db_port=$synth_port; pglog="$work/synthetic.log"; sel=(-f "$work/select.sql") ;;
    *) db_host=127.0.0.1; db_port=$pg_port; pglog="$work/pg.log" ;;
  esac
}

write_ini() { # $1 file, $2 port, $3 login method (AUTHS)
  local auth_type=$3 sslmode=prefer
  [ -n "$with_tls" ] && sslmode=disable
  [ "$3" = tls ] && auth_type=scram-sha-256 sslmode=require
  cat > "$1" <<INI
[databases]
bench = host=$db_host port=$db_port dbname=bench pool_size=40
warmup = host=$db_host port=$db_port dbname=bench pool_size=10
warmherd1 = host=$db_host port=$db_port dbname=bench pool_size=40
warmherd2 = host=$db_host port=$db_port dbname=bench pool_size=40
warmherd3 = host=$db_host port=$db_port dbname=bench pool_size=40
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $2
unix_socket_dir = $work
auth_type = $auth_type
auth_file = $work/userlist.txt
pool_mode = transaction
max_client_conn = 700
log_connections = 0
log_disconnections = 0
log_pooler_errors = 0
; PgBouncer 1.18 defaults to disable, 1.20 and later (and Sluice) to prefer: said here, so both poolers
; do the same handshake with PostgreSQL (see "Login methods" above)
server_tls_sslmode = $sslmode
INI
  is_root && chown postgres: "$1" "$work/userlist.txt"
  true
}

start_pooler() { # $1 kind, $2 auth -> sets port
  port=$(free_port)
  write_ini "$work/$1.ini" "$port" "$2"
  # BASE_INI: lines for sluice-base's [pgbouncer] section only (the section is last), to compare a
  # setting side by side with the default in the same rounds
  [ "$1" = sluice-base ] && [ -n "${BASE_INI:-}" ] && printf '%s\n' "$BASE_INI" >> "$work/$1.ini"
  if [ "$1" = pgbouncer ]; then
    (run_pgbouncer -q "$work/$1.ini") & poolers+=($!)
  else
    local env=(SLUICE_JAR="$jar")
    [ "$1" = sluice-base ] && env=(SLUICE_JAR="$base_jar") && [ -n "${BASE_JAVA_OPTS:-}" ] && env+=(JAVA_OPTS="$BASE_JAVA_OPTS")
    env "${env[@]}" "$here/server/src/main/dist/bin/sluice" -q "$work/$1.ini" & poolers+=($!)
  fi
  wait_port "$port" || exit 1
  # Same warm-up for both poolers on pools other than the measured one, so that pool is cold
  # but the process is not.
  PGPASSWORD=bench-pw "$pgbin/pgbench" -n "${sel[@]}" -M extended -c 20 -j 2 -T "$relay_warmup" -h 127.0.0.1 -p "$port" -U "$3" warmup >/dev/null 2>&1 || true
  if [ "$login_warmup" -gt 0 ]; then
    PGPASSWORD=bench-pw "$pgbin/pgbench" -n -C "${sel[@]}" -c 10 -j 2 -T "$login_warmup" -h 127.0.0.1 -p "$port" -U "$3" warmup >/dev/null 2>&1 || true
  fi
  local k
  for ((k = 0; k < warm_herds; k++)); do # the first three herds find cold pools (connect paths), the rest warm ones
    PGPASSWORD=bench-pw "$pgbin/pgbench" -n -c 200 -j 2 -t 1 -f "$work/herd.sql" -h 127.0.0.1 -p "$port" -U "$3" "warmherd$((k % 3 + 1))" >/dev/null 2>&1 || true
  done
}

log_mark() { wc -c < "$pglog"; }
startups() { # $1 = byte offset in pg.log -> "created peak"
  tail -c +"$(( $1 + 1 ))" "$pglog" | python3 -c '
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
  PGPASSWORD=bench-pw "$pgbin/pgbench" -n "${sel[@]}" -M extended -c 500 -j 2 -T 5 -h 127.0.0.1 -p "$port" -U "$1" bench >/dev/null 2>&1 || true
  rm -rf "$work/fifo"; mkdir "$work/fifo"
  PGPASSWORD=bench-pw "$pgbin/pgbench" -n "${sel[@]}" -M extended -c 500 -j 2 -T "$secs" -l --log-prefix="$work/fifo/log" \
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
if not rows:  # say why on stderr (pgbench's own words), and leave the row unmeasured
    sys.stderr.write("fifo-500: no transactions logged; pgbench said:\n" + open(sys.argv[1]).read()[-600:])
    print('n/a n/a n/a n/a n/a n/a'); sys.exit()
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

# How fast a stage's PostgreSQL starts backends for a client here (two logins in flight, like
# the burst gate, and one, like PgBouncer, over the stage's path; the backends stay, as a pool's
# do: a new connection per transaction would count each backend's exit too, which halved the
# rate here), and what that means for a herd on a cold pool: with backends arriving at the rate
# with two in flight, each running 10 ms queries back to back, when are 200 done? Prints the floor
# in ms, both rates, and the floor at the rate with one: their ratio is the most a second connect
# in flight can win here (docs/pressure.md, "How much a second connect in flight can win").
cat > "$work/rate.py" <<'PY'
import socket, struct, sys, threading, time
host, port, par, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), 40
def login():
    s = socket.create_connection((host, port), timeout=10)
    body = struct.pack('!i', 196608) + b'user\0postgres\0database\0bench\0\0'
    s.sendall(struct.pack('!i', len(body) + 4) + body)
    buf = b''
    while not buf.endswith(b'Z\x00\x00\x00\x05I'):
        d = s.recv(65536)
        if not d or buf[:1] == b'E': sys.exit('login failed')
        buf += d
    return s
socks, lock = [], threading.Lock()
def worker(k):
    for _ in range(k):
        c = login()
        with lock: socks.append(c)
t0 = time.perf_counter()
ts = [threading.Thread(target=worker, args=(n // par,)) for _ in range(par)]
for t in ts: t.start()
for t in ts: t.join()
rate = len(socks) / (time.perf_counter() - t0)
for c in socks: c.sendall(b'X\x00\x00\x00\x04'); c.close()
print(f"{rate:.1f}" if len(socks) == n else 0)
PY
floor_ms() { # -> "floor_ms rate_with_two rate_with_one floor_ms_at_the_rate_with_one"
  local rate rate1
  rate1=$(python3 "$work/rate.py" "$db_host" "$db_port" 1 2>/dev/null || echo 0)
  rate=$(python3 "$work/rate.py" "$db_host" "$db_port" 2 2>/dev/null || echo 0)
  python3 - "${rate:-0}" "${rate1:-0}" <<'PY'
import sys
rate, rate1 = float(sys.argv[1]), float(sys.argv[2])
def herd_ms(rate):
    step = 1000 / rate
    free = [0.0] + [step * k for k in range(1, 40)]  # one backend exists from the first login
    done = 0.0  # when the last query ends: backends that never get a query do not count
    for _ in range(200):
        i = min(range(40), key=lambda j: free[j]); free[i] += 10; done = max(done, free[i])
    return f"{done:.0f}"
if rate <= 0:
    print("n/a ? ? n/a"); sys.exit()
print(herd_ms(rate), f"{rate:.0f} {rate1:.0f}", herd_ms(rate1) if rate1 > 0 else "n/a")
PY
}

results="$work/results"; : > "$results"
record() { echo "$*" >> "$results"; }   # stage auth pooler metric value

for st in $stages; do
  [ "$st" = remote ] && start_remote
  [ "$st" = synthetic ] && start_synthetic
  use_stage "$st"
  read -r floor rate rate1 floor1 < <(floor_ms)
  echo "stage $stage: PostgreSQL accepts ${rate:-?} new connections/s from here with two logins in flight" \
       "(${rate1:-?}/s with one); no pooler can answer a herd of 200 x 10 ms on a cold pool of 40 in less" \
       "than ~${floor:-?} ms (~${floor1:-?} ms at the rate with one)"
  record "$stage - floor herd_ms ${floor:-n/a}"
  record "$stage - floor1 herd_ms ${floor1:-n/a}"
  for round in $(seq 1 "$rounds"); do
    for auth in $auths; do
      [ "$stage" = synthetic ] && [ "$auth" != trust ] && continue
      user=postgres; [ "$auth" = trust ] || user=bench_scram
      for kind in $kinds; do   # interleaved: each round runs each pooler, same order
        start_pooler "$kind" "$auth" "$user"
        for temp in cold warm; do
          read -r ms created peak failed login < <(herd "$user")
          for m in ms created peak failed login; do record "$stage ${auth%%-*} $kind ${temp}_$m ${!m}"; done
        done
        read -r tps p50 p99 p999 ratio local < <(fifo "$user")
        for m in tps p50 p99 p999 ratio local; do record "$stage ${auth%%-*} $kind fifo_$m ${!m}"; done
        stop_poolers
        echo "round $round/$rounds $stage ${auth%%-*} $kind done" >&2
      done
    done
  done
done

python3 - "$results" <<'PY'
import statistics, sys
from collections import defaultdict
v = defaultdict(list)
for line in open(sys.argv[1]):
    stage, auth, kind, metric, value = line.split()
    try:
        x = float(value)
    except ValueError:   # "n/a" or "?": a run that could not be measured
        continue
    v[(stage, auth, kind, metric)].append(x)
med = {k: statistics.median(x) for k, x in v.items()}
def m(*k):
    x = med.get(k); return "n/a" if x is None else f"{x:.2f}" if x < 10 else f"{x:.0f}"
def r(a, b):
    return "n/a" if a is None or b in (None, 0) else f"{a / b:.2f}"
stages = sorted({k[0] for k in v}, key=lambda s: s != "same-host")
auths = sorted({k[1] for k in v if k[1] != "-"})
n = max((len(x) for x in v.values()), default=0)
def table(title, cols, width, ratios):
    print(f"\n{title} (medians of {n} rounds)")
    print(f"{'stage':10} {'auth':6} {'pooler':10} " + " ".join(f"{t:>{width}}" for _, t in cols))
    for s in stages:
        for a in auths:
            if not any(k[:2] == (s, a) for k in v):   # the synthetic stage runs trust only
                continue
            for kind in ("pgbouncer", "sluice", "sluice-base"):
                if any(k[:3] == (s, a, kind) for k in v):
                    print(f"{s:10} {a:6} {kind:10} " + " ".join(f"{m(s, a, kind, c):>{width}}" for c, _ in cols))
            print(f"{s:10} {a:6} {'ratios':10} " + ratios(s, a))
            if any(k[:3] == (s, a, "sluice-base") for k in v):
                print(f"{s:10} {a:6} {'/base':10} " + " ".join(
                    f"{r(med.get((s, a, 'sluice', c)), med.get((s, a, 'sluice-base', c))):>{width}}" for c, _ in cols))
def sp(s, a, c):  # Sluice over PgBouncer
    return r(med.get((s, a, "sluice", c)), med.get((s, a, "pgbouncer", c)))
def herd_ratios(s, a):
    floor = med.get((s, "-", "floor", "herd_ms"))
    return (f"cold sluice/pgbouncer {sp(s, a, 'cold_ms')}, sluice/floor {r(med.get((s, a, 'sluice', 'cold_ms')), floor)}, "
            f"pgbouncer/floor {r(med.get((s, a, 'pgbouncer', 'cold_ms')), floor)} (floor {floor} ms; "
            f"the floor at two in flight over the floor at one {r(floor, med.get((s, '-', 'floor1', 'herd_ms')))}); "
            f"backends sluice/pgbouncer {sp(s, a, 'cold_created')}; warm sluice/pgbouncer {sp(s, a, 'warm_ms')}")
fifo = [("fifo_tps", "tps"), ("fifo_p50", "p50 ms"), ("fifo_p99", "p99 ms"), ("fifo_p999", "p99.9 ms"),
        ("fifo_ratio", "p99/p50"), ("fifo_local", "local_p99")]
table("herd, 200 x 10 ms on a pool of 40",
      [("cold_ms", "herd cold ms"), ("cold_created", "backends"), ("cold_peak", "peak startups"),
       ("cold_failed", "failed"), ("cold_login", "login ms"), ("warm_ms", "herd warm ms")], 13, herd_ratios)
table("fifo-500, 500 clients on a pool of 40", fifo, 10,
      lambda s, a: " ".join(f"{sp(s, a, c):>10}" for c, _ in fifo))
PY
