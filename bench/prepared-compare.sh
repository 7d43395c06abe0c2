#!/usr/bin/env bash
# Issue 14, acceptance 4, in one run on one throwaway PostgreSQL (pgbench select-only, scale 10):
#   sluice-prepared     pgbench -M prepared through Sluice, transaction mode (named statements
#                       kept across servers)
#   pgbouncer-extended  pgbench -M extended through PgBouncer (Debian's 1.18: no named statements
#                       in transaction mode, so unnamed ones, parsed on every execution)
#   direct-prepared     pgbench -M prepared straight to PostgreSQL
#   sluice-simple       pgbench -M simple through Sluice  } simple protocol, to see it unchanged
#   pgbouncer-simple    pgbench -M simple through PgBouncer }
# Both poolers run the same pgbouncer.ini (transaction mode, pool of 20; only the port differs).
# Loopback only; every run is bounded by -T.
#
# Rounds are interleaved (A B C D E, A B C D E, ...: ROUNDS times, each run SECONDS long) so that
# the machine's drift hits every variant alike; each variant first gets one unmeasured warm-up run
# of WARMUP seconds. The summary gives per variant the median of its runs of TPS, average latency
# and p50/p99 latency (from pgbench's per-transaction log, sampled at SAMPLING), failed
# transactions summed, then the ratios of the medians.
#
#   [ROUNDS=3] [WARMUP=5] [SAMPLING=0.1] bench/prepared-compare.sh [seconds-per-run] [clients]
#   e.g. bench/prepared-compare.sh 15 50
#
# Needs: server/target/sluice.jar (mvn -q package -DskipTests), pgbouncer, PostgreSQL binaries.
secs=${1:-15}
clients=${2:-50}
export LC_NUMERIC=C   # pgbench prints and printf reads decimal points
rounds=${ROUNDS:-3}
warmup=${WARMUP:-5}
sampling=${SAMPLING:-0.1}
. "$(dirname "$0")/lib.sh"
[ "$rounds" -ge 1 ] 2>/dev/null || { echo "ROUNDS must be a positive number" >&2; exit 2; }
[ "$clients" -ge 1 ] 2>/dev/null || { echo "clients must be a positive number" >&2; exit 2; }
pgbench_cluster
pgb_port=$(free_port); sl_port=$(free_port)
echo '"postgres" ""' > "$work/userlist.txt"
pgbench_ini "$pgb_port" > "$work/pgbouncer.ini"
pgbench_ini "$sl_port" > "$work/sluice.ini"
is_root && chown postgres: "$work"/*.ini "$work/userlist.txt"
(run_pgbouncer -q "$work/pgbouncer.ini") & pids+=($!)
SLUICE_JAR="$jar" "$here/server/src/main/dist/bin/sluice" -q "$work/sluice.ini" & pids+=($!)
wait_port "$pgb_port"; wait_port "$sl_port"

names=(sluice-prepared pgbouncer-extended direct-prepared sluice-simple pgbouncer-simple)
ports=("$sl_port" "$pgb_port" "$pg_port" "$sl_port" "$pgb_port")
modes=(prepared extended prepared simple simple)
threads=$(( clients < 2 ? clients : 2 ))

# p50 and p99 in ms of the latency column (µs, the third) of pgbench's per-transaction logs
percentiles() {
  python3 - "$@" <<'PY'
import sys
import os
lat = sorted(int(line.split()[2]) for path in sys.argv[1:] if os.path.exists(path) for line in open(path) if line.strip())
pick = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] / 1000 if lat else 0
print(f"{pick(0.50):.3f} {pick(0.99):.3f}")
PY
}

run() { # $1 variant index, $2 seconds -> "tps lat_ms p50_ms p99_ms failed"
  local out tps lat failed logs="$work/log"
  rm -rf "$logs"; mkdir "$logs"
  out=$("$pgbin/pgbench" -n -S -M "${modes[$1]}" -c "$clients" -j "$threads" -T "$2" \
        -l --sampling-rate="$sampling" --log-prefix="$logs/tx" \
        -h 127.0.0.1 -p "${ports[$1]}" -U postgres postgres 2>&1)
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")
  lat=$(sed -n 's/^latency average = \([0-9.]*\) ms/\1/p' <<<"$out")
  failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' <<<"$out")
  [ -n "$tps" ] || echo "pgbench failed for ${names[$1]}: $(tail -3 <<<"$out")" >&2
  echo "${tps:-0} ${lat:-0} $(percentiles "$logs"/tx.*) ${failed:-0}"
}

if [ "$warmup" -gt 0 ]; then
  for i in "${!names[@]}"; do run "$i" "$warmup" >/dev/null; done
fi

results="$work/results"; : > "$results"
echo "# pgbench -S, $clients clients, -j $threads, ${secs} s a run, $rounds rounds in the order: ${names[*]}"
for ((r = 0; r < rounds; r++)); do
  line="# round $((r + 1))/$rounds:"
  for i in "${!names[@]}"; do
    read -r tps lat p50 p99 failed < <(run "$i" "$secs")
    echo "${names[$i]} $tps $lat $p50 $p99 $failed" >> "$results"
    line+=$(printf ' %s %.0f tps p50 %.3f p99 %.3f ms;' "${names[$i]}" "$tps" "$p50" "$p99")
  done
  echo "$line"
done

python3 - "$results" "${names[@]}" <<'PY'
import sys
from statistics import median
path, names = sys.argv[1], sys.argv[2:]
runs = {}
for line in open(path):
    name, *v = line.split()
    runs.setdefault(name, []).append([float(x) for x in v])
med = {n: [median(r[i] for r in runs[n]) for i in range(4)] for n in names}
print()
print(f"{'variant':<19} {'runs':>4} {'median_tps':>11} {'lat_ms':>8} {'p50_ms':>8} {'p99_ms':>8} {'failed':>6}   tps of each run")
for n in names:
    t, l, p50, p99 = med[n]
    failed = int(sum(r[4] for r in runs[n]))
    print(f"{n:<19} {len(runs[n]):>4} {t:>11.1f} {l:>8.3f} {p50:>8.3f} {p99:>8.3f} {failed:>6}   "
          + " ".join(f"{r[0]:.0f}" for r in runs[n]))
def ratio(a, b):
    return f"{a / b:.3f}" if b else "n/a"
print()
print(f"{'ratio of medians':<40} {'tps':>6} {'p50':>6} {'p99':>6}")
for a, b in [("sluice-prepared", "pgbouncer-extended"), ("sluice-prepared", "direct-prepared"),
             ("sluice-simple", "pgbouncer-simple"), ("sluice-prepared", "sluice-simple")]:
    print(f"{a + ' / ' + b:<40} {ratio(med[a][0], med[b][0]):>6} {ratio(med[a][2], med[b][2]):>6} "
          f"{ratio(med[a][3], med[b][3]):>6}")
PY
