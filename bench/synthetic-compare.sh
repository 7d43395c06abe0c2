#!/usr/bin/env bash
# Pooler-bound throughput (step 13, target 5): PostgreSQL replaced by bench/SyntheticBackend.java,
# which answers every query at once, so the pooler is what limits pgbench. Per pooler, client
# count and protocol: TPS, the pooler's CPU seconds (user + system of its process) and
# transactions per pooler CPU-second. Same pgbouncer.ini for both (only the port differs:
# transaction mode, trust, pool of 20); the poolers take turns each round (order rotates), one
# unmeasured warm-up run each; medians of ROUNDS and the Sluice/PgBouncer ratios at the end.
# Loopback only; every run is bounded by -T. SLUICE_JAR_BASE (another build's jar),
# BASE_JAVA_OPTS (this build with other JVM options) or BASE_JAVA (this build on another JVM's
# bin/java) adds a third pooler, sluice-base, to every round, and columns of Sluice over it.
#
#   [ROUNDS=3] [WARMUP=10] [SLUICE_JAR_BASE=old.jar] [BASE_JAVA_OPTS=...] [BASE_JAVA=...] bench/synthetic-compare.sh [seconds-per-run] [client counts...]
#   e.g. bench/synthetic-compare.sh 10 50 200
secs=${1:-10}; shift || true
clients=("$@"); [ ${#clients[@]} -gt 0 ] || clients=(50 200)
rounds=${ROUNDS:-3}; warmup=${WARMUP:-10}
export LC_NUMERIC=C
. "$(dirname "$0")/lib.sh"
pg_port=$(free_port)   # the synthetic backend's port: pgbench_ini points the pool there
java "$here/bench/SyntheticBackend.java" "$pg_port" > "$work/backend.log" 2>&1 & pids+=($!)
wait_port "$pg_port"
echo '"postgres" ""' > "$work/userlist.txt"
printf '\\set aid random(1, 100000)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n' > "$work/select.sql"
start_poolers base
run() { # pooler clients mode seconds -> "tps xacts"
  "$pgbin/pgbench" -n -f "$work/select.sql" -M "$3" -c "$2" -j 2 -T "$4" -h 127.0.0.1 -p "${port[$1]}" \
    -U postgres postgres 2>&1 | awk '/^number of transactions actually processed/ {x=$NF} /^tps/ {t=$3} END {print t, x}'
}
for pooler in "${poolers[@]}"; do run "$pooler" 50 extended "$warmup" >/dev/null; run "$pooler" 50 simple 2 >/dev/null; done

results="$work/results"; : > "$results"
order=("${poolers[@]}")
for r in $(seq 1 "$rounds"); do
  for c in "${clients[@]}"; do for mode in simple extended; do
    for pooler in "${order[@]}"; do
      t0=$(cpu_ticks "${pid[$pooler]}")
      read -r tps xacts <<<"$(run "$pooler" "$c" "$mode" "$secs")"
      cpu=$(( $(cpu_ticks "${pid[$pooler]}") - t0 ))
      line=$(python3 -c "print(f'$pooler $c $mode {$tps:.0f} {$cpu / 100:.2f} {$xacts / max($cpu / 100, 0.01):.0f}')")
      echo "$line" >> "$results"
      echo "round $r: $line" | awk '{printf "%s %-9s %4d clients %-8s %8d tps  cpu %6.2f s  %8d xacts per cpu-s\n", $1" "$2, $3, $4, $5, $6, $7, $8}'
    done
  done; done
  order=("${order[@]:1}" "${order[0]}")
done
python3 - "$results" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
keys = sorted({(int(r[1]), r[2]) for r in rows})
base = any(r[0] == "sluice-base" for r in rows)
print(f"\n{'clients':>7} {'protocol':9} {'pgbouncer tps':>14} {'sluice tps':>11} {'ratio':>6}   "
      f"{'pgbouncer x/cpu-s':>17} {'sluice x/cpu-s':>15} {'ratio':>6}"
      + (f"   {'base tps':>9} {'base x/cpu-s':>13} {'sluice/base tps':>15} {'x/cpu-s':>8}" if base else ""))
for c, m in keys:
    med = {p: [statistics.median(float(r[i]) for r in rows if r[0] == p and int(r[1]) == c and r[2] == m)
               for i in (3, 5)] for p in ("pgbouncer", "sluice") + (("sluice-base",) if base else ())}
    b, s = med["pgbouncer"], med["sluice"]
    line = f"{c:7d} {m:9} {b[0]:14.0f} {s[0]:11.0f} {s[0] / b[0]:6.2f}   {b[1]:17.0f} {s[1]:15.0f} {s[1] / b[1]:6.2f}"
    if base:
        o = med["sluice-base"]
        line += f"   {o[0]:9.0f} {o[1]:13.0f} {s[0] / o[0]:15.2f} {s[1] / o[1]:8.2f}"
    print(line)
PY
