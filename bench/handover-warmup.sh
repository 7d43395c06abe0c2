#!/usr/bin/env bash
# What the start-up warm-up buys a handover (sluice-handover, docs/restarts.md): connect-per-
# transaction clients (pgbench -C -S, 10 clients) run through Sluice while its launcher gets
# SIGURG; the new process binds next to the old one and takes over. Each round starts Sluice
# afresh and runs the same load and handover twice over: once with the warm-up off
# (-Dsluice.warmup=0) and once with the default (the handover's warm-up), in rotating order.
# Reported per variant, medians over the rounds: the latency (login + query) of the
# transactions that finished in the first second after "taking over from process", p50, p99 and
# max, and the same for the second before the handover as the steady state.
#
#   [ROUNDS=5] bench/handover-warmup.sh
#
# Needs: server/target/sluice.jar (or SLUICE_JAR), PostgreSQL binaries, python3.
export LC_NUMERIC=C TZ=UTC
rounds=${ROUNDS:-5}
. "$(dirname "$0")/lib.sh"
[ "$rounds" -ge 1 ] 2>/dev/null || { echo "ROUNDS must be a positive number" >&2; exit 2; }
# the packages' sysctl (packaging/common/sluice.sysctl): without it the kernel resets the
# connections still queued at the old listener when it closes, and pgbench aborts
migrate=/proc/sys/net/ipv4/tcp_migrate_req
old_migrate=$(cat "$migrate" 2>/dev/null || echo)
if [ "$old_migrate" = 0 ]; then
  echo 1 > "$migrate" 2>/dev/null || echo "tcp_migrate_req stays 0 (not root?): queued connections may be reset" >&2
  trap 'echo "$old_migrate" > "$migrate"; bench_cleanup' EXIT
fi
pgbench_cluster
echo '"postgres" ""' > "$work/userlist.txt"
port=$(free_port)
pgbench_ini "$port" "so_reuseport = 1
pidfile = $work/sluice.pid
logfile = $work/sluice.log" > "$work/pooler.ini"
is_root && chown postgres: "$work"/*.ini "$work/userlist.txt"
# as the package runs it: a class-data archive, written by one unmeasured start first
mkdir -p "$work/cds"; is_root && chown postgres: "$work/cds"
export SLUICE_CDS_DIR=$work/cds
defaults=$launcher_java_opts

# one VARIANT(off|on) ROUND -> appends "variant phase p50 p99 max n" lines to $work/results
one() {
  local opts="$defaults" launcher took
  [ "$1" = off ] && opts="$opts -Dsluice.warmup=0"
  : > "$work/sluice.log"
  JAVA_OPTS="$opts" SLUICE_JAR="$jar" "$here/server/src/main/dist/bin/sluice" -q "$work/pooler.ini" & launcher=$!
  pids+=("$launcher")
  wait_port "$port"
  rm -f "$work"/tx.*
  "$pgbin/pgbench" -n -S -C -c 10 -j 2 -T 8 -l --log-prefix="$work/tx" -h 127.0.0.1 -p "$port" -U postgres postgres \
    > "$work/pgbench.out" 2>&1 &
  local bench=$!
  sleep 3   # the load runs on the first process for a while (not a synchronisation: the parse below reads the log)
  kill -URG "$launcher"
  wait "$bench" || echo "round $2 $1: pgbench failed: $(grep -m2 -i 'error' "$work/pgbench.out")" >&2
  took=$(grep -m1 'taking over from process' "$work/sluice.log" | cut -c1-23)
  [ -n "$took" ] || { echo "round $2 $1: no handover in the log" >&2; cat "$work/sluice.log" >&2; return 1; }
  # stop whichever process serves now (the new launcher, named by the pidfile)
  kill -INT "$(cat "$work/sluice.pid")" 2>/dev/null || true
  for _ in $(seq 1 500); do [ -z "$(listening_pid "$port")" ] && break; sleep 0.01; done
  python3 - "$1" "$took" "$work"/tx.* >> "$work/results" <<'PY'
import sys, datetime
variant, took, files = sys.argv[1], sys.argv[2], sys.argv[3:]
t0 = datetime.datetime.strptime(took, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc).timestamp()
before, after = [], []
for f in files:
    for line in open(f):
        p = line.split()   # client tx latency_us script epoch_s epoch_us
        done = int(p[4]) + int(p[5]) / 1e6
        lat = int(p[2]) / 1000.0
        if t0 - 1 <= done < t0:
            before.append(lat)
        elif t0 <= done < t0 + 1:
            after.append(lat)
def stats(v):
    v = sorted(v)
    return (v[len(v) // 2], v[int(len(v) * 0.99)], v[-1], len(v)) if v else (0, 0, 0, 0)
for phase, v in (("before", before), ("after", after)):
    print(variant, phase, *("%.2f" % x for x in stats(v)[:3]), stats(v)[3])
PY
  echo "round $2 $1: handover at $took"
}

# the unmeasured start that writes the class-data archive
JAVA_OPTS="$defaults" SLUICE_JAR="$jar" "$here/server/src/main/dist/bin/sluice" -q "$work/pooler.ini" & pids+=($!)
wait_port "$port"
kill -INT "$(listening_pid "$port")"; wait "${pids[-1]}" 2>/dev/null || true
: > "$work/results"
variants=(off on)
for ((r = 0; r < rounds; r++)); do
  for k in 0 1; do
    one "${variants[$(( (r + k) % 2 ))]}" $((r + 1))
  done
done

python3 - "$work/results" <<'PY'
import sys
from statistics import median
rows = {}
for line in open(sys.argv[1]):
    variant, phase, p50, p99, mx, n = line.split()
    rows.setdefault((variant, phase), []).append((float(p50), float(p99), float(mx), int(n)))
print()
print("latency (ms) of pgbench -C -S transactions (login + query), medians over rounds")
print(f"{'warm-up':<8} {'window':<28} {'p50':>7} {'p99':>7} {'max':>7} {'txns':>6}")
for variant in ("off", "on"):
    for phase, label in (("before", "1 s before the handover"), ("after", "1 s after taking over")):
        v = rows.get((variant, phase), [])
        if v:
            print(f"{variant:<8} {label:<28} {median(x[0] for x in v):>7.2f} {median(x[1] for x in v):>7.2f} "
                  f"{median(x[2] for x in v):>7.2f} {median(x[3] for x in v):>6.0f}")
off, on = rows.get(("off", "after")), rows.get(("on", "after"))
if off and on:
    print(f"after taking over, on/off: p99 {median(x[1] for x in on) / median(x[1] for x in off):.2f}, "
          f"max {median(x[2] for x in on) / median(x[2] for x in off):.2f}")
PY
