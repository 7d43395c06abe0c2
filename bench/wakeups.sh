#!/usr/bin/env bash
# How often each pooler's busy thread goes to sleep and is woken, per transaction (or per login
# with CONNECT=1), at a fixed rate where every message finds the pooler idle: PgBouncer's one
# thread and Sluice's event loop (and a base Sluice, as in pgbench-compare.sh), side by side on
# one throwaway PostgreSQL. Counts come from /proc/<pid>/task/<tid>/status (voluntary context
# switches: the thread blocked waiting for I/O; involuntary: it was preempted) and its CPU from
# .../stat, over one pgbench run per pooler and round, the poolers taking turns; prints each
# round and the medians. On a machine where a wake-up after an idle gap is dear, a pooler that
# sleeps more often pays for it on every message.
#
#   [RATE=1000] [CONNECT=1] [CLIENTS=1] [SECS=10] [ROUNDS=3] [SLUICE_JAR_BASE=old.jar]
#   [BASE_JAVA_OPTS=...] bench/wakeups.sh
#
# Loopback only; each run is bounded by pgbench -T. Needs server/target/sluice.jar, pgbouncer,
# PostgreSQL binaries.
rate=${RATE:-1000}; clients=${CLIENTS:-1}; secs=${SECS:-10}; rounds=${ROUNDS:-3}
connect=(); unit=transaction; [ -z "${CONNECT:-}" ] || { connect=(-C); unit=login; }
. "$(dirname "$0")/lib.sh"
export LC_NUMERIC=C
pgbench_cluster
echo '"postgres" ""' > "$work/userlist.txt"
start_poolers base

# busy_thread PID: PgBouncer's only thread, or the JVM's event loop (Netty names it)
busy_thread() {
  local t
  for t in /proc/"$1"/task/*; do
    case "$(cat "$t/comm")" in pgbouncer|multiThreadIoEv*) basename "$t"; return;; esac
  done
  echo "no pooler thread in process $1" >&2; return 1
}
# counts PID TID -> "voluntary involuntary cpu_ticks" of that thread (/proc/TID is the thread's own)
counts() {
  echo "$(awk '/^voluntary_ctxt_switches/ {v = $2} /^nonvoluntary_ctxt_switches/ {n = $2} END {print v, n}' "/proc/$1/task/$2/status") $(cpu_ticks "$2")"
}
bench() { "$pgbin/pgbench" -n -S -M extended "${connect[@]}" "$@" -c "$clients" -j 1 -h 127.0.0.1 -U postgres postgres 2>&1; }

declare -A tid
for p in "${poolers[@]}"; do
  tid[$p]=$(busy_thread "${pid[$p]}")
  bench -T 10 -p "${port[$p]}" >/dev/null   # unmeasured: the JIT compiles the paths measured
done
tick_us=$(( 1000000 / $(getconf CLK_TCK) ))
echo "# pgbench -S -M extended ${connect[*]} -R $rate -c $clients, $secs s a run, $rounds rounds: per $unit, the pooler thread's sleeps (voluntary switches), preemptions and CPU"
: > "$work/results"
n=${#poolers[@]}
for ((r = 0; r < rounds; r++)); do
  for ((k = 0; k < n; k++)); do
    p=${poolers[$(( (r + k) % n ))]}
    read -r v0 i0 c0 < <(counts "${pid[$p]}" "${tid[$p]}")
    out=$(bench -R "$rate" -T "$secs" -p "${port[$p]}")
    read -r v1 i1 c1 < <(counts "${pid[$p]}" "${tid[$p]}")
    x=$(pgbench_xacts "$out")
    [ -n "$x" ] && [ "$x" -gt 0 ] || { echo "pgbench failed on ${p}: $(tail -3 <<<"$out")" >&2; exit 1; }
    line=$(python3 -c "x = $x; print(f'{($v1 - $v0) / x:.3f} {($i1 - $i0) / x:.3f} {($c1 - $c0) * $tick_us / x:.1f}')")
    echo "$p $line" >> "$work/results"
    echo "round $((r + 1)) $p: $x done; sleeps, preemptions, cpu_us: $line"
  done
done
python3 - "$work/results" "${poolers[@]}" <<'PY'
import sys
from statistics import median
path, names = sys.argv[1], sys.argv[2:]
runs = {}
for line in open(path):
    name, *v = line.split()
    runs.setdefault(name, []).append([float(x) for x in v])
print(f"\n{'pooler':<12} {'sleeps':>8} {'preempted':>10} {'cpu_us':>8}   (medians)")
for n in names:
    v = runs[n]
    print(f"{n:<12} {median(r[0] for r in v):>8.3f} {median(r[1] for r in v):>10.3f} {median(r[2] for r in v):>8.1f}")
PY
